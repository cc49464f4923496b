/**
 * Retrieval quality on LoCoMo (the `npm run eval` section "locomo").
 *
 * For every conversation in ../shared/data/locomo-dev: convert it to OpenClaw
 * transcripts (bench/locomo-convert.ts), run the real pipeline on a fresh
 * memory home — `ocm-run observe --flush` with the offline heuristic Observer,
 * then `ocm-run index` (child processes of the built CLI) — and ask every
 * non-adversarial question (category ≠ 5) with `search --limit 10`
 * (in-process `searchMemory`, the function the CLI calls; `--cli` runs the CLI
 * for every question instead). A question scores the share of its evidence
 * turns found through the results' `provenance.entryIds` (R@5, R@10).
 *
 * Each conversation's home gets a config.yaml naming its two speakers
 * (`observer.user_name: <speaker_a>`, `observer.assistant_name: <speaker_b>`),
 * as a user who tells OC-Memory their own name and their agent's would: the
 * Observer then writes "Melanie prefers…" instead of "User prefers…", and
 * LoCoMo questions name people. `--no-names` leaves them unset (roles only).
 *
 * Same-run baselines over the raw turns (no Observer):
 *   - fts5: SQLite FTS5 (the sqlite3 binary), question words OR-ed, stop words
 *     dropped — the reference method of shared/data/README.md;
 *   - bm25: the project's own analyzer + BM25 over the raw turns.
 * Also reported: turns referenced per top-10 (an observation may cite more
 * than one turn; the baselines return exactly 10).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { loadConversations, turnText, writeConversation, type LocomoConversation } from './locomo-convert.js';
import { homePaths } from '../lib/platform/home.js';
import { loadConfig } from '../lib/config/config.js';
import { searchMemory } from '../lib/search/search.js';
import { buildSegment, Segment } from '../lib/search/segment.js';
import { IndexSnapshot, rank } from '../lib/search/searcher.js';
import { analyze } from '../lib/search/tokenizer.js';
import type { SearchDoc } from '../lib/search/types.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'scripts', 'cli.js');
export const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

export interface MethodScores {
  r5: number;
  r10: number;
  byCategory: Record<string, { r5: number; r10: number; questions: number }>;
  /** Mean distinct turns referenced by the top 10. */
  turnsAt10: number;
}

export interface LocomoReport {
  conversations: number;
  /** Speaker names were given in each home's config (observer.user_name / assistant_name). */
  speakerNames: boolean;
  turns: number;
  questions: number;
  observations: number;
  mode: string;
  methods: Record<'pipeline' | 'fts5' | 'bm25', MethodScores>;
  seconds: { observe: number; index: number; search: number };
}

interface Scored {
  category: number;
  r5: number;
  r10: number;
  turns10: number;
}

function recall(evidence: string[], ranked: string[][], k: number): number {
  const found = new Set(ranked.slice(0, k).flat());
  return evidence.filter((e) => found.has(e)).length / evidence.length;
}

function summarise(rows: Scored[]): MethodScores {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const byCategory: MethodScores['byCategory'] = {};
  for (const c of [...new Set(rows.map((r) => r.category))].sort()) {
    const sel = rows.filter((r) => r.category === c);
    byCategory[CATEGORY_NAMES[c] ?? String(c)] = {
      r5: mean(sel.map((r) => r.r5)),
      r10: mean(sel.map((r) => r.r10)),
      questions: sel.length,
    };
  }
  return { r5: mean(rows.map((r) => r.r5)), r10: mean(rows.map((r) => r.r10)), byCategory, turnsAt10: mean(rows.map((r) => r.turns10)) };
}

const STOP = new Set(
  'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves'.split(
    ' ',
  ),
);

/** SQLite FTS5 over the raw turns, one sqlite3 process per conversation. */
async function fts5Baseline(conv: LocomoConversation, questions: LocomoConversation['questions']): Promise<string[][][]> {
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const sql: string[] = ['CREATE VIRTUAL TABLE t USING fts5(body, dia UNINDEXED);', 'BEGIN;'];
  for (const s of conv.sessions)
    for (const turn of s.turns) sql.push(`INSERT INTO t(body, dia) VALUES (${q(turnText(turn))}, ${q(turn.dia_id)});`);
  sql.push('COMMIT;');
  questions.forEach((question, i) => {
    const words = [...new Set((question.question.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w)))];
    if (words.length === 0) return;
    sql.push(`SELECT ${i}, dia FROM t WHERE t MATCH ${q(words.map((w) => `"${w}"`).join(' OR '))} ORDER BY bm25(t) LIMIT 10;`);
  });
  const { stdout } = await execa('sqlite3', [':memory:'], { input: sql.join('\n'), maxBuffer: 64 * 1024 * 1024 });
  const out: string[][][] = questions.map(() => []);
  for (const line of stdout.split('\n')) {
    const [i, dia] = line.split('|');
    if (i !== undefined && dia !== undefined) out[Number(i)]!.push([dia]);
  }
  return out;
}

