/**
 * What the offline Observer keeps, measured on LoCoMo (the `npm run eval` section "observer"):
 * the figures of issue 20, computed as ../shared/eval/locomo_pipeline.py computes them, with no
 * speaker names configured (the Observer writes User / Assistant unless it learns names).
 *
 * Per conversation: the real pipeline on a fresh home (`ocm-run observe`, `ocm-run index`,
 * child processes of the built CLI), `ocm-run export --format json` for provenance, then every
 * non-adversarial question through in-process `searchMemory` (limit 30).
 *
 *   - observation tokens / transcript tokens: cl100k tokens of every observation line of the
 *     day files against the turns written "Speaker: text [image: caption]";
 *   - precision against gold: share of observations citing a turn that one of LoCoMo's gold
 *     observations cites; gold coverage: share of gold-cited turns some observation cites;
 *   - R@10: evidence turns cited by the top 10 results;
 *   - R@1kTok: evidence cited by the results taken in rank order until 1,000 tokens of their full
 *     observation lines — and the same for a same-run SQLite FTS5 BM25 over the raw turns
 *     (question words OR-ed, stop words dropped), the baseline;
 *   - unasked injection as the agent hooks do it (top 15 by rank, relevance ≥ 0.5, at most 5):
 *     inject_recall, the evidence injected; false_inject, the share of the next conversation's
 *     first 40 questions (about other people) that get any injection from this home.
 * Retrieval is measured twice in the same run: as configured (hybrid with the default local
 * embeddings) and text-only (`mode: 'text'`), the same-run text baseline.
 */
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { loadConversations, turnText, writeConversation, type LocomoConversation } from './locomo-convert.js';
import { homePaths } from '../lib/platform/home.js';
import { loadConfig } from '../lib/config/config.js';
import { searchMemory } from '../lib/search/search.js';
import { getEncoding } from 'js-tiktoken';

/** cl100k tokens, as locomo_pipeline.py counts them (the project's own counter is o200k). */
const cl100k = getEncoding('cl100k_base');
const countTokens = (text: string): number => cl100k.encode(text).length;

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'scripts', 'cli.js');
const BUDGET = 1000;

export interface ObserverQualityReport {
  conversations: number;
  questions: number;
  observations: number;
  observationTokens: number;
  transcriptTokens: number;
  /** observation tokens / transcript tokens */
  ratio: number;
  precision: number;
  goldCoverage: number;
  r10: number;
  r1kTok: number;
  baselineR1kTok: number;
  injectRecall: number;
  falseInject: number;
  /** The search mode of the configured run ('hybrid' with embeddings). */
  mode: string;
  /** The same questions, text-only (same run). */
  text: { r10: number; r1kTok: number; injectRecall: number; falseInject: number };
  seconds: number;
}

/** Injection floor and sizes of the agent hooks (lib/hooks/agent-hooks.ts). */
const FLOOR = 0.5;
const NEGATIVES = 40;
type Found = Awaited<ReturnType<typeof searchMemory>>['results'];
const injected = (results: Found) =>
  results
    .slice(0, 15)
    .filter((r) => (r.relevance ?? 0) >= FLOOR)
    .slice(0, 5);

/** The stop words of locomo_pipeline.py's FTS5 baseline. */
const STOP = new Set(
  `a an the and or but if of to in on at for with by from as is are was were be been being do does did have has had i you he she it we they me him her us them my your his its our their this that these those what which who whom whose when where why how not no yes so than too very can could would should will shall may might must there here about into over after before up down out off again then once all any both each few more most other some such only own same just also`.split(
    /\s+/,
  ),
);

