/**
 * Serving the dashboard (`ocm-run ui`): the hono app of lib/ui/app.ts on
 * @hono/node-server, bound to 127.0.0.1 only, with a new random token for
 * every start (docs/dashboard.md). The caller prints the address and stops it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-file.js';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Config } from '../config/config-schema.js';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { createUiApp } from './app.js';
import { cookieName } from './guard.js';

export const UI_HOST = '127.0.0.1';
export const DEFAULT_UI_PORT = 4747;

export interface UiServerOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  /** The log searches are timed in (logs/search.log). */
  searchLogger?: Logger;
  now: () => Date;
  /** 0: any free port. */
  port: number;
  /** The REST API's Bearer token (default: a new random one for this run). */
  apiToken?: string;
  lockWaitMs?: number;
}

export interface UiServer {
  /** The address to open, its one-time login token included. */
  url: string;
  port: number;
  /** The one-time login token. */
  token: string;
  /** The REST API's Bearer token (docs/rest-api.md). */
  apiToken: string;
  /**
   * A local page (0600, in the home's .ocm folder) that sends the browser on to the login address: what
   * `--open` hands the browser, so that the token is in no process's argv. Removed once the token is used,
   * and when the server stops.
   */
  openerPage(): Promise<string>;
  close(): Promise<void>;
}

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  const session = randomBytes(24).toString('base64url');
  const apiToken = options.apiToken ?? randomBytes(24).toString('base64url');
  let port = options.port;
  let opener: string | undefined;
  const removeOpener = async () => {
    if (opener) await rm(opener, { force: true });
    opener = undefined;
  };
  const onLogin = () => removeOpener().catch(() => undefined);
  const { app, memory } = createUiApp({ ...options, token, session, apiToken, onLogin, port: () => port });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: UI_HOST });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new OcmError('BAD_INPUT', `Port ${options.port} on ${UI_HOST} is in use.`, {
              hint: 'Choose another with --port N, or --port 0 for any free port.',
            })
          : error,
      );
    });
    server.listen(options.port, UI_HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  options.logger.log('info', 'ui.start', { port });
  // Load what the first page needs (the Markdown parser, the masking rules, the templates) while the user opens the address.
  const host = `${UI_HOST}:${port}`;
  void Promise.resolve(app.request(`http://${host}/`, { headers: { host, cookie: `${cookieName(port)}=${session}` } })).catch(
    () => undefined,
  );
  const url = `http://${UI_HOST}:${port}/?token=${token}`;
  return {
    url,
    port,
    token,
    apiToken,
    async openerPage() {
      await mkdir(options.paths.machine, { recursive: true, mode: 0o700 });
      opener = join(options.paths.machine, `ui-open-${port}.html`);
      const page = `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${url}"><title>OC-Memory</title><a href="${url}">OC-Memory dashboard</a>\n`;
      await writeFileAtomic(opener, page, { mode: 0o600 });
      return opener;
    },
    close: () =>
      new Promise<void>((resolve) => {
        void removeOpener().catch(() => undefined);
        void memory.close();
        (server as import('node:http').Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
