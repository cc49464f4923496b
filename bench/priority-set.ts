/**
 * The labelled priority set (bench/priority-set/): one label per user or assistant message —
 * high, medium, low or none — written from the rubric in docs/priorities.md.
 *
 *   samples.yaml      labels for the bundled demo transcripts (samples/openclaw), by entry id
 *   sessions/*.yaml   conversations written for the set (English and Korean, coding and chat),
 *                     turned into OpenClaw transcripts by writeSetSessions()
 *   holdout/*.yaml    the same, written after the rules were tuned on the two above: how the
 *                     rules do on messages they were not tuned on
 *
 * A message marked `remember` is a fact that a "remember this" / "꼭 기억해 줘" points at.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readYaml } from '../lib/core/yaml.js';

export const PRIORITY_LABELS = ['high', 'medium', 'low', 'none'] as const;
export type PriorityLabel = (typeof PRIORITY_LABELS)[number];

export const SET_DIR = resolve(import.meta.dirname, 'priority-set');
/** Sessions written after the rules were tuned. */
export const HOLDOUT_DIR = join(SET_DIR, 'holdout');
export const SAMPLES_DIR = resolve(import.meta.dirname, '..', 'samples', 'openclaw');

/** One labelled message. */
export interface LabelledMessage {
  /** The transcript entry id of the message. */
  entryId: string;
  source: 'samples' | 'generated' | 'holdout';
  /** The session file name (generated) or 'samples'. */
  session: string;
  role: 'user' | 'assistant';
  label: PriorityLabel;
  text: string;
  /** A fact a remember request points at. */
  remember: boolean;
  language: 'en' | 'ko';
}

/** A session of the set, as written in sessions/*.yaml. */
export interface SetSession {
  session: string;
  start: string;
  messages: Array<{ entryId: string; role: 'user' | 'assistant'; label: PriorityLabel; text: string; remember: boolean }>;
}

function languageOf(text: string): 'en' | 'ko' {
  return /[\uAC00-\uD7A3]/.test(text) ? 'ko' : 'en';
}

function hash(seed: string, length: number): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}

function label(value: unknown, where: string): PriorityLabel {
  if (typeof value === 'string' && (PRIORITY_LABELS as readonly string[]).includes(value)) return value as PriorityLabel;
  throw new Error(`${where}: label must be one of ${PRIORITY_LABELS.join(', ')}, got ${JSON.stringify(value)}`);
}

/** The generated sessions, with their entry ids (a hash of session name and position, stable). */
export async function loadSetSessions(dir = join(SET_DIR, 'sessions')): Promise<SetSession[]> {
  const sessions: SetSession[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.yaml')).sort()) {
    const where = join(dir, name);
    const raw = readYaml(await readFile(where, 'utf8'), { filename: where }) as { session?: unknown; start?: unknown; messages?: unknown };
    if (typeof raw.session !== 'string' || typeof raw.start !== 'string' || !Array.isArray(raw.messages))
      throw new Error(`${where}: needs session, start and messages`);
    if (Number.isNaN(Date.parse(raw.start))) throw new Error(`${where}: start is not a date: ${raw.start}`);
    const session = raw.session;
    sessions.push({
      session,
      start: raw.start,
      messages: raw.messages.map((m: unknown, i: number) => {
        const at = `${where}, message ${i + 1}`;
        if (!Array.isArray(m) || m.length < 3 || (m[0] !== 'user' && m[0] !== 'assistant') || typeof m[2] !== 'string')
          throw new Error(`${at}: expected [user|assistant, label, "text", remember?]`);
        if (m.length > 3 && m[3] !== 'remember') throw new Error(`${at}: the fourth item can only be "remember"`);
        return {
          entryId: hash(`priority-set:${session}:${i}`, 8),
          role: m[0],
          label: label(m[1], at),
          text: m[2],
          remember: m[3] === 'remember',
        };
      }),
    });
  }
  return sessions;
}

