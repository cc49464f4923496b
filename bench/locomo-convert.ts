/**
 * LoCoMo → OpenClaw transcripts (pi session format v3), for the retrieval eval.
 *
 * One session file per LoCoMo session under
 * `<state>/agents/main/sessions/<sessionId>.jsonl`: speaker_a is the user,
 * speaker_b the assistant; turn k of session N is stamped
 * session_N_date_time + 30 s × k; an image turn gets " [image: <caption>]";
 * entry ids are 8 hex characters derived from the dia_id, and
 * `<state>/locomo-map.json` maps them back (entry id → dia_id).
 *
 * The data (CC BY-NC 4.0) is read from ../shared/data/locomo-dev, never copied
 * into the repository.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export interface LocomoQuestion {
  question: string;
  evidence: string[];
  category: number;
  answer?: unknown;
}

export interface LocomoConversation {
  id: string;
  speakerA: string;
  speakerB: string;
  sessions: Array<{ n: number; start: Date; turns: LocomoTurn[] }>;
  questions: LocomoQuestion[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → that instant, read as UTC. */
export function parseLocomoDateTime(text: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unreadable LoCoMo session time: ${text}`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  if (month < 0) throw new Error(`unreadable month in: ${text}`);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

export async function loadConversations(dir: string): Promise<LocomoConversation[]> {
  const out: LocomoConversation[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
    const raw = JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;
    const conv = (raw.conversation ?? raw) as Record<string, unknown>;
    const sessions: LocomoConversation['sessions'] = [];
    for (const key of Object.keys(conv)) {
      const m = /^session_(\d+)$/.exec(key);
      if (!m || !Array.isArray(conv[key]) || (conv[key] as unknown[]).length === 0) continue;
      const n = Number(m[1]);
      sessions.push({ n, start: parseLocomoDateTime(String(conv[`session_${n}_date_time`])), turns: conv[key] as LocomoTurn[] });
    }
    sessions.sort((a, b) => a.n - b.n);
    const qa = (raw.qa ?? conv.qa ?? []) as Array<Record<string, unknown>>;
    out.push({
      id: file.replace(/\.json$/, ''),
      speakerA: String(conv.speaker_a),
      speakerB: String(conv.speaker_b),
      sessions,
      questions: qa.map((q) => ({
        question: String(q.question),
        evidence: Array.isArray(q.evidence) ? (q.evidence as unknown[]).map(String) : [],
        category: Number(q.category),
        answer: q.answer,
      })),
    });
  }
  return out;
}

function hex(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

function uuidFrom(text: string): string {
  const h = hex(text, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function turnText(turn: LocomoTurn): string {
  return turn.blip_caption ? `${turn.text} [image: ${turn.blip_caption}]` : turn.text;
}

/** The pi v3 lines of one LoCoMo session. */
export function sessionLines(
  conv: LocomoConversation,
  session: LocomoConversation['sessions'][number],
  entryId: (diaId: string) => string,
): { sessionId: string; lines: string[] } {
  const sessionId = uuidFrom(`locomo:${conv.id}:session:${session.n}`);
  const lines = [
    JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: session.start.toISOString(), cwd: `/locomo/${conv.id}` }),
  ];
  let parent: string | null = null;
  session.turns.forEach((turn, k) => {
    const id = entryId(turn.dia_id);
    const timestamp = new Date(session.start.getTime() + k * 30_000).toISOString();
    const isUser = turn.speaker === conv.speakerA;
    const message = isUser
      ? { role: 'user', content: [{ type: 'text', text: turnText(turn) }], timestamp: Date.parse(timestamp) }
      : {
          role: 'assistant',
          content: [{ type: 'text', text: turnText(turn) }],
          provider: 'locomo',
          model: 'locomo-speaker-b',
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
          stopReason: 'stop',
          timestamp: Date.parse(timestamp),
        };
    lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp, message }));
    parent = id;
  });
  return { sessionId, lines };
}

/**
 * Write one conversation as an OpenClaw state dir. Returns the entry id →
 * dia_id map (also written to `<stateDir>/locomo-map.json`).
 */
export async function writeConversation(conv: LocomoConversation, stateDir: string): Promise<Map<string, string>> {
  const sessionsDir = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(sessionsDir, { recursive: true });
  const map = new Map<string, string>();
  const entryId = (diaId: string) => {
    const id = hex(`locomo:${conv.id}:${diaId}`, 8);
    const known = map.get(id);
    if (known !== undefined && known !== diaId) throw new Error(`entry id collision ${id}: ${known} / ${diaId}`);
    map.set(id, diaId);
    return id;
  };
  const index: Record<string, unknown> = {};
  for (const session of conv.sessions) {
    const { sessionId, lines } = sessionLines(conv, session, entryId);
    await writeFile(join(sessionsDir, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
    index[`agent:main:locomo-${conv.id}-${session.n}`] = { sessionId, updatedAt: session.start.getTime() + session.turns.length * 30_000 };
  }
  await writeFile(join(sessionsDir, 'sessions.json'), JSON.stringify(index, null, 2));
  await writeFile(join(stateDir, 'locomo-map.json'), JSON.stringify(Object.fromEntries(map)));
  return map;
}
