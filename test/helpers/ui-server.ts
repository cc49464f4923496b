/**
 * `ocm-run ui` as a user runs it (the built CLI as a child process), and the
 * Debian chromium that drives it in the dashboard tests (playwright-core with
 * its executablePath: nothing downloads a browser).
 */
import { execa, type ResultPromise } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CLI } from './cli.js';

/** Debian's chromium package (`apt-get install -y chromium`); OCM_CHROMIUM overrides. */
export const CHROMIUM = process.env.OCM_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it): the dashboard browser tests are SKIPPED`;
}

/** Flags that keep chromium offline and quiet here (no first run, no background networking). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Screenshots of every page the tests visit (ignored by git; docs/ holds the few the README shows). */
export async function screenshotDir(): Promise<string> {
  const dir = resolve(import.meta.dirname, '..', '..', 'test-output', 'ui');
  await mkdir(dir, { recursive: true });
  return dir;
}

export interface RunningUi {
  /** The address printed, token included. */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** The REST API's Bearer token (`--json`'s apiToken). */
  apiToken: string;
  stop(): Promise<void>;
}

export async function startUi(
  home: string,
  options: { env?: Record<string, string>; timeoutMs?: number; extraArgs?: string[] } = {},
): Promise<RunningUi> {
  const child: ResultPromise = execa(process.execPath, [CLI, 'ui', '--port', '0', '--json', '--home', home, ...(options.extraArgs ?? [])], {
    reject: false,
    env: { OCM_HOME: undefined, CI: '1', ...options.env },
    extendEnv: true,
    stdin: 'ignore',
    // The whole test's bound: a server left behind by a failed test is killed.
    timeout: 15 * 60_000,
  });
  let out = '';
  const printed = await new Promise<{ url: string; apiToken: string }>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`ocm-run ui printed no address within ${(options.timeoutMs ?? 60_000) / 1000} s: ${out}`)),
      options.timeoutMs ?? 60_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && out.includes('\n')) {
        clearTimeout(timer);
        resolveUrl(JSON.parse(line) as { url: string; apiToken: string });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void child.then((r) => {
      clearTimeout(timer);
      reject(new Error(`ocm-run ui exited (${r.exitCode}) before printing its address: ${out}`));
    });
  });
  const { url, apiToken } = printed;
  const parsed = new URL(url);
  return {
    url,
    apiToken,
    origin: parsed.origin,
    port: Number(parsed.port),
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await child;
      clearTimeout(timer);
    },
  };
}

const sessions = new WeakMap<RunningUi, Promise<string>>();

/**
 * The session cookie, as the browser keeps it that opened the printed address: the address's one-time
 * token is exchanged on the first call, later calls for the same server give the same cookie.
 */
export function sessionCookie(ui: RunningUi): Promise<string> {
  let cookie = sessions.get(ui);
  if (!cookie) {
    cookie = fetch(ui.url, { redirect: 'manual', signal: AbortSignal.timeout(60_000) }).then((first) => {
      const set = first.headers.get('set-cookie');
      if (first.status !== 303 || !set) throw new Error(`the login address was refused (${first.status}): was it used before?`);
      return set.split(';')[0]!;
    });
    sessions.set(ui, cookie);
  }
  return cookie;
}

/** A form POST as the dashboard's pages send it (the dashboard's Origin, urlencoded); redirects are not followed. */
export function formPoster(ui: RunningUi, cookie: string) {
  return (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${ui.origin}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: ui.origin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString(),
      signal: AbortSignal.timeout(120_000),
    });
}