async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const res = await execa(process.execPath, [CLI, ...args], {
    env: { CI: '1', ...env },
    extendEnv: true,
    reject: false,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (res.exitCode !== 0) throw new Error(`ocm-run ${args.join(' ')} failed (${res.exitCode}): ${String(res.stderr)}`);
  return String(res.stdout);
}

/** Turn ids that LoCoMo's gold observations cite. */
async function goldTurns(dataDir: string, id: string): Promise<Set<string>> {
  const raw = JSON.parse(await readFile(join(dataDir, `${id}.json`), 'utf8')) as Record<string, unknown>;
  const conv = (raw.conversation ?? raw) as Record<string, unknown>;
  const gold = new Set<string>();
  for (const [key, value] of Object.entries(conv)) {
    if (!/^session_\d+_observation$/.test(key) || !value || typeof value !== 'object') continue;
    for (const items of Object.values(value as Record<string, unknown>)) {
      for (const item of items as Array<[string, string | string[]]>) {
        for (const cited of ([] as string[]).concat(item[1]))
          for (const dia of String(cited).replace(/,/g, ' ').split(/\s+/)) if (dia) gold.add(dia.trim());
      }
    }
  }
  return gold;
}

/** The observation lines of a home's day files (active memory and dot folders left out). */
async function observationLines(home: string): Promise<string[]> {
  const lines: string[] = [];
  for (const e of await readdir(home, { withFileTypes: true, recursive: true })) {
    const dir = e.parentPath;
    if (
      !e.isFile() ||
      !e.name.endsWith('.md') ||
      e.name.startsWith('active_memory') ||
      dir
        .slice(home.length)
        .split('/')
        .some((p) => p.startsWith('.'))
    )
      continue;
    for (const line of (await readFile(join(dir, e.name), 'utf8')).split('\n'))
      if (/^\s*[-*] (?:🔴|🟡|🟢|✅)/u.test(line)) lines.push(line.trim());
  }
  return lines;
}

/** FTS5 over the raw turns: per question, the turn ids in BM25 order (at most 60). */
async function fts5Ranked(conv: LocomoConversation, questions: string[]): Promise<string[][]> {
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const sql = ['CREATE VIRTUAL TABLE t USING fts5(dia, text);', 'BEGIN;'];
  for (const s of conv.sessions)
    for (const turn of s.turns) sql.push(`INSERT INTO t VALUES (${q(turn.dia_id)}, ${q(`${turn.speaker}: ${turnText(turn)}`)});`);
  sql.push('COMMIT;');
  questions.forEach((question, i) => {
    const words = (question.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((w) => !STOP.has(w) && w.length > 1);
    if (words.length > 0)
      sql.push(
        `SELECT ${i}, dia FROM t WHERE t MATCH ${q(words.map((w) => `"${w.replace(/"/g, '')}"`).join(' OR '))} ORDER BY bm25(t) LIMIT 60;`,
      );
  });
  const { stdout } = await execa('sqlite3', [':memory:'], { input: sql.join('\n'), maxBuffer: 64 * 1024 * 1024 });
  const out: string[][] = questions.map(() => []);
  for (const line of stdout.split('\n')) {
    const [i, dia] = line.split('|');
    if (i !== undefined && dia !== undefined) out[Number(i)]!.push(dia);
  }
  return out;
}

/** Share of `evidence` among the ids of the items taken in order until `budget` tokens. */
function withinBudget(evidence: string[], items: Array<{ tokens: number; ids: string[] }>, budget: number): number {
  const got = new Set<string>();
  let used = 0;
  for (const item of items) {
    if (used + item.tokens > budget) break;
    used += item.tokens;
    for (const id of item.ids) got.add(id);
  }
  return evidence.filter((e) => got.has(e)).length / evidence.length;
}

