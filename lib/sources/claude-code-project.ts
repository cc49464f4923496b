/**
 * Per-project memory for Claude Code (`sources.claude_code.per_project`):
 * each project — Claude Code's cwd — files its observations under an agent of
 * its own, so a project's memory stays apart and searches can be limited to
 * it. The transcript reader names the agent from the project's folder under
 * ~/.claude/projects; the hooks and the MCP server from the cwd, which gives
 * the same folder name. Small on purpose: the hooks load it.
 */
import { createHash } from 'node:crypto';

/**
 * The folder Claude Code keeps a project's sessions in: its cwd with every
 * character but ASCII letters and digits made '-' (as Claude Code names it;
 * Claude Code cuts names past 200 characters and adds a hash, not followed here).
 */
export function projectFolder(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * The agent a project's memory is filed under with per-project memory:
 * `<agent>.<last word of the folder>-<6 hex of its hash>`, e.g.
 * claude-code.shop-1f2e3d for /home/dev/shop (the hash tells apart two
 * projects of the same name).
 */
export function projectAgent(agent: string, folder: string): string {
  const words = folder.split('-').filter(Boolean);
  const name = (words[words.length - 1] ?? 'root').toLowerCase().slice(0, 40);
  return `${agent}.${name}-${createHash('sha256').update(folder).digest('hex').slice(0, 6)}`;
}


/** What a per-project lookup covers, from the event's cwd: the project's agent (what it writes and reads first) and the agents searched — the project's and main's. */
export function projectScope(agent: string, cwd: string): { agent: string; searchAgents: string[] } {
  const project = projectAgent(agent, projectFolder(cwd));
  return { agent: project, searchAgents: [project, 'main'] };
}
