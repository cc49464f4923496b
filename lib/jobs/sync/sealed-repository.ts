/**
 * The encrypted side of sync: a bare Git repository in `.ocm/sync/remote.git` that holds only
 * ciphertext, fetched from and pushed to `sync.git.remote`. Git is the transport and the history; it
 * never merges (ciphertext cannot be merged): every commit made here is a child of the remote's head, so
 * a push is a fast-forward, and merging happens on plaintext in the home (encrypted.ts).
 *
 * The tree of every commit (docs/sync.md, "The format"):
 *
 *   README.md        fixed text: what this is and how to decrypt it (no data)
 *   identity.age     passphrase mode: the sync key, encrypted with the passphrase (age scrypt)
 *   index.age        which file is which: {format, files: {path: sha256 of the plaintext}}
 *   files/<h>.age    each file, h = a keyed hash of its path
 *
 * Commits are written with `git fast-import` (one process per sync), blobs read with
 * `git cat-file --batch`: no ciphertext work tree on disk.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OcmError } from '../../core/errors.js';
import { exists } from '../../platform/home.js';
import { Git } from './git-process.js';

/** Who the encrypted commits are by: a fixed name, never the device's host name or the user's e-mail. */
const COMMITTER = 'OC-Memory <oc-memory@localhost>';
export const COMMIT_MESSAGE = 'OC-Memory encrypted sync';
const BUILDING = 'refs/ocm/building';

export interface TreeEntry {
  path: string;
  /** The blob's object id. */
  blob: string;
}

/** A file of a commit to write: an existing blob by id, or new bytes. */
export type NewEntry = { path: string; blob: string } | { path: string; data: Uint8Array };

export class SealedRepository {
  private readonly git: Git;

  constructor(
    readonly dir: string,
    timeoutMs = 300_000,
  ) {
    this.git = new Git(dir, timeoutMs);
  }

  /** Create the bare repository on first use; true when it was created now. */
  async ensure(): Promise<boolean> {
    if (await exists(this.dir)) return false;
    await mkdir(dirname(this.dir), { recursive: true, mode: 0o700 });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.git.run(['init', '-q', '--bare', '-b', 'main']);
    return true;
  }

  /** Fetch the remote's branch; its head, or undefined when the remote has no such branch yet. */
  async fetch(url: string, branch: string): Promise<string | undefined> {
    const heads = await this.git.run(['ls-remote', '--heads', url, branch]);
    const line = heads.stdout.split('\n').find((l) => l.endsWith(`\trefs/heads/${branch}`));
    if (!line) return undefined;
    await this.git.run(['fetch', '-q', '--no-tags', url, `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
    return this.ref(`refs/remotes/origin/${branch}`);
  }

  async ref(name: string): Promise<string | undefined> {
    const r = await this.git.run(['rev-parse', '--verify', '-q', `${name}^{commit}`], { allowFail: true });
    return r.code === 0 && r.stdout ? r.stdout : undefined;
  }

  async setRef(name: string, commit: string): Promise<void> {
    await this.git.run(['update-ref', name, commit]);
  }

  async isAncestor(ancestor: string, of: string): Promise<boolean> {
    return (await this.git.run(['merge-base', '--is-ancestor', ancestor, of], { allowFail: true })).code === 0;
  }

  async parent(commit: string): Promise<string | undefined> {
    return this.ref(`${commit}^`);
  }

  /** Every file of a commit: path → blob id. */
  async tree(commit: string): Promise<Map<string, string>> {
    const out = await this.git.runBytes(['ls-tree', '-r', '-z', commit]);
    const entries = new Map<string, string>();
    for (const record of out.stdout.toString('utf8').split('\0')) {
      const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(record);
      if (m) entries.set(m[2]!, m[1]!);
    }
    return entries;
  }

  /** The bytes of these blobs (one `git cat-file --batch`). */
  async blobs(ids: readonly string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return out;
    const r = await this.git.runBytes(['cat-file', '--batch'], Buffer.from(`${unique.join('\n')}\n`));
    let at = 0;
    const data = r.stdout;
    while (at < data.length) {
      const nl = data.indexOf(0x0a, at);
      const header = data.subarray(at, nl).toString('utf8');
      const m = /^([0-9a-f]+) blob (\d+)$/.exec(header);
      if (!m) throw new Error(`git cat-file: unexpected "${header}"`);
      const size = Number(m[2]);
      if (nl + 1 + size + 1 > data.length)
        throw new Error(`git cat-file: blob ${m[1]} is cut short (${data.length - nl - 1} of ${size} bytes)`);
      out.set(m[1]!, data.subarray(nl + 1, nl + 1 + size));
      at = nl + 1 + size + 1;
    }
    return out;
  }

  /** Write a commit holding exactly these files, child of `parent` (none: a first commit). */
  async commit(parent: string | undefined, entries: readonly NewEntry[]): Promise<string> {
    await this.git.run(['update-ref', '-d', BUILDING], { allowFail: true });
    const message = Buffer.from(`${COMMIT_MESSAGE}\n`);
    const parts: Buffer[] = [Buffer.from(`commit ${BUILDING}\ncommitter ${COMMITTER} now\ndata ${message.length}\n`), message];
    parts.push(Buffer.from(`${parent ? `from ${parent}\n` : ''}deleteall\n`));
    for (const e of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      if ('blob' in e) parts.push(Buffer.from(`M 100644 ${e.blob} ${e.path}\n`));
      else parts.push(Buffer.from(`M 100644 inline ${e.path}\ndata ${e.data.length}\n`), Buffer.from(e.data), Buffer.from('\n'));
    }
    parts.push(Buffer.from('\ndone\n'));
    await this.git.runBytes(['fast-import', '--quiet', '--done', '--date-format=now'], Buffer.concat(parts));
    const sha = await this.ref(BUILDING);
    if (!sha) throw new Error('git fast-import wrote no commit');
    await this.git.run(['update-ref', '-d', BUILDING], { allowFail: true });
    return sha;
  }

  /** Push a commit to the remote's branch as a fast-forward; false when the remote moved on meanwhile. */
  async push(url: string, commit: string, branch: string): Promise<boolean> {
    const r = await this.git.run(['push', '-q', '--porcelain', url, `${commit}:refs/heads/${branch}`], { allowFail: true });
    if (r.code === 0) return true;
    if (/\[rejected\]|non-fast-forward|fetch first|stale info/.test(`${r.stdout}\n${r.stderr}`)) return false;
    throw new OcmError('IO_ERROR', `git push to the encrypted remote failed: ${(r.stderr || r.stdout).split('\n').slice(-3).join(' ')}`, {
      hint: 'Nothing local was lost; the sync is retried on the next ticks (see `ocm-run status`).',
    });
  }
}
