/**
 * Git sync of the memory home (issue: multi-device and backup with existing
 * tools): commit the Markdown (never `.env`, never `.ocm/` — index, vectors,
 * rollback copies), `pull --rebase` when a remote is set, recount the
 * frontmatter of day files Git merged by union, push.
 *
 * The home becomes a repository on first use, with a `.gitattributes` (day
 * files merge by union) and a `.gitignore` from templates/. A failed pull
 * aborts its rebase, so the working tree is left exactly as it was.
 */
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import { OcmError } from '../../core/errors.js';
import { Git } from './git-process.js';
import { exists } from '../../platform/home.js';
import { packagePath } from '../../platform/package-root.js';
import { repairUnionMerged } from './union-repair.js';
import { readTombstones, TOMBSTONES_FILE } from '../../tiers/tombstones.js';

export interface GitSyncOptions {
  /** The memory home (the repository's work tree). */
  root: string;
  /** A remote URL or the name of a remote of the repository; '' = the repository's `origin`, if any. */
  remote: string;
  branch: string;
  now: () => Date;
  timeoutMs?: number;
  /**
   * Forget, on this device, observations another device forgot (ids its tombstones name that the
   * pulled tree still holds): the home's own forget (index, active memory, audit). Returns the ids forgotten.
   */
  forget?: (ids: string[]) => Promise<string[]>;
}

export interface GitSyncResult {
  initialised: boolean;
  /** Files in the local commit (0: nothing to commit). */
  committed: number;
  commit?: string;
  remote?: string;
  pulled: boolean;
  pushed: boolean;
  /** Day files whose frontmatter was recounted after a union merge. */
  repaired: string[];
  /** Ids forgotten here because a tombstone (this device's or another's) names them. */
  forgotten: string[];
}

async function ensureFile(path: string, template: string): Promise<void> {
  if (await exists(path)) return;
  await writeFileAtomic(path, await readFile(packagePath('templates', template), 'utf8'), { mode: 0o644 });
}

/** Append a line to a file the program wrote once (a home made by an earlier version lacks it). */
async function ensureLine(path: string, line: string): Promise<void> {
  const text = await readFile(path, 'utf8');
  if (text.split('\n').some((l) => l.trim() === line)) return;
  await appendFile(path, `${text.endsWith('\n') || text === '' ? '' : '\n'}${line}\n`);
}

/** Tombstoned ids that tracked day files still hold (git grep over the work tree). */
async function tombstonedInTree(git: Git, root: string): Promise<string[]> {
  const ids = await readTombstones(root);
  if (ids.size === 0) return [];
  const patterns = join(root, '.git', 'ocm-tombstones');
  try {
    // An id at the end of an observation line (` ^o-…`), on a line of its own, or in the provenance block (`o-…:`).
    await writeFile(patterns, `${[...ids].join('\n')}\n`);
    const found = await git.run(['grep', '-o', '-h', '-F', '-w', '-f', patterns, '--', ':(glob)memory/**/*.md', ':(glob)archive/**/*.md'], {
      allowFail: true,
    });
    if (found.code !== 0) return [];
    return [
      ...new Set(
        found.stdout
          .split('\n')
          .map((l) => l.trim())
          .filter((id) => ids.has(id)),
      ),
    ].sort();
  } finally {
    await rm(patterns, { force: true });
  }
}

async function resolveRemote(git: Git, configured: string): Promise<string | undefined> {
  const names = (await git.run(['remote'])).stdout.split('\n').filter(Boolean);
  if (!configured) return names.includes('origin') ? 'origin' : undefined;
  if (names.includes(configured)) return configured;
  if (names.includes('origin')) {
    const url = (await git.run(['remote', 'get-url', 'origin'])).stdout;
    if (url !== configured) await git.run(['remote', 'set-url', 'origin', configured]);
  } else {
    await git.run(['remote', 'add', 'origin', configured]);
  }
  return 'origin';
}

