/**
 * Coverage check of the heuristic Observer on LoCoMo conversations
 * (../shared/data/locomo-dev, not part of the repository).
 *
 * Converts every conversation straight into Messages (speaker_a = user,
 * speaker_b = assistant; turn time = session time + 1 min per turn; an image
 * turn carries its caption), observes session by session, and reports:
 *   - turns with at least one observation, and evidence turns
 *     (qa[].evidence of non-adversarial questions) with at least one;
 *   - how many turns were skipped as filler (with examples);
 *   - a quick text-only retrieval check (MiniSearch BM25 with the project's
 *     analyzer, top 10 of the question) over the observations vs over the raw
 *     turns — a sanity check for the Observer, not the project's evaluation.
 *
 * Usage: node --import tsx bench/observer-coverage.ts [--data DIR] [--no-names]
 *        [--infer-names] [--no-captions] [--show-missed N] [--json FILE]
 */
import { readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { observeWithRules } from '../lib/observer/heuristic/observer.js';
import { analyze } from '../lib/search/tokenizer.js';
import type { Message, Observation } from '../lib/core/types.js';

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface Qa {
  question: string;
  evidence?: string[];
  category: number;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → Date (UTC). */
export function parseLocomoTime(s: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(s);
  if (!m) throw new Error(`unreadable LoCoMo time: ${s}`);
  let hour = Number(m[1]) % 12;
  if (m[3]!.toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

interface Conversation {
  id: string;
  speakers: { user: string; assistant: string };
  sessions: Message[][];
  questions: { question: string; evidence: string[]; category: number }[];
}

export async function loadLocomo(dir: string, captions: boolean): Promise<Conversation[]> {
  const out: Conversation[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
    const raw = JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;
    const conv = (raw.conversation ?? raw) as Record<string, unknown>;
    const id = file.replace(/\.json$/, '');
    const user = String(conv.speaker_a);
    const assistant = String(conv.speaker_b);
    const sessions: Message[][] = [];
    for (let n = 1; Array.isArray(conv[`session_${n}`]) || conv[`session_${n}_date_time`]; n++) {
      const turns = conv[`session_${n}`] as Turn[] | undefined;
      if (!Array.isArray(turns) || turns.length === 0) continue;
      const start = parseLocomoTime(String(conv[`session_${n}_date_time`]));
      sessions.push(
        turns.map((t, i) => ({
          role: t.speaker === user ? 'user' : 'assistant',
          text: captions && t.blip_caption ? `${t.text}\n[shared ${t.blip_caption}]` : t.text,
          time: new Date(start.getTime() + i * 60_000).toISOString(),
          entryId: t.dia_id,
          source: 'demo',
          agent: 'locomo',
          session: `${id}-s${n}`,
        })),
      );
    }
    const questions = ((raw.qa ?? []) as Qa[])
      .filter((q) => q.category !== 5 && Array.isArray(q.evidence) && q.evidence.length > 0)
      .map((q) => ({ question: q.question, evidence: q.evidence!, category: q.category }));
    out.push({ id, speakers: { user, assistant }, sessions, questions });
  }
  return out;
}

function recallAt(k: number, ranked: string[][], evidence: string[]): number {
  const found = new Set<string>();
  for (const ids of ranked.slice(0, k)) for (const id of ids) found.add(id);
  return evidence.filter((e) => found.has(e)).length / evidence.length;
}

function bm25(docs: { id: string; text: string; entryIds: string[] }[]): (q: string, k: number) => string[][] {
  const ms = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    storeFields: [],
    tokenize: (t) => analyze(t),
    processTerm: (t) => t,
  });
  ms.addAll(docs.map((d) => ({ id: d.id, text: d.text })));
  const entry = new Map(docs.map((d) => [d.id, d.entryIds]));
  return (q, k) =>
    ms
      .search(q, { combineWith: 'OR' })
      .slice(0, k)
      .map((r) => entry.get(String(r.id)) ?? []);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string', default: resolve(process.cwd(), '../shared/data/locomo-dev') },
      'no-names': { type: 'boolean', default: false },
      'infer-names': { type: 'boolean', default: false },
      'no-captions': { type: 'boolean', default: false },
      'show-missed': { type: 'string', default: '0' },
      'show-skipped': { type: 'string', default: '0' },
      json: { type: 'string' },
    },
  });
  const convs = await loadLocomo(values.data!, !values['no-captions']);
  let turns = 0;
  let coveredTurns = 0;
  let observations = 0;
  let evidenceTurns = 0;
  let coveredEvidence = 0;
  const missed: string[] = [];
  const skipped: string[] = [];
  const r: Record<string, number[]> = { obs5: [], obs10: [], raw5: [], raw10: [] };
  const byCategory = new Map<number, { obs10: number[]; raw10: number[] }>();
  let observeMs = 0;
  for (const conv of convs) {
    const all: Observation[] = [];
    const texts = new Map<string, string>();
    for (const session of conv.sessions) {
      for (const m of session) texts.set(m.entryId, m.text);
      const t0 = performance.now();
      const result = observeWithRules(
        { source: 'demo', agent: 'locomo', session: session[0]!.session, messages: session, timeZone: 'UTC', now: session.at(-1)!.time },
        { ...(values['no-names'] ? {} : { speakerNames: conv.speakers }), inferSpeakerNames: values['infer-names'] },
      );
      observeMs += performance.now() - t0;
      all.push(...result.observations);
    }
    const covered = new Set(all.flatMap((o) => o.provenance!.entryIds));
    turns += texts.size;
    coveredTurns += [...texts.keys()].filter((id) => covered.has(id)).length;
    observations += all.length;
    for (const [id, text] of texts)
      if (!covered.has(id) && skipped.length < 400) skipped.push(`${conv.id} ${id}: ${text.replace(/\n/g, ' ')}`);
    const evidence = new Set(conv.questions.flatMap((q) => q.evidence));
    for (const e of evidence) {
      if (!texts.has(e)) continue;
      evidenceTurns++;
      if (covered.has(e)) coveredEvidence++;
      else missed.push(`${conv.id} ${e}: ${texts.get(e)!.replace(/\n/g, ' ')}`);
    }
    const searchObs = bm25(all.map((o) => ({ id: o.id, text: o.text, entryIds: o.provenance!.entryIds })));
    const searchRaw = bm25([...texts].map(([id, text]) => ({ id, text, entryIds: [id] })));
    for (const q of conv.questions) {
      const ro = searchObs(q.question, 10);
      const rr = searchRaw(q.question, 10);
      r.obs5!.push(recallAt(5, ro, q.evidence));
      r.obs10!.push(recallAt(10, ro, q.evidence));
      r.raw5!.push(recallAt(5, rr, q.evidence));
      r.raw10!.push(recallAt(10, rr, q.evidence));
      const c = byCategory.get(q.category) ?? { obs10: [], raw10: [] };
      c.obs10.push(recallAt(10, ro, q.evidence));
      c.raw10.push(recallAt(10, rr, q.evidence));
      byCategory.set(q.category, c);
    }
  }
  const ms = observeMs;
  const mean = (a: number[]) => (a.length ? a.reduce((x, y) => x + y, 0) / a.length : 0);
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;
  const summary = {
    conversations: convs.length,
    turns,
    turnsWithObservation: coveredTurns,
    observations,
    evidenceTurns,
    evidenceTurnsCovered: coveredEvidence,
    questions: r.obs10!.length,
    recall: { observationsR5: mean(r.obs5!), observationsR10: mean(r.obs10!), rawTurnsR5: mean(r.raw5!), rawTurnsR10: mean(r.raw10!) },
    recallAt10ByCategory: Object.fromEntries(
      [...byCategory].map(([c, v]) => [c, { observations: mean(v.obs10), rawTurns: mean(v.raw10), questions: v.obs10.length }]),
    ),
    options: { names: !values['no-names'], inferNames: values['infer-names'], captions: !values['no-captions'] },
    ms: Math.round(ms),
  };
  console.log('Heuristic Observer coverage on LoCoMo');
  console.log(`  conversations           ${convs.length}`);
  console.log(`  turns with observation  ${coveredTurns} / ${turns} (${pct(coveredTurns, turns)})`);
  console.log(`  evidence turns covered  ${coveredEvidence} / ${evidenceTurns} (${pct(coveredEvidence, evidenceTurns)})`);
  console.log(`  observations            ${observations} (${(observations / Math.max(1, turns)).toFixed(2)} per turn)`);
  console.log(`  quick BM25 check (${summary.questions} questions, MiniSearch + project analyzer):`);
  console.log(`                    R@5     R@10`);
  console.log(`    observations    ${summary.recall.observationsR5.toFixed(3)}   ${summary.recall.observationsR10.toFixed(3)}`);
  console.log(`    raw turns       ${summary.recall.rawTurnsR5.toFixed(3)}   ${summary.recall.rawTurnsR10.toFixed(3)}`);
  const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
  for (const [c, v] of [...byCategory].sort((a, b) => a[0] - b[0])) {
    console.log(
      `    R@10 ${(CATEGORY_NAMES[c] ?? String(c)).padEnd(12)} obs ${mean(v.obs10).toFixed(3)}  raw ${mean(v.raw10).toFixed(3)}  (${v.obs10.length} q)`,
    );
  }
  console.log(`  observe time            ${summary.ms} ms (observeWithRules only, one pass, cold)`);
  const showMissed = Number(values['show-missed']);
  if (showMissed > 0) {
    console.log('\nMissed evidence turns:');
    for (const m of missed.slice(0, showMissed)) console.log(`  ${m}`);
  }
  const showSkipped = Number(values['show-skipped']);
  if (showSkipped > 0) {
    console.log('\nSkipped turns (sample):');
    for (const s of skipped.filter((_s, i) => i % 3 === 0).slice(0, showSkipped)) console.log(`  ${s}`);
  }
  if (values.json) {
    await mkdir(dirname(values.json), { recursive: true });
    await writeFile(values.json, `${JSON.stringify({ ...summary, missed }, null, 2)}\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('observer-coverage.ts')) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
