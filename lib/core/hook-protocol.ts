/**
 * The shapes of the per-prompt hook's messages (types only): a hook event as
 * an agent sends it (Claude Code's hook protocol; Codex's hooks.json uses the
 * same one), and the request and reply on the prompt socket a running
 * `ocm-run mcp` serves. Shared by the hook's CommonJS fast path
 * (lib/integrations/hook-event.cts, prompt-socket-client.cts) and the
 * modules that answer it (lib/hooks/).
 */

/** The fields of a hook event OC-Memory uses (every one optional: agents differ). */
export interface HookInput {
  hook_event_name?: string;
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  prompt?: string;
  source?: string;
}

export type HookEventName = 'SessionStart' | 'UserPromptSubmit';

export interface PromptRequest {
  prompt: string;
  /** The agent whose hook asks (`hook prompt --agent`): hooks.log names it. */
  agent?: string;
  /** The hook runs with per-project memory (`--per-project`): without projectCwd, the server searches main's memory only. */
  perProject?: boolean;
  /** Per-project memory: the event's cwd; the server searches that project's memory and main's. */
  projectCwd?: string;
  /** When the hook's process started (epoch ms): the server logs the hook's whole time. */
  hookStartedAt?: number;
}

export interface PromptReply {
  context: string | null;
}

/**
 * The other request a server answers: vectors of a few texts from the model it holds, for a one-off process
 * (`ocm-run search`) that would otherwise load the model itself (lib/integrations/vector-socket.ts). `key` is the
 * asker's vector space; a server of another space answers `{vectors: null}`.
 */
export interface VectorsRequest {
  vectors: { key: string; texts: string[] };
}

export interface VectorsReply {
  vectors: number[][] | null;
}

/** How a server answers VectorsRequest: null when it holds no loaded model of that space. */
export type ServeVectors = (key: string, texts: string[]) => Promise<number[][] | null>;
