/**
 * Devices for encrypted-sync tests: memory homes (real files, a vault for the cold tier) pointed at one
 * bare Git repository in a temp folder, with `sync.encrypt` on and a key file or a passphrase; the CLI
 * runs as a child process. And what an attacker holding the remote sees: every object of it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli, type CliResult } from './cli.js';
import { hashTree, newHome } from './tier-home.js';
import type { HomePaths } from '../../lib/platform/home.js';

export interface Device {
  name: string;
  paths: HomePaths;
  vault: string;
  sync(extraArgs?: string[], env?: Record<string, string>): Promise<CliResult>;
}

export type DeviceSecret = { keyFile: string } | { passphrase: string };

export async function bareRemote(dir: string): Promise<string> {
  const remote = join(dir, 'remote.git');
  await execa('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  return remote;
}

/** A home (dir/name/home) with its vault (dir/name/vault), syncing encrypted to `remote`. */
export async function encryptedDevice(dir: string, name: string, remote: string, secret: DeviceSecret, extraConfig = ''): Promise<Device> {
  const paths = await newHome(join(dir, name));
  const vault = join(dir, name, 'vault');
  await mkdir(vault, { recursive: true });
  const keyLine = 'keyFile' in secret ? `  key_file: ${JSON.stringify(secret.keyFile)}\n` : '';
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\ntiers:\n  vault_path: ${JSON.stringify(vault)}\nsync:\n  encrypt: true\n${keyLine}  git: {enabled: true, remote: ${JSON.stringify(remote)}}\n${extraConfig}`,
    { mode: 0o600 },
  );
  await writeFile(
    paths.env,
    `OPENAI_API_KEY=sk-secret-never-synced-${name}\n${'passphrase' in secret ? `OCM_SYNC_PASSPHRASE=${secret.passphrase}\n` : ''}`,
    { mode: 0o600 },
  );
  return {
    name,
    paths,
    vault,
    sync: (extraArgs = [], env = {}) => runCli(['sync', '--home', paths.root, ...extraArgs], { env: { OCM_TEST: '1', ...env } }),
  };
}

/** A key file made by the CLI (`sync --new-key`). */
export async function newKeyFile(path: string): Promise<string> {
  const r = await runCli(['sync', '--new-key', path, '--home', join(path, '..', 'keygen-home')]);
  if (r.code !== 0) throw new Error(`sync --new-key failed: ${r.stderr}`);
  return path;
}

/** Every object of a repository (blobs, trees, commits, tags), as `git cat-file --batch-all-objects --batch` prints them. */
export async function everyObject(repo: string): Promise<string> {
  const r = await execa('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: repo, encoding: 'buffer' });
  return Buffer.from(r.stdout).toString('latin1');
}

/** The texts of `needles` found anywhere in the remote's objects (in UTF-8 bytes). */
export async function leakedInto(repo: string, needles: string[]): Promise<string[]> {
  const all = await everyObject(repo);
  return needles.filter((n) => all.includes(Buffer.from(n, 'utf8').toString('latin1')));
}

/** Content hashes of everything sync carries: day files, reflections, the audit log, the vault's cold tier. */
export async function syncedState(d: Device): Promise<Record<string, string>> {
  const tree = await hashTree([d.paths.memory, d.paths.archive, d.paths.reflections, join(d.vault, 'OC-Memory')]);
  const out = Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, v.split(':')[0]!]));
  for (const extra of [d.paths.audit, join(d.paths.root, 'forgotten.md')]) {
    try {
      out[extra.slice(d.paths.root.length)] = createHash('sha256')
        .update(await readFile(extra))
        .digest('hex');
    } catch {
      // absent on both is equal
    }
  }
  return out;
}
