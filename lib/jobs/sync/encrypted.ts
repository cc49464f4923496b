/**
 * Encrypted sync (`sync.encrypt: true`): the home keeps plain Markdown; the Git remote and the sync
 * command only ever receive age ciphertext with hashed names (sealed-repository.ts has the layout,
 * docs/sync.md the design).
 *
 * One run:
 *  1. fetch the remote's branch into the sealed repository; unlock the key (a wrong key stops here,
 *     before anything is written anywhere);
 *  2. decide per file between this device's plaintext, the remote's and the base — the version of the
 *     last sync (`refs/ocm/synced`) — and merge on plaintext (plaintext-merge.ts);
 *  3. journal what it will write (`.ocm/sync/journal.json`: hashes only), write the home's files, forget
 *     what the tombstones name (forgotten.md, as plain Git sync does);
 *  4. encrypt what changed into a commit on top of the remote's head and push it (a fast-forward; if
 *     another device pushed meanwhile, go back to 1);
 *  5. mark that commit as the new base and drop the journal.
 * Killed anywhere (`kill -9`), the next run finds the same result: a file the journal says was already
 * merged is compared against the remote version it was merged with, so nothing is merged twice or lost.
 *
 * Key rotation (`rotate`) is a run that re-encrypts every file, with new names, for the new key.
 */