export async function gitSync(options: GitSyncOptions): Promise<GitSyncResult> {
  const git = new Git(options.root, options.timeoutMs ?? 120_000);
  const result: GitSyncResult = { initialised: false, committed: 0, pulled: false, pushed: false, repaired: [], forgotten: [] };
  if (!(await exists(join(options.root, '.git')))) {
    await git.run(['init', '-q', '-b', options.branch]);
    result.initialised = true;
  }
  await ensureFile(join(options.root, '.gitattributes'), 'sync-gitattributes');
  await ensureLine(join(options.root, '.gitattributes'), `${TOMBSTONES_FILE} merge=union`);
  await ensureFile(join(options.root, '.gitignore'), 'sync-gitignore');
  await ensureLine(join(options.root, '.gitignore'), 'config.yaml');

  const email = await git.run(['config', 'user.email'], { allowFail: true });
  if (email.code !== 0 || !email.stdout)
    git.setIdentity(['-c', 'user.name=OC-Memory', '-c', `user.email=oc-memory@${hostname() || 'localhost'}`]);

  const MARKDOWN = ':(glob)**/*.md';
  const commitAll = async (message: string, paths: string[] = [MARKDOWN, '.gitattributes', '.gitignore']) => {
    // A pathspec that matches nothing is an error for git add: leave the Markdown one out when there is none yet.
    const anyMarkdown = (await git.run(['ls-files', '-co', '--exclude-standard', '--', MARKDOWN])).stdout.length > 0;
    await git.run(['add', '-A', '--', ...paths.filter((p) => p !== MARKDOWN || anyMarkdown)]);
    const staged = (await git.run(['diff', '--cached', '--name-only'])).stdout.split('\n').filter(Boolean);
    if (staged.length === 0) return 0;
    await git.run(['commit', '-q', '--no-verify', '-m', message]);
    return staged.length;
  };
  const stamp = `${hostname() || 'device'} ${options.now().toISOString()}`;
  result.committed = await commitAll(`ocm sync: ${stamp}`);
  if (result.committed > 0) result.commit = (await git.run(['rev-parse', '--short', 'HEAD'])).stdout;

  const remote = await resolveRemote(git, options.remote.trim());
  if (!remote) return result;
  result.remote = remote;
  const heads = await git.run(['ls-remote', '--heads', remote, options.branch]);
  const hasHead = (await git.run(['rev-parse', '--verify', '-q', 'HEAD'], { allowFail: true })).code === 0;
  if (heads.stdout.trim()) {
    const before = hasHead ? (await git.run(['rev-parse', 'HEAD'])).stdout : undefined;
    const pull = await git.run(['pull', '-q', '--rebase', '--no-autostash', remote, options.branch], { allowFail: true });
    if (pull.code !== 0) {
      if ((await exists(join(options.root, '.git', 'rebase-merge'))) || (await exists(join(options.root, '.git', 'rebase-apply')))) {
        await git.run(['rebase', '--abort'], { allowFail: true });
      }
      const msg = (pull.stderr || pull.stdout).split('\n').slice(-3).join(' ');
      throw new OcmError('IO_ERROR', `git pull --rebase from ${remote} failed: ${msg}`, {
        hint: 'Your local files are unchanged (the rebase was aborted); the sync is retried on the next ticks. If it keeps failing, resolve it by hand with git in the memory home.',
      });
    }
    result.pulled = true;
    const changed = before
      ? (await git.run(['diff', '--name-only', before, 'HEAD'])).stdout.split('\n').filter(Boolean)
      : (await git.run(['ls-files'])).stdout.split('\n').filter(Boolean);
    for (const rel of changed) {
      if (!/^(memory|archive)\/.*\d{4}-\d{2}-\d{2}\.md$/.test(rel)) continue;
      const path = join(options.root, rel);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        continue;
      }
      const repaired = repairUnionMerged(text);
      if (repaired !== undefined && repaired !== text) {
        await writeFileAtomic(path, repaired, { mode: 0o600 });
        result.repaired.push(rel);
      }
    }
    if (result.repaired.length > 0) await commitAll(`ocm sync: recount merged day files (${stamp})`, result.repaired);
    // A line another device forgot is forgotten here too — also one a union merge just brought back.
    const held = await tombstonedInTree(git, options.root);
    if (held.length > 0 && options.forget) {
      result.forgotten = await options.forget(held);
      if (result.forgotten.length > 0)
        await commitAll(`ocm sync: forget ${result.forgotten.length} observation(s) forgotten on another device (${stamp})`);
    }
  }
  await git.run(['push', '-q', remote, `HEAD:refs/heads/${options.branch}`]);
  result.pushed = true;
  return result;
}
