/**
 * Per-project memory for Claude Code (`sources.claude_code.per_project`):
 * each project — Claude Code's cwd — files its observations under an agent of
 * its own, so a project's memory stays apart and searches can be limited to
 * it. Projects are told apart by their normalised path (projectPath), never by
 * a slug of it: `/srv/acme-api`, `/srv/acme_api` and `/srv/acme.api` are three
 * projects, `café` and `cafè` two, while `/srv/app/`, `/srv/x/../app` and the
 * NFD spelling of a name are the one they spell. The transcript reader takes
 * the cwd Claude Code writes into every transcript entry; the hooks and the
 * MCP server take the event's cwd and their own. Small on purpose: the hooks
 * load it.
 *
 * Memory filed before projects were told apart by path sits under the agent
 * named from Claude Code's project folder (legacyProjectAgent): it is read
 * beside the project's own, never written to again (README "Per-project memory").
 */
import { createHash } from 'node:crypto';
import { posix, win32 } from 'node:path';

/**
 * The folder Claude Code keeps a project's sessions in: its cwd with every
 * character but ASCII letters and digits made '-' (as Claude Code names it;
 * Claude Code cuts names past 200 characters and adds a hash, not followed here).
 */
export function projectFolder(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * A project's path as one spelling: Unicode NFC, `.`/`..` segments and repeated
 * separators resolved, no trailing separator; a Windows path (`C:\…`, `\\server\…`)
 * with '/' separators and an upper-case drive letter. Letter case is kept: two
 * folders that differ in case are two projects where the file system says so.
 */
export function projectPath(cwd: string): string {
  const nfc = cwd.normalize('NFC');
  if (/^[A-Za-z]:[\\/]|^\\\\/.test(nfc)) {
    const p = win32
      .normalize(nfc)
      .replace(/\\/g, '/')
      .replace(/^([a-z]):/, (_m, d: string) => `${d.toUpperCase()}:`);
    return p.length > 3 && p.endsWith('/') ? p.slice(0, -1) : p;
  }
  const p = posix.normalize(nfc);
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/**
 * The agent a project's memory is filed under with per-project memory:
 * `<agent>.<project's folder name in ASCII>-<10 hex of the hash of its path>`,
 * e.g. claude-code.shop-3f9a1c2b7d for /home/dev/shop. The hash of the whole
 * normalised path is what tells projects apart; the name is for people.
 */
export function projectAgent(agent: string, cwd: string): string {
  const path = projectPath(cwd);
  const last = path.split('/').filter(Boolean).pop() ?? '';
  const name =
    last
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'root';
  return `${agent}.${name}-${createHash('sha256').update(path).digest('hex').slice(0, 10)}`;
}

/**
 * The agent per-project memory was filed under before projects were told apart
 * by path: `<agent>.<last word of Claude Code's folder>-<6 hex of the folder's
 * hash>` (one agent for every cwd of the same folder name).
 */
export function legacyProjectAgent(agent: string, cwd: string): string {
  return folderAgent(agent, projectFolder(cwd));
}

/** legacyProjectAgent of a project known only by Claude Code's folder (a transcript that names no cwd). */
export function folderAgent(agent: string, folder: string): string {
  const words = folder.split('-').filter(Boolean);
  const name = (words[words.length - 1] ?? 'root').toLowerCase().slice(0, 40);
  return `${agent}.${name}-${createHash('sha256').update(folder).digest('hex').slice(0, 6)}`;
}

/** What a lookup covers: the agent it writes under and reads first, the agents searched, and whose active memory stands in when it has none. */
export interface MemoryScope {
  agent: string;
  searchAgents: string[];
  activeMemoryFallbacks: string[];
}

/**
 * The scope of a hook event or an MCP server of `agent`. Per-project with a cwd:
 * the project's agent, then its memory from before (legacyProjectAgent), then
 * main's. Per-project without a cwd (an event that does not say where it runs):
 * the agent's own memory and main's only — never every project's. Without
 * per-project memory, undefined (the lookup's own default).
 */
export function memoryScope(agent: string, perProject: boolean, cwd: string | undefined): MemoryScope | undefined {
  if (!perProject) return undefined;
  if (!cwd) return { agent, searchAgents: unique([agent, 'main']), activeMemoryFallbacks: [] };
  const project = projectAgent(agent, cwd);
  const legacy = legacyProjectAgent(agent, cwd);
  return { agent: project, searchAgents: unique([project, legacy, 'main']), activeMemoryFallbacks: unique([legacy, agent]) };
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