/** The project's analyzer + BM25 over the raw turns. */
async function bm25Baseline(conv: LocomoConversation, questions: LocomoConversation['questions'], dir: string): Promise<string[][][]> {
  const docs: SearchDoc[] = conv.sessions.flatMap((s) =>
    s.turns.map((turn) => ({
      id: turn.dia_id,
      path: 'turns',
      startLine: 1,
      endLine: 1,
      date: '',
      time: '',
      priority: 'medium' as const,
      done: false,
      category: 'fact',
      tier: 'hot' as const,
      agent: 'main',
      tags: [],
      text: turnText(turn),
    })),
  );
  const file = join(dir, `turns-${conv.id}.seg`);
  await writeFile(file, buildSegment(docs, { path: 'turns', tier: 'hot', sourceHash: '' }));
  const snapshot = IndexSnapshot.fromSegments([{ tier: 'hot', segment: Segment.load(file) }]);
  return questions.map((question) =>
    rank(snapshot, question.question, { limit: 10, filters: {}, vectorWeight: 0, textWeight: 1, minScore: 0 }).hits.map((h) => [
      h.seg.segment.docId(h.doc),
    ]),
  );
}

async function cli(args: string[]): Promise<string> {
  const res = await execa(process.execPath, [CLI, ...args], {
    env: { CI: '1', OCM_HOME: undefined, OPENCLAW_STATE_DIR: undefined },
    extendEnv: true,
    reject: false,
  });
  if (res.exitCode !== 0) throw new Error(`ocm-run ${args.join(' ')} failed (${res.exitCode}): ${String(res.stderr)}`);
  return String(res.stdout);
}

