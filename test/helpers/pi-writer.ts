/**
 * Writes pi session v3 JSONL (OpenClaw file era) for tests and benchmarks:
 * a header line, then message entries chained by parentId.
 */
import { createHash } from 'node:crypto';

export interface Turn {
  role: 'user' | 'assistant';
  text: string;
  /** Optional explicit entry id (8 hex). */
  id?: string;
}

export function entryId(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 8);
}

export class PiSessionWriter {
  private parent: string | null = null;
  private time: number;
  private n = 0;
  constructor(
    readonly sessionId: string,
    start: Date,
    private readonly stepMs = 30_000,
  ) {
    this.time = start.getTime();
  }

  header(cwd = '/home/dev/project'): string {
    return `${JSON.stringify({ type: 'session', version: 3, id: this.sessionId, timestamp: new Date(this.time).toISOString(), cwd })}\n`;
  }

  /** One message entry line. */
  message(turn: Turn): string {
    const id = turn.id ?? entryId(`${this.sessionId}:${this.n++}`);
    const timestamp = new Date(this.time).toISOString();
    this.time += this.stepMs;
    const message =
      turn.role === 'user'
        ? { role: 'user', content: turn.text, timestamp: Date.parse(timestamp) }
        : {
            role: 'assistant',
            content: [{ type: 'text', text: turn.text }],
            provider: 'anthropic',
            model: 'claude-sonnet-4',
            usage: { input: 10, output: 10 },
            stopReason: 'stop',
            timestamp: Date.parse(timestamp),
          };
    const line = JSON.stringify({ type: 'message', id, parentId: this.parent, timestamp, message });
    this.parent = id;
    return `${line}\n`;
  }

  /** A tool call + tool result pair (assistant then toolResult). */
  toolExchange(name: string, args: Record<string, unknown>, output: string): string {
    const callId = `call_${entryId(`${this.sessionId}:call:${this.n}`)}`;
    const id1 = entryId(`${this.sessionId}:${this.n++}`);
    const t1 = new Date(this.time).toISOString();
    this.time += 1000;
    const a = JSON.stringify({
      type: 'message',
      id: id1,
      parentId: this.parent,
      timestamp: t1,
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: callId, name, arguments: args }],
        provider: 'anthropic',
        model: 'claude-sonnet-4',
        stopReason: 'toolUse',
      },
    });
    this.parent = id1;
    const id2 = entryId(`${this.sessionId}:${this.n++}`);
    const t2 = new Date(this.time).toISOString();
    this.time += 1000;
    const r = JSON.stringify({
      type: 'message',
      id: id2,
      parentId: this.parent,
      timestamp: t2,
      message: { role: 'toolResult', toolCallId: callId, toolName: name, content: [{ type: 'text', text: output }], isError: false },
    });
    this.parent = id2;
    return `${a}\n${r}\n`;
  }

  /**
   * Any other entry chained like a message (`{"type":"reset", reason}` as OpenClaw 2026.9's
   * appendSessionResetBoundary writes it, a `message` with extra fields, …).
   */
  entry(fields: Record<string, unknown>): string {
    const id = entryId(`${this.sessionId}:${this.n++}`);
    const timestamp = new Date(this.time).toISOString();
    this.time += this.stepMs;
    const line = JSON.stringify({ ...fields, id, parentId: this.parent, timestamp });
    this.parent = id;
    return `${line}\n`;
  }
}

const SUBJECTS = [
  'PostgreSQL',
  'Redis',
  'TypeScript',
  'the auth service',
  'the billing API',
  'Kubernetes',
  'the mobile app',
  'GraphQL',
  'the CI pipeline',
  'Terraform',
];
const USER_TEMPLATES = [
  'I prefer {s} for this because it is simpler to operate.',
  "We decided to use {s} for the new service, let's go with it.",
  'The deadline for {s} is next Friday, we need the demo ready.',
  'I switched from MySQL to {s} last week.',
  'Can you explain how {s} handles retries?',
  'I finished the migration of {s} today.',
];
const ASSISTANT_TEMPLATES = [
  'Sure. {s} retries failed requests with exponential backoff, starting at 200 ms.',
  'I updated the config so {s} reads POSTGRES_URL from the environment.',
  'The failing test was caused by {s} returning a stale token.',
];

const CODE_LINES = [
  "import { Pool } from 'pg';",
  'export async function handler(req: Request): Promise<Response> {',
  '  const token = req.headers.get("authorization")?.slice(7) ?? "";',
  '  if (!token) return new Response("unauthorized", { status: 401 });',
  '  const rows = await pool.query("SELECT id, amount FROM invoices WHERE owner = $1", [userId]);',
  '  for (const row of rows.rows) total += Number(row.amount);',
  '  return Response.json({ total, count: rows.rowCount });',
  '}',
];

export interface ConversationOptions {
  /** Share of exchanges with a tool call (default 0.3). */
  toolShare?: number;
  /** Lines of tool output per call: [min, max] (default [20, 20]). */
  toolLines?: [number, number];
}

/** A deterministic realistic conversation: `n` user/assistant exchanges with some tool calls. */
export function generateConversation(writer: PiSessionWriter, n: number, seed = 1, options: ConversationOptions = {}): string {
  let out = '';
  let x = seed;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const [minLines, maxLines] = options.toolLines ?? [20, 20];
  for (let i = 0; i < n; i++) {
    const s = SUBJECTS[Math.floor(rand() * SUBJECTS.length)]!;
    out += writer.message({
      role: 'user',
      text: `${USER_TEMPLATES[Math.floor(rand() * USER_TEMPLATES.length)]!.replace('{s}', s)} (item ${seed}-${i})`,
    });
    if (rand() < (options.toolShare ?? 0.3)) {
      const lines = minLines + Math.floor(rand() * (maxLines - minLines + 1));
      let output = '';
      for (let l = 0; l < lines; l++) output += `${CODE_LINES[(i + l) % CODE_LINES.length]} // ${i}:${l}\n`;
      out += writer.toolExchange('read_file', { path: `src/${i}.ts` }, output);
    }
    out += writer.message({
      role: 'assistant',
      text: `${ASSISTANT_TEMPLATES[Math.floor(rand() * ASSISTANT_TEMPLATES.length)]!.replace('{s}', s)} (item ${seed}-${i})`,
    });
  }
  return out;
}