/** Every labelled message: the bundled samples' and the generated sessions'. */
export async function loadPrioritySet(): Promise<LabelledMessage[]> {
  const out: LabelledMessage[] = [];
  const where = join(SET_DIR, 'samples.yaml');
  const samples = readYaml(await readFile(where, 'utf8'), { filename: where }) as Array<{
    id: string;
    label: unknown;
    text: string;
    remember?: boolean;
  }>;
  const transcript = await sampleMessages();
  for (const s of samples) {
    const id = String(s.id);
    const message = transcript.get(id);
    // A regenerated sample must not leave a label on another message.
    if (!message?.text.startsWith(s.text)) throw new Error(`${where}: ${id} is not a sample message starting "${s.text}"`);
    out.push({
      entryId: id,
      source: 'samples',
      session: 'samples',
      role: message.role as 'user' | 'assistant',
      label: label(s.label, `${where} ${id}`),
      text: message.text,
      remember: s.remember === true,
      language: languageOf(message.text),
    });
  }
  const unlabelled = [...transcript.keys()].filter((id) => !samples.some((s) => String(s.id) === id));
  if (unlabelled.length > 0) throw new Error(`${where}: sample messages without a label: ${unlabelled.join(', ')}`);
  for (const session of await loadSetSessions()) {
    for (const m of session.messages) out.push({ ...m, source: 'generated', session: session.session, language: languageOf(m.text) });
  }
  for (const session of await loadSetSessions(HOLDOUT_DIR)) {
    for (const m of session.messages) out.push({ ...m, source: 'holdout', session: session.session, language: languageOf(m.text) });
  }
  const seen = new Set<string>();
  for (const m of out) {
    if (seen.has(m.entryId)) throw new Error(`priority set: entry id ${m.entryId} labelled twice`);
    seen.add(m.entryId);
  }
  return out;
}

/** The user and assistant messages of the bundled sample transcripts, by entry id (delivery copies left out). */
export async function sampleMessages(dir = SAMPLES_DIR): Promise<Map<string, { role: string; text: string }>> {
  const out = new Map<string, { role: string; text: string }>();
  const agents = join(dir, 'agents');
  for (const agent of await readdir(agents)) {
    const sessions = join(agents, agent, 'sessions');
    for (const name of await readdir(sessions)) {
      if (!name.includes('.jsonl')) continue;
      for (const line of (await readFile(join(sessions, name), 'utf8')).split('\n')) {
        if (!line.trim()) continue;
        const entry = JSON.parse(line) as {
          type?: string;
          id?: string;
          message?: { role?: string; model?: string; content?: Array<{ type: string; text?: string }> };
        };
        const m = entry.message;
        if (entry.type !== 'message' || !m || (m.role !== 'user' && m.role !== 'assistant') || m.model === 'delivery-mirror') continue;
        const text = (m.content ?? [])
          .filter((b) => b.type === 'text')
          .map((b) => b.text ?? '')
          .join('\n');
        if (text) out.set(String(entry.id), { role: m.role, text });
      }
    }
  }
  return out;
}

/** Write the generated sessions as OpenClaw (pi v3) transcripts under `<stateDir>/agents/<agent>/sessions/`, one message a minute. */
export async function writeSetSessions(sessions: SetSession[], stateDir: string, agent = 'set'): Promise<void> {
  const dir = join(stateDir, 'agents', agent, 'sessions');
  await mkdir(dir, { recursive: true });
  for (const s of sessions) {
    const h = hash(`priority-set:${s.session}`, 32);
    const id = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
    const start = Date.parse(s.start);
    const lines = [
      JSON.stringify({ type: 'session', version: 3, id, timestamp: new Date(start).toISOString(), cwd: `/priority-set/${s.session}` }),
    ];
    let parent: string | null = null;
    s.messages.forEach((m, k) => {
      const ms = start + k * 60_000;
      const content = [{ type: 'text', text: m.text }];
      const message =
        m.role === 'user'
          ? { role: 'user', content, timestamp: ms }
          : {
              role: 'assistant',
              content,
              provider: 'priority-set',
              model: 'labelled',
              usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
              stopReason: 'stop',
              timestamp: ms,
            };
      lines.push(JSON.stringify({ type: 'message', id: m.entryId, parentId: parent, timestamp: new Date(ms).toISOString(), message }));
      parent = m.entryId;
    });
    await writeFile(join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
  }
}
