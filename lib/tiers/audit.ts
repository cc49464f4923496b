/**
 * `.ocm/audit.log`: append-only JSON lines, one for every move, proposal,
 * approval, rejection, rollback, deletion and forget. It records op ids,
 * times, files, hashes and counts — never the text of an observation.
 *
 * A line is appended with O_APPEND and fsynced. A crash mid-append can leave
 * a partial last line; the next append starts on a fresh line and readers
 * skip what does not parse.
 */
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { fromSystemError, isNotFound } from '../core/errors.js';

export type AuditAction =
  | 'move'
  | 'propose'
  | 'approve'
  | 'reject'
  | 'rollback'
  | 'abort'
  | 'recover'
  | 'prune'
  | 'forget'
  | 'export'
  | 'sync';

export interface AuditFile {
  path: string;
  /** sha256 before the op (null: did not exist). */
  before?: string | null;
  /** sha256 after the op (null: removed). */
  after?: string | null;
}

export interface AuditEntry {
  time: string;
  action: AuditAction;
  op?: string;
  [key: string]: unknown;
}

export async function appendAudit(path: string, entry: AuditEntry): Promise<void> {
  const line = `${JSON.stringify(entry)}\n`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const handle = await open(path, 'a+', 0o600);
    try {
      const { size } = await handle.stat();
      let prefix = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) prefix = '\n';
      }
      await handle.appendFile(prefix + line);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fromSystemError(error, `append to the audit log ${path}`);
  }
}

/** Every entry that parses, oldest first. */
export async function readAudit(path: string): Promise<AuditEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return [];
    throw fromSystemError(error, `read the audit log ${path}`);
  }
  const out: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as AuditEntry;
      if (entry && typeof entry === 'object' && typeof entry.action === 'string') out.push(entry);
    } catch {
      /* a torn line from a crash */
    }
  }
  return out;
}

/** Does the log already hold an entry for this op and action? (cheap text scan first) */
export async function hasAuditEntry(path: string, op: string, action: AuditAction): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return false;
  }
  if (!text.includes(op)) return false;
  return (await readAudit(path)).some((e) => e.op === op && e.action === action);
}

/** A path as written in the log: relative to the home when inside it. */
export function auditPath(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  return path;
}