export async function runObserverQuality(options: {
  dataDir: string;
  keep?: boolean;
  log?: (line: string) => void;
}): Promise<ObserverQualityReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const work = await mkdtemp(join(tmpdir(), 'ocm-observer-quality-'));
  const conversations = await loadConversations(options.dataDir);
  const r10: number[] = [];
  const r1k: number[] = [];
  const base1k: number[] = [];
  const inject: number[] = [];
  const falseInject: number[] = [];
  const text = { r10: [] as number[], r1k: [] as number[], inject: [] as number[], falseInject: [] as number[] };
  let mode = 'text';
  let observationTokens = 0;
  let transcriptTokens = 0;
  let observations = 0;
  let citingGold = 0;
  let goldCovered = 0;
  let goldAll = 0;
  try {
    for (const conv of conversations) {
      const state = join(work, conv.id, 'openclaw');
      const home = join(work, conv.id, 'home');
      const map = await writeConversation(conv, state);
      await mkdir(home, { recursive: true });
      const env = { OPENCLAW_STATE_DIR: state, OCM_HOME: home };
      await cli(['observe'], env);
      await cli(['index'], env);

      const turnTokens = new Map<string, number>();
      for (const s of conv.sessions)
        for (const turn of s.turns) turnTokens.set(turn.dia_id, countTokens(`${turn.speaker}: ${turnText(turn)}`));
      for (const n of turnTokens.values()) transcriptTokens += n;
      for (const line of await observationLines(home)) observationTokens += countTokens(line);

      const gold = await goldTurns(options.dataDir, conv.id);
      const exported = (
        JSON.parse(await cli(['export', '--format', 'json'], env)) as { observations: Array<{ provenance?: { entryIds?: string[] } }> }
      ).observations;
      const covered = new Set<string>();
      for (const o of exported) {
        const turns = (o.provenance?.entryIds ?? []).map((e) => map.get(e)).filter((d): d is string => d !== undefined);
        observations++;
        if (turns.some((d) => gold.has(d))) citingGold++;
        for (const d of turns) if (gold.has(d)) covered.add(d);
      }
      goldCovered += covered.size;
      goldAll += [...gold].filter((d) => turnTokens.has(d)).length;

      const questions = conv.questions.filter((q) => q.category !== 5 && q.evidence.length > 0);
      const paths = homePaths(home);
      const { config } = await loadConfig({ file: paths.config, envFile: paths.env, env: {} });
      const files = new Map<string, string[]>();
      const lineOf = async (path: string, line: number) => {
        if (!files.has(path)) files.set(path, (await readFile(join(home, path), 'utf8').catch(() => '')).split('\n'));
        return (files.get(path)![line - 1] ?? '').trim();
      };
      const fts = await fts5Ranked(
        conv,
        questions.map((q) => q.question),
      );
      for (const [i, question] of questions.entries()) {
        const evidence = question.evidence.map((e) => e.trim());
        const share = (ids: Iterable<string>) => {
          const got = new Set(ids);
          return evidence.filter((e) => got.has(e)).length / evidence.length;
        };
        for (const m of ['configured', 'text'] as const) {
          const response = await searchMemory(paths, config, {
            query: question.question,
            limit: 30,
            cache: false,
            ...(m === 'text' ? { mode: 'text' as const } : {}),
          });
          if (m === 'configured') mode = response.mode;
          const results = response.results;
          const cited = results.map((r) => r.provenance.entryIds.map((e) => map.get(e)).filter((d): d is string => d !== undefined));
          const items = [];
          for (const [k, r] of results.entries()) items.push({ tokens: countTokens(await lineOf(r.path, r.startLine)), ids: cited[k]! });
          const injectedIds = injected(results).flatMap((r) =>
            r.provenance.entryIds.map((e) => map.get(e)).filter((d): d is string => d !== undefined),
          );
          (m === 'text' ? text.r10 : r10).push(share(cited.slice(0, 10).flat()));
          (m === 'text' ? text.r1k : r1k).push(withinBudget(evidence, items, BUDGET));
          (m === 'text' ? text.inject : inject).push(share(injectedIds));
        }
        base1k.push(
          withinBudget(
            evidence,
            fts[i]!.map((d) => ({ tokens: turnTokens.get(d) ?? 0, ids: [d] })),
            BUDGET,
          ),
        );
      }
      // Questions about the next conversation's people and events: nothing in this home answers them.
      if (conversations.length > 1) {
        const next = conversations[(conversations.indexOf(conv) + 1) % conversations.length]!;
        for (const q of next.questions.filter((x) => x.category !== 5 && x.evidence.length > 0).slice(0, NEGATIVES)) {
          falseInject.push(
            injected((await searchMemory(paths, config, { query: q.question, limit: 15, cache: false })).results).length > 0 ? 1 : 0,
          );
          text.falseInject.push(
            injected((await searchMemory(paths, config, { query: q.question, limit: 15, cache: false, mode: 'text' })).results).length > 0
              ? 1
              : 0,
          );
        }
      }
      log(`  ${conv.id}: ${questions.length} questions, ${exported.length} observations`);
    }
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  work dir kept: ${work}`);
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    conversations: conversations.length,
    questions: r10.length,
    observations,
    observationTokens,
    transcriptTokens,
    ratio: observationTokens / Math.max(1, transcriptTokens),
    precision: citingGold / Math.max(1, observations),
    goldCoverage: goldCovered / Math.max(1, goldAll),
    r10: mean(r10),
    r1kTok: mean(r1k),
    baselineR1kTok: mean(base1k),
    injectRecall: mean(inject),
    falseInject: mean(falseInject),
    mode,
    text: { r10: mean(text.r10), r1kTok: mean(text.r1k), injectRecall: mean(text.inject), falseInject: mean(text.falseInject) },
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

/** Targets on the dev conversations. */
const TARGETS = { ratio: 0.6, precision: 0.7, goldCoverage: 0.95, r10: 0.82, r1kTok: 0.85, injectRecall: 0.7, falseInject: 0.05 };

export function observerQualityTable(r: ObserverQualityReport): string {
  const f = (x: number) => x.toFixed(3);
  const mark = (ok: boolean) => (ok ? 'met' : 'not met');
  return [
    `Observer quality on LoCoMo (${r.conversations} conversations, ${r.questions} questions, ${r.observations} observations; no speaker names configured)`,
    '',
    '| figure | value | target |',
    '|---|---|---|',
    `| observation tokens / transcript tokens (${r.observationTokens} / ${r.transcriptTokens}) | ` +
      `${r.ratio.toFixed(2)} | ≤ ${TARGETS.ratio} (${mark(r.ratio <= TARGETS.ratio)}) |`,
    `| precision against gold | ${r.precision.toFixed(2)} | ≥ ${TARGETS.precision} (${mark(r.precision >= TARGETS.precision)}) |`,
    `| gold coverage | ${r.goldCoverage.toFixed(2)} | ≥ ${TARGETS.goldCoverage} (${mark(r.goldCoverage >= TARGETS.goldCoverage)}) |`,
    `| R@10 (${r.mode}; text-only same run ${f(r.text.r10)}) | ${f(r.r10)} | ≥ ${TARGETS.r10} (${mark(r.r10 >= TARGETS.r10)}) |`,
    `| R@1kTok (${r.mode}; text-only ${f(r.text.r1kTok)}) | ${f(r.r1kTok)} | ≥ ${TARGETS.r1kTok} (${mark(r.r1kTok >= TARGETS.r1kTok)}) |`,
    `| unasked injection: evidence injected (${r.mode}; text-only ${f(r.text.injectRecall)}) | ` +
      `${f(r.injectRecall)} | ≥ ${TARGETS.injectRecall} (${mark(r.injectRecall >= TARGETS.injectRecall)}) |`,
    `| injection for another conversation's questions (${r.mode}; text-only ${f(r.text.falseInject)}) | ` +
      `${f(r.falseInject)} | ≤ ${TARGETS.falseInject} (${mark(r.falseInject <= TARGETS.falseInject)}) |`,
    `| baseline: SQLite FTS5 over raw turns, R@1kTok | ${f(r.baselineR1kTok)} | (same run) |`,
    '',
    `time: ${r.seconds} s`,
  ].join('\n');
}