export async function runLocomoEval(options: {
  dataDir: string;
  useCli?: boolean;
  keep?: boolean;
  names?: boolean;
  log?: (line: string) => void;
}): Promise<LocomoReport> {
  const names = options.names !== false;
  const log = options.log ?? (() => undefined);
  const work = await mkdtemp(join(tmpdir(), 'ocm-locomo-'));
  const conversations = await loadConversations(options.dataDir);
  const rows: Record<'pipeline' | 'fts5' | 'bm25', Scored[]> = { pipeline: [], fts5: [], bm25: [] };
  const seconds = { observe: 0, index: 0, search: 0 };
  let turns = 0;
  let observations = 0;
  let mode = 'text';
  try {
    for (const conv of conversations) {
      const state = join(work, conv.id, 'openclaw');
      const home = join(work, conv.id, 'home');
      const map = await writeConversation(conv, state);
      turns += map.size;
      await mkdir(home, { recursive: true });
      await writeFile(
        join(home, 'config.yaml'),
        [
          'timezone: UTC',
          'observer:',
          '  provider: heuristic',
          // The user's own name and their agent's: a setting any user can make.
          ...(names ? [`  user_name: ${JSON.stringify(conv.speakerA)}`, `  assistant_name: ${JSON.stringify(conv.speakerB)}`] : []),
          'sources:',
          '  openclaw:',
          `    state_dirs: [${JSON.stringify(state)}]`,
          '  openclaw_db:',
          '    enabled: false',
          '',
        ].join('\n'),
        { mode: 0o600 },
      );
      let t = Date.now();
      const observed = JSON.parse(await cli(['observe', '--flush', '--json', '--home', home])) as {
        observations: number;
        messages: number;
      };
      seconds.observe += (Date.now() - t) / 1000;
      observations += observed.observations;
      t = Date.now();
      const indexed = JSON.parse(await cli(['index', '--json', '--home', home])) as { documents: number; mode: string };
      seconds.index += (Date.now() - t) / 1000;
      mode = indexed.mode;
      log(
        `  ${conv.id}: ${map.size} turns → ${observed.messages} messages → ${observed.observations} observations (${indexed.documents} indexed)`,
      );

      const questions = conv.questions.filter((q) => q.category !== 5 && q.evidence.length > 0);
      const paths = homePaths(home);
      const { config } = await loadConfig({ file: paths.config, envFile: paths.env, env: {} });
      t = Date.now();
      for (const question of questions) {
        let results: Array<{ provenance: { entryIds: string[] } }>;
        if (options.useCli) {
          results = (
            JSON.parse(await cli(['search', question.question, '--json', '--limit', '10', '--no-cache', '--home', home])) as {
              results: typeof results;
            }
          ).results;
        } else {
          results = (await searchMemory(paths, config, { query: question.question, limit: 10, cache: false })).results;
        }
        const ranked = results.map((r) => r.provenance.entryIds.map((e) => map.get(e) ?? `?${e}`));
        rows.pipeline.push({
          category: question.category,
          r5: recall(question.evidence, ranked, 5),
          r10: recall(question.evidence, ranked, 10),
          turns10: new Set(ranked.flat()).size,
        });
      }
      seconds.search += (Date.now() - t) / 1000;
      const fts = await fts5Baseline(conv, questions);
      const bm = await bm25Baseline(conv, questions, join(work, conv.id));
      questions.forEach((question, i) => {
        for (const [name, ranked] of [
          ['fts5', fts[i]!],
          ['bm25', bm[i]!],
        ] as const) {
          rows[name].push({
            category: question.category,
            r5: recall(question.evidence, ranked, 5),
            r10: recall(question.evidence, ranked, 10),
            turns10: new Set(ranked.flat()).size,
          });
        }
      });
    }
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  work dir kept: ${work}`);
  }
  return {
    conversations: conversations.length,
    speakerNames: names,
    turns,
    questions: rows.pipeline.length,
    observations,
    mode,
    methods: { pipeline: summarise(rows.pipeline), fts5: summarise(rows.fts5), bm25: summarise(rows.bm25) },
    seconds: { observe: round(seconds.observe), index: round(seconds.index), search: round(seconds.search) },
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

export function locomoTable(report: LocomoReport): string {
  const f = (x: number) => x.toFixed(3);
  const names = {
    pipeline: 'OC-Memory (observe → index → search)',
    fts5: 'baseline: SQLite FTS5 over raw turns',
    bm25: 'baseline: project BM25 over raw turns',
  } as const;
  const cats = Object.keys(report.methods.pipeline.byCategory);
  const lines = [
    `LoCoMo retrieval (${report.conversations} conversations, ${report.turns} turns, ${report.questions} ` +
      `questions, ${report.observations} observations, ${report.mode} mode)`,
    report.speakerNames
      ? "speaker names set in each home's config.yaml: observer.user_name = speaker_a, observer.assistant_name = speaker_b (--no-names: roles only)"
      : 'no speaker names configured: the Observer writes User / Assistant',
    '',
    `| method | R@5 | R@10 | ${cats.map((c) => `R@10 ${c}`).join(' | ')} | turns in top 10 |`,
    `|---|---|---|${cats.map(() => '---').join('|')}|---|`,
  ];
  for (const key of ['pipeline', 'fts5', 'bm25'] as const) {
    const m = report.methods[key];
    lines.push(
      `| ${names[key]} | ${f(m.r5)} | ${f(m.r10)} | ${cats.map((c) => f(m.byCategory[c]?.r10 ?? 0)).join(' | ')} | ${m.turnsAt10.toFixed(1)} |`,
    );
  }
  lines.push(
    '',
    `| category | questions | OC-Memory R@5 | OC-Memory R@10 | BM25 raw turns R@5 | BM25 raw turns R@10 | FTS5 R@5 | FTS5 R@10 |`,
    '|---|---|---|---|---|---|---|---|',
  );
  for (const c of [...cats, 'all']) {
    const pick = (m: MethodScores) => (c === 'all' ? { r5: m.r5, r10: m.r10, questions: report.questions } : m.byCategory[c]!);
    const p = pick(report.methods.pipeline);
    const b = pick(report.methods.bm25);
    const t = pick(report.methods.fts5);
    lines.push(`| ${c} | ${p.questions} | ${f(p.r5)} | ${f(p.r10)} | ${f(b.r5)} | ${f(b.r10)} | ${f(t.r5)} | ${f(t.r10)} |`);
  }
  lines.push(
    '',
    `time: observe ${report.seconds.observe} s, index ${report.seconds.index} s, ${report.questions} searches ${report.seconds.search} s`,
  );
  return lines.join('\n');
}

export { analyze };
