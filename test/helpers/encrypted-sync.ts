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
import { readKeyFile, seal, unseal } from '../../lib/platform/encryption.js';

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
  const r = await execa('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: repo, encoding: 'buffer', stripFinalNewline: false });
  return Buffer.from(r.stdout).toString('latin1');
}

/**
 * A blob of a repository byte for byte (`rev`: `main:index.age`, a blob id). execa strips a final newline
 * by default, also from bytes: one ciphertext in 256 ends in one, and would read one byte short.
 */
export async function remoteBlob(repo: string, rev: string): Promise<Buffer> {
  const r = await execa('git', ['cat-file', 'blob', rev], { cwd: repo, encoding: 'buffer', stripFinalNewline: false });
  return Buffer.from(r.stdout);
}

/**
 * Re-encrypt files of the remote's `main` so that each ciphertext ends in the byte `ending(path)` picks,
 * in a commit on top: the same plaintexts under the same names. Any device writes such a ciphertext one
 * time in 256 (its last byte is the tag's); here every chosen file gets one. Returns the paths resealed.
 */
export async function resealRemoteEndingWith(
  repo: string,
  keyFile: string,
  ending: (path: string) => number | undefined,
): Promise<string[]> {
  const key = await readKeyFile(keyFile);
  const listing = (await execa('git', ['ls-tree', '-r', '-z', 'main'], { cwd: repo })).stdout;
  const parts: Buffer[] = [
    Buffer.from('commit refs/heads/main\ncommitter Test <test@localhost> now\ndata 7\nreseal\nfrom refs/heads/main^0\n'),
  ];
  const resealed: string[] = [];
  for (const record of listing.split('\0').filter(Boolean)) {
    const [meta, path] = record.split('\t') as [string, string];
    const byte = ending(path);
    if (byte === undefined) continue;
    const plain = await unseal(key, await remoteBlob(repo, meta.split(' ')[2]!), path);
    let sealed = await seal(key, plain);
    for (let tries = 1; sealed.at(-1) !== byte; tries++) {
      if (tries > 20_000) throw new Error(`no ciphertext of ${path} ending in ${byte} after ${tries} tries`);
      sealed = await seal(key, plain);
    }
    parts.push(Buffer.from(`M 100644 inline ${path}\ndata ${sealed.length}\n`), Buffer.from(sealed), Buffer.from('\n'));
    resealed.push(path);
  }
  parts.push(Buffer.from('done\n'));
  await execa('git', ['fast-import', '--quiet', '--done', '--date-format=now'], { cwd: repo, input: Buffer.concat(parts) });
  return resealed;
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