import { mkdir, readFile, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { OcmError, isNotFound } from '../../core/errors.js';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import type { HomePaths } from '../../platform/home.js';
import {
  generateSyncKey,
  keyFromSealedIdentity,
  PASSPHRASE_VARIABLE,
  readKeyFile,
  seal,
  sealedName,
  sealWithPassphrase,
  sha256,
  unseal,
  type SyncKey,
  type SyncSecret,
} from '../../platform/encryption.js';
import { parseTombstones, TOMBSTONES_FILE } from '../../tiers/tombstones.js';
import { SealedRepository, type NewEntry } from './sealed-repository.js';
import { fillOutbox, type OutboxResult } from './outbox.js';
import { conflictPath, decide, mergeTexts } from './plaintext-merge.js';
import { isSafeSyncedPath, listSyncedFiles, mergeKindOf } from './synced-files.js';

export interface EncryptedSyncOptions {
  paths: HomePaths;
  /** The remote's URL ('' = no remote: the encrypted copy is kept for the sync command only). */
  remote: string;
  branch: string;
  vaultPath: string;
  secret: SyncSecret;
  /** Re-encrypt everything for this secret (a key rotation). */
  rotateTo?: SyncSecret;
  /** Forget here the ids the tombstones name that a merged day file holds (the home's own forget). */
  forget?: (ids: string[]) => Promise<string[]>;
  /** Test hook: named points of a run (`sync-fetched`, `sync-journaled`, `sync-wrote-one`, `sync-wrote`, `sync-committed`, `sync-pushed`). */
  onStep?: (step: string) => void;
  timeoutMs?: number;
  /** Keep this folder holding the files of the encrypted commit (for the sync command). */
  outbox?: string;
}

export interface EncryptedSyncResult {
  initialised: boolean;
  remote?: string;
  pulled: boolean;
  pushed: boolean;
  /** Home files written from the remote (taken or merged), by synced path. */
  written: string[];
  /** Of those, the ones merged from both sides. */
  merged: string[];
  /** Files both devices changed in the same lines: the other side's version kept beside, at these paths. */
  conflicts: string[];
  /** Home files deleted because the other device deleted them. */
  deleted: string[];
  /** Files encrypted in this run (unchanged files keep their ciphertext). */
  encrypted: number;
  /** Files in the encrypted tree. */
  files: number;
  commit?: string;
  forgotten: string[];
  rotated: boolean;
  outbox?: OutboxResult;
}

const FORMAT = 'oc-memory-sync/1';
const SEAL_BATCH = 16;
const README = `# OC-Memory, encrypted

This repository is an OC-Memory home encrypted with age (https://age-encryption.org).
Nothing here is readable without the key: \`files/*.age\` are the memory files under
hashed names, \`index.age\` says which file is which, \`identity.age\` (when a passphrase
is used) is the key itself, encrypted with the passphrase.

Without OC-Memory:
    age -d -i identity.age index.age        # asks for the passphrase (or: -i your key file)
    age -d -i identity.age files/<name>.age

With OC-Memory: point a home at this remote with the same key and run \`ocm-run sync\`.
A lost key or passphrase means this copy is lost: nobody can decrypt it.
`;

interface Manifest {
  format: string;
  files: Record<string, string>;
}

/** A commit of the sealed repository, read with one key. */
interface Snapshot {
  commit: string;
  tree: Map<string, string>;
  manifest: Manifest;
}

interface Journal {
  /** The remote commit this run merged with. */
  theirs?: string;
  /** Synced path → sha-256 of what the run writes there ('' = deleted). */
  results: Record<string, string>;
}

export async function encryptedSync(options: EncryptedSyncOptions): Promise<EncryptedSyncResult> {
  const dir = join(options.paths.machine, 'sync');
  const repo = new SealedRepository(join(dir, 'remote.git'), options.timeoutMs);
  const initialised = await repo.ensure();
  const remote = options.remote.trim();
  for (let attempt = 1; ; attempt++) {
    const result = await syncOnce(options, repo, dir, remote);
    if (result) return { ...result, initialised };
    if (attempt >= 3) {
      throw new OcmError(
        'IO_ERROR',
        'The encrypted remote kept moving while this device pushed (another device syncing at the same time).',
        {
          hint: 'Nothing local was lost; the sync is retried on the next ticks.',
        },
      );
    }
  }
}

/** One fetch–merge–push; undefined when the push was refused because the remote moved on. */
async function syncOnce(
  options: EncryptedSyncOptions,
  repo: SealedRepository,
  dir: string,
  remote: string,
): Promise<Omit<EncryptedSyncResult, 'initialised'> | undefined> {
  const step = options.onStep ?? (() => {});
  const theirsCommit = remote ? await repo.fetch(remote, options.branch) : undefined;
  step('sync-fetched');
  const syncedCommit = await repo.ref('refs/ocm/synced');
  const journal = await readJournal(dir);

  // 1. The key. Every read below that fails to decrypt is a WRONG_KEY error, raised before any write.
  const unlockFrom = theirsCommit ?? syncedCommit;
  const key = await unlock(repo, options.secret, unlockFrom);
  const theirs = theirsCommit ? await snapshot(repo, key, theirsCommit, 'the remote') : undefined;
  const base = syncedCommit ? await snapshot(repo, key, syncedCommit, 'the last synced copy', true) : undefined;
  const journalBase = journal?.theirs ? await snapshot(repo, key, journal.theirs, 'the interrupted sync', true) : undefined;

  // 2. Decide and merge on plaintext.
  const files = await listSyncedFiles(options.paths, options.vaultPath);
  const ours = new Map<string, Buffer>();
  for (const [path, abs] of files.local) ours.set(path, await readFile(abs));
  const oursSha = new Map([...ours].map(([p, b]) => [p, sha256(b)]));
  const allPaths = new Set<string>([
    ...ours.keys(),
    ...Object.keys(theirs?.manifest.files ?? {}),
    ...Object.keys(base?.manifest.files ?? {}),
  ]);
  const writes = new Map<string, Buffer | null>();
  const result: Omit<EncryptedSyncResult, 'initialised'> = {
    pulled: Boolean(theirs),
    pushed: false,
    written: [],
    merged: [],
    conflicts: [],
    deleted: [],
    encrypted: 0,
    files: 0,
    forgotten: [],
    rotated: false,
    ...(remote ? { remote } : {}),
  };
  const toRead: Array<{ snap: Snapshot; path: string }> = [];
  const plans: Array<{ path: string; action: 'take' | 'merge'; baseSnap?: Snapshot }> = [];
  for (const path of [...allPaths].sort()) {
    if (!isSafeSyncedPath(path)) continue;
    const place = files.place(path);
    if (!place) continue; // no place on this device (a cold file without a vault): kept on the remote as it is
    // A file an interrupted run already merged with `journal.theirs` has that remote version as its base.
    const merged = journal && journalBase && journal.results[path] !== undefined && journal.results[path] === (oursSha.get(path) ?? '');
    const baseSnap = merged ? journalBase : base;
    const d = decide(baseSnap?.manifest.files[path], oursSha.get(path), theirs?.manifest.files[path]);
    if (d.action === 'keep' || !theirs) continue;
    plans.push({ path, action: d.action, ...(baseSnap ? { baseSnap } : {}) });
    if (theirs.manifest.files[path] !== undefined) toRead.push({ snap: theirs, path });
    if (d.action === 'merge' && baseSnap?.manifest.files[path] !== undefined) toRead.push({ snap: baseSnap, path });
  }
  const plain = await readPlaintexts(repo, key, toRead);
  const taken = (p: string) => allPaths.has(p) || writes.has(p);
  for (const plan of plans) {
    const theirsText = plain.get(`${theirs!.commit}:${plan.path}`);
    if (plan.action === 'take') {
      writes.set(plan.path, theirsText ?? null);
      continue;
    }
    const baseText = plan.baseSnap ? plain.get(`${plan.baseSnap.commit}:${plan.path}`) : undefined;
    const m = await mergeTexts(mergeKindOf(plan.path), baseText ?? Buffer.alloc(0), ours.get(plan.path)!, theirsText!, dir);
    if (!m.text.equals(ours.get(plan.path)!)) writes.set(plan.path, m.text);
    result.merged.push(plan.path);
    if (m.conflict) {
      const copy = conflictPath(plan.path, taken);
      writes.set(copy, m.conflict);
      result.conflicts.push(copy);
    }
  }

  // 3. Write the home (journaled first: hashes only).
  if (writes.size > 0) {
    await writeJournal(dir, {
      ...(theirs ? { theirs: theirs.commit } : {}),
      results: Object.fromEntries([...writes].map(([p, b]) => [p, b ? sha256(b) : ''])),
    });
    step('sync-journaled');
    let first = true;
    for (const [path, data] of writes) {
      const abs = files.place(path)!;
      if (data) {
        await mkdir(dirname(abs), { recursive: true, mode: 0o700 });
        await writeFileAtomic(abs, data, { mode: 0o600 });
        result.written.push(path);
      } else {
        await unlink(abs).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
        result.deleted.push(path);
      }
      if (first) step('sync-wrote-one');
      first = false;
    }
    step('sync-wrote');
  }
  // After anything came from the remote, a line another device forgot is forgotten here too — also one a
  // merge kept because this device had changed it.
  if (plans.length > 0 && options.forget) {
    const days = new Map([...ours].filter(([p]) => mergeKindOf(p) === 'day'));
    for (const [p, b] of writes) if (mergeKindOf(p) === 'day') b ? days.set(p, b) : days.delete(p);
    result.forgotten = await forgetTombstoned(
      options,
      files.place(TOMBSTONES_FILE),
      [...days.values()].map((b) => b.toString('utf8')),
    );
  }

  // 4. Encrypt the home as it now is, on top of the remote's head.
  const encryptFor = options.rotateTo ? await newKey(options.rotateTo) : { key, identityFile: undefined as Uint8Array | undefined };
  const rotating = Boolean(options.rotateTo);
  // What the home holds now: the files read in step 2 with this run's writes; read again only after a forget.
  const now = result.forgotten.length > 0 ? await listSyncedFiles(options.paths, options.vaultPath) : files;
  const contents = result.forgotten.length > 0 ? new Map<string, Buffer>() : new Map(ours);
  if (result.forgotten.length === 0) {
    for (const [path, data] of writes) {
      if (data) {
        contents.set(path, data);
        now.local.set(path, files.place(path)!);
      } else {
        contents.delete(path);
        now.local.delete(path);
      }
    }
  }
  const entries: NewEntry[] = [{ path: 'README.md', data: Buffer.from(README) }];
  const manifest: Manifest = { format: FORMAT, files: {} };
  const reuse = rotating ? [] : [theirs, base].filter((s): s is Snapshot => Boolean(s));
  const toSeal: Array<{ name: string; data: Buffer }> = [];
  for (const [path, abs] of [...now.local].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const data = contents.get(path) ?? (await readFile(abs));
    const sum = sha256(data);
    manifest.files[path] = sum;
    const name = `files/${sealedName(encryptFor.key, path)}.age`;
    const same = reuse.find((s) => s.manifest.files[path] === sum && s.tree.has(name));
    if (same) entries.push({ path: name, blob: same.tree.get(name)! });
    else toSeal.push({ name, data });
  }
  // A few at a time: the key agreement of each file runs on libuv's thread pool.
  for (let i = 0; i < toSeal.length; i += SEAL_BATCH) {
    const batch = toSeal.slice(i, i + SEAL_BATCH);
    const sealed = await Promise.all(batch.map((f) => seal(encryptFor.key, f.data)));
    batch.forEach((f, j) => {
      entries.push({ path: f.name, data: sealed[j]! });
    });
  }
  result.encrypted += toSeal.length;
  // Files this device has no place for stay as the remote has them.
  if (theirs) {
    for (const [path, sum] of Object.entries(theirs.manifest.files)) {
      if (manifest.files[path] !== undefined || !isSafeSyncedPath(path) || now.place(path)) continue;
      const name = `files/${sealedName(key, path)}.age`;
      if (!theirs.tree.has(name)) continue;
      manifest.files[path] = sum;
      if (rotating) {
        const [text] = (await readPlaintexts(repo, key, [{ snap: theirs, path }])).values();
        entries.push({ path: `files/${sealedName(encryptFor.key, path)}.age`, data: await seal(encryptFor.key, text!) });
        result.encrypted++;
      } else entries.push({ path: name, blob: theirs.tree.get(name)! });
    }
  }
  const identityFile =
    encryptFor.identityFile ??
    (!rotating && options.secret.kind === 'passphrase' ? await identityBlob(repo, unlockFrom, key, options.secret) : undefined);
  if (identityFile)
    entries.push(
      identityFile instanceof Uint8Array ? { path: 'identity.age', data: identityFile } : { path: 'identity.age', blob: identityFile.blob },
    );
  entries.push({ path: 'index.age', data: await seal(encryptFor.key, JSON.stringify(manifest)) });
  result.files = Object.keys(manifest.files).length;
  result.rotated = rotating;

  const head = theirs ?? base;
  const unchanged = !rotating && head && sameFiles(head.manifest, manifest) && head.tree.has('README.md');
  const parent = theirs?.commit ?? (remote ? undefined : syncedCommit);
  const commit = unchanged ? head.commit : await repo.commit(parent, entries);
  step('sync-committed');
  if (remote && commit !== theirs?.commit) {
    if (!(await repo.push(remote, commit, options.branch))) return undefined;
    result.pushed = true;
    step('sync-pushed');
  }
  await repo.setRef('refs/ocm/synced', commit);
  await rm(journalPath(dir), { force: true });
  result.commit = commit;
  if (options.outbox) result.outbox = await fillOutbox(repo, commit, options.outbox);
  return result;
}

async function unlock(repo: SealedRepository, secret: SyncSecret, commit: string | undefined): Promise<SyncKey> {
  if (secret.kind === 'key_file') return readKeyFile(secret.path);
  const tree = commit ? await repo.tree(commit) : undefined;
  const blob = tree?.get('identity.age');
  if (!blob) {
    if (tree?.has('index.age')) {
      throw new OcmError('WRONG_KEY', `The encrypted remote was written with a key file, not a passphrase (${PASSPHRASE_VARIABLE}).`, {
        hint: 'Set sync.key_file to the key file the other devices use. Nothing was changed here or on the remote.',
      });
    }
    return generateSyncKey();
  }
  const [sealed] = (await repo.blobs([blob])).values();
  return keyFromSealedIdentity(secret.passphrase, sealed!, 'The key on the remote (identity.age)');
}

/** The identity.age of the unlocking commit, or a new one for a key generated now. */
async function identityBlob(
  repo: SealedRepository,
  commit: string | undefined,
  key: SyncKey,
  secret: Extract<SyncSecret, { kind: 'passphrase' }>,
): Promise<{ blob: string } | Uint8Array> {
  const blob = commit ? (await repo.tree(commit)).get('identity.age') : undefined;
  if (blob) return { blob };
  return sealWithPassphrase(secret.passphrase, key.identity);
}

async function newKey(secret: SyncSecret): Promise<{ key: SyncKey; identityFile: Uint8Array | undefined }> {
  if (secret.kind === 'key_file') return { key: await readKeyFile(secret.path), identityFile: undefined };
  const key = await generateSyncKey();
  return { key, identityFile: await sealWithPassphrase(secret.passphrase, key.identity) };
}

/** A commit's tree and manifest; `lenient`: a commit this key cannot read (another key's, before a rotation) reads as empty. */
async function snapshot(
  repo: SealedRepository,
  key: SyncKey,
  commit: string,
  what: string,
  lenient = false,
): Promise<Snapshot | undefined> {
  const tree = await repo.tree(commit);
  const index = tree.get('index.age');
  if (!index) {
    if (tree.size === 0 || lenient) return { commit, tree, manifest: { format: FORMAT, files: {} } };
    throw new OcmError('BAD_INPUT', `${what} (sync.git.remote) is not an encrypted OC-Memory remote: it has no index.age.`, {
      hint: 'Use an empty repository for encrypted sync, or turn sync.encrypt off for a plain one. Nothing was changed.',
    });
  }
  const [sealed] = (await repo.blobs([index])).values();
  let text: Uint8Array;
  try {
    text = await unseal(key, sealed!, `The index of ${what} (index.age)`);
  } catch (error) {
    if (lenient && error instanceof OcmError && error.code === 'WRONG_KEY') return undefined;
    throw error;
  }
  const manifest = JSON.parse(new TextDecoder().decode(text)) as Manifest;
  if (manifest.format !== FORMAT)
    throw new OcmError('BAD_INPUT', `${what} was written in format ${manifest.format}, which this version does not read.`, {
      hint: 'Update OC-Memory on this device.',
    });
  return { commit, tree, manifest };
}

/** Decrypted files, keyed `<commit>:<path>`. */
async function readPlaintexts(
  repo: SealedRepository,
  key: SyncKey,
  wanted: Array<{ snap: Snapshot; path: string }>,
): Promise<Map<string, Buffer>> {
  const ids = new Map<string, string>();
  for (const { snap, path } of wanted) {
    const blob = snap.tree.get(`files/${sealedName(key, path)}.age`);
    if (blob) ids.set(`${snap.commit}:${path}`, blob);
  }
  const blobs = await repo.blobs([...ids.values()]);
  const out = new Map<string, Buffer>();
  for (const [k, id] of ids) {
    const data = Buffer.from(await unseal(key, blobs.get(id)!, `An encrypted file of the remote (${id.slice(0, 12)})`));
    const expected = wanted.find((w) => `${w.snap.commit}:${w.path}` === k)!;
    if (sha256(data) !== expected.snap.manifest.files[expected.path]) {
      throw new OcmError('BAD_INPUT', 'An encrypted file of the remote does not match its index (damaged or replaced).', {
        hint: 'Nothing was changed here. Check the remote; a sync from a device with a good copy repairs it.',
      });
    }
    out.set(k, data);
  }
  return out;
}

function sameFiles(a: Manifest, b: Manifest): boolean {
  const ka = Object.keys(a.files);
  return ka.length === Object.keys(b.files).length && ka.every((k) => a.files[k] === b.files[k]);
}

async function forgetTombstoned(options: EncryptedSyncOptions, tombstoneFile: string | undefined, dayTexts: string[]): Promise<string[]> {
  if (!tombstoneFile || dayTexts.length === 0) return [];
  let ids: Set<string>;
  try {
    ids = parseTombstones(await readFile(tombstoneFile, 'utf8'));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const held = [...ids].filter((id) => dayTexts.some((text) => text.includes(id))).sort();
  return held.length > 0 ? options.forget!(held) : [];
}

function journalPath(dir: string): string {
  return join(dir, 'journal.json');
}

async function readJournal(dir: string): Promise<Journal | undefined> {
  try {
    return JSON.parse(await readFile(journalPath(dir), 'utf8')) as Journal;
  } catch (error) {
    if (isNotFound(error) || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

async function writeJournal(dir: string, journal: Journal): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(journalPath(dir), JSON.stringify(journal), { mode: 0o600 });
}
