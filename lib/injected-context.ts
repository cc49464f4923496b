/**
 * What OC-Memory itself puts into an agent's conversation, so the transcript
 * readers can recognise it and never observe it again as a new fact:
 *
 * - the memory block it injects (the OpenClaw plugin's prepended context, the
 *   Claude Code / Codex / pi hooks' additional context), always wrapped in one
 *   recognisable marker, `<oc-memory>` … `</oc-memory>`;
 * - its own tools: the MCP server registered as `oc-memory` (Claude Code names
 *   its tools `mcp__oc-memory__<tool>`, Codex `mcp__oc_memory__<tool>` or the
 *   tool with the namespace `mcp__oc-memory`), and the OpenClaw plugin's
 *   tools, named `oc_memory_<tool>`.
 *
 * Every writer of injected context wraps it with wrapInjectedContext; every
 * reader strips it with stripInjectedContext and drops calls to (and results
 * of) tools for which isOwnTool is true. See docs/sources.md, "What is never
 * observed".
 */

/** The tag around every block of memory OC-Memory injects into a prompt. */
export const INJECTED_CONTEXT_TAG = 'oc-memory';
export const INJECTED_CONTEXT_OPEN = `<${INJECTED_CONTEXT_TAG}>`;
export const INJECTED_CONTEXT_CLOSE = `</${INJECTED_CONTEXT_TAG}>`;

/** The name OC-Memory's MCP server is registered under in an agent's config. */
export const MCP_SERVER_NAME = 'oc-memory';
/** Prefix of the tools the OpenClaw plugin registers (`oc_memory_search`, `oc_memory_remember`, …). */
export const PLUGIN_TOOL_PREFIX = 'oc_memory_';

/** `body` inside the marker, one block. */
export function wrapInjectedContext(body: string): string {
  return `${INJECTED_CONTEXT_OPEN}\n${body.trim()}\n${INJECTED_CONTEXT_CLOSE}`;
}

/**
 * `text` without any OC-Memory memory block. A block whose closing tag is
 * missing (the text was cut) runs to the end of the text.
 */
export function stripInjectedContext(text: string): string {
  if (!text.includes(INJECTED_CONTEXT_OPEN)) return text;
  return text.replace(INJECTED_BLOCK, '').replace(/\n{3,}/g, '\n\n').trim();
}

/** Does `text` carry an OC-Memory memory block? */
export function hasInjectedContext(text: string): boolean {
  return text.includes(INJECTED_CONTEXT_OPEN);
}

const INJECTED_BLOCK = new RegExp(`${INJECTED_CONTEXT_OPEN}[\\s\\S]*?(?:${INJECTED_CONTEXT_CLOSE.replace('/', '\\/')}|$)`, 'g');

/** `oc-memory`, `oc_memory`, `ocmemory` (any case) as a server name written by a user or an agent. */
const SERVER = /^oc[-_]?memory$/i;

/**
 * Is this tool one of OC-Memory's own? `name` as the transcript records it;
 * `namespace` when the agent records the MCP server apart (Codex). Matches
 * `mcp__oc-memory__search`, `mcp__oc_memory__remember`, (`mcp__oc-memory`,
 * `search`), and the OpenClaw plugin's `oc_memory_search`.
 */
export function isOwnTool(name: string, namespace?: string): boolean {
  if (namespace !== undefined && ownServer(namespace)) return true;
  if (name.toLowerCase().startsWith(PLUGIN_TOOL_PREFIX)) return true;
  return ownServer(name);
}

/** `mcp__<server>` or `mcp__<server>__<tool>` (also with a single `_` or `.` / `/` after the server). */
function ownServer(name: string): boolean {
  const match = /^mcp__(.+?)(?:__.*|[./].*)?$/i.exec(name);
  return match !== null && SERVER.test(match[1]!);
}
