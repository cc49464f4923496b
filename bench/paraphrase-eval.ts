/**
 * The paraphrase set (the `npm run eval` section "paraphrase"): questions whose
 * words differ from the memory's — synonyms, descriptions, questions with
 * context words, Korean ↔ English with the agent's renderings (`queries`,
 * `--also`) — unrelated prompts, and near misses (a question about something
 * the memory holds, asking a detail it does not: nothing should be injected), over two homes: the bundled samples
 * (`ocm-run demo`) and a personal home (bench/paraphrase-set/life.yaml).
 *
 * Each query is asked through `searchMemory` (what `ocm-run search` and the
 * MCP tool call) in text mode and in hybrid mode, side by side: hit@5 (the
 * expected memory among the first five), injected (it passes the unasked
 * injection of the agent hooks: top 15, relevance ≥ 0.5, at most 5), and for
 * the unrelated prompts, how many get any injection. Cross-language queries
 * are also asked alone, as the CLI path without an agent asks them.
 *
 * Hybrid uses the embeddings the home's config chooses; `--embeddings-url
 * <OpenAI-compatible base>` points it at an endpoint instead.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { loadConfig, type Config } from '../lib/config/config.js';
import { observationId } from '../lib/memory/observation-line.js';
import { writeObservations } from '../lib/observe/job.js';
import { homePaths, type HomePaths } from '../lib/platform/home.js';
import { updateIndex } from '../lib/search/indexer.js';
import { searchMemory } from '../lib/search/search.js';
import { embeddingSettings } from '../lib/search/embeddings.js';
import type { SearchResult } from '../lib/search/types.js';
import type { Observation, Priority } from '../lib/core/types.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'scripts', 'cli.js');
const SET_DIR = join(ROOT, 'bench', 'paraphrase-set');
const FLOOR = 0.5;
export const PARAPHRASE_TARGET = 0.8;

export interface ParaphraseQuery {
  home: 'demo' | 'life';
  kind: 'synonym' | 'description' | 'context' | 'crosslang' | 'unrelated' | 'nearmiss';
  query: string;
  also?: string[];
  expect: string | null;
}

interface Outcome {
  hit5: boolean;
  injected: boolean;
  anyInjection: boolean;
}

export interface ParaphraseRow {
  query: string;
  kind: ParaphraseQuery['kind'];
  text: Outcome;
  hybrid?: Outcome;
  /** Cross-language queries asked without their renderings. */
  alone?: { text: Outcome; hybrid?: Outcome };
}

export interface ParaphraseReport {
  queries: number;
  hybridMode: string;
  rows: ParaphraseRow[];
  summary: Record<string, { n: number; text: { hit5: number; injected: number }; hybrid?: { hit5: number; injected: number } }>;
  target: number;
}

async function lifeHome(dir: string): Promise<HomePaths> {
  const paths = homePaths(dir);
  const days = parse(await readFile(join(SET_DIR, 'life.yaml'), 'utf8')) as Record<
    string,
    Array<{ text: string; category: string; priority?: Priority }>
  >;
  const observations: Observation[] = [];
  for (const [date, list] of Object.entries(days)) {
    list.forEach((o, i) => {
      const time = `${String(9 + i).padStart(2, '0')}:00`;
      observations.push({
        id: observationId({ agent: 'main', session: 'life', date, category: o.category, text: o.text }),
        date,
        time,
        priority: o.priority ?? 'medium',
        done: false,
        category: o.category,
        text: o.text,
        tags: [],
        agent: 'main',
        provenance: { source: 'manual', agent: 'main', session: 'life', entryIds: [] },
      });
    });
  }
  await writeObservations(paths, observations);
  return paths;
}

function outcome(results: SearchResult[], expect: string | null): Outcome {
  const has = (r: SearchResult) => expect !== null && r.text.toLowerCase().includes(expect.toLowerCase());
  const injected = results
    .slice(0, 15)
    .filter((r) => (r.relevance ?? 0) >= FLOOR)
    .slice(0, 5);
  return { hit5: results.slice(0, 5).some(has), injected: injected.some(has), anyInjection: injected.length > 0 };
}

export async function runParaphraseEval(options: {
  embeddingsUrl?: string;
  keep?: boolean;
  log: (line: string) => void;
}): Promise<ParaphraseReport> {
  const queries = parse(await readFile(join(SET_DIR, 'queries.yaml'), 'utf8')) as ParaphraseQuery[];
  const temp = await mkdtemp(join(tmpdir(), 'ocm-paraphrase-'));
  try {
    const homes: Record<string, { paths: HomePaths; config: Config }> = {};
    const demoDir = join(temp, 'demo');
    await execa(process.execPath, [CLI, 'demo', '--home', demoDir], { env: { ...process.env, NO_COLOR: '1' } });
    const life = await lifeHome(join(temp, 'life'));
    let hybridMode = 'off';
    for (const [name, paths] of [
      ['demo', homePaths(demoDir)],
      ['life', life],
    ] as const) {
      const { config } = await loadConfig({ file: paths.config, envFile: paths.env });
      if (options.embeddingsUrl)
        Object.assign(config.embeddings, { enabled: true, provider: 'custom', api_base: options.embeddingsUrl, model: 'eval' });
      const indexed = await updateIndex(paths, config, { rebuild: true });
      // (A home with Hangul-only memories is never "complete" with vectors: those get none.)
      hybridMode =
        embeddingSettings(config) && indexed.warnings.length === 0
          ? 'hybrid'
          : `text${indexed.warnings.length ? `: ${indexed.warnings[0]}` : ''}`;
      homes[name] = { paths, config };
      options.log(`paraphrase: ${name} home indexed (${hybridMode})`);
    }
    const ask = async (q: ParaphraseQuery, mode: 'text' | 'hybrid', withRenderings: boolean) => {
      const { paths, config } = homes[q.home]!;
      const response = await searchMemory(paths, config, {
        query: q.query,
        also: withRenderings ? q.also : undefined,
        limit: 15,
        cache: false,
        mode,
      });
      return outcome(response.results, q.expect);
    };
    const hybrid = hybridMode === 'hybrid';
    const rows: ParaphraseRow[] = [];
    for (const q of queries) {
      const row: ParaphraseRow = { query: q.query, kind: q.kind, text: await ask(q, 'text', true) };
      if (hybrid) row.hybrid = await ask(q, 'hybrid', true);
      if (q.also?.length && q.kind === 'crosslang')
        row.alone = { text: await ask(q, 'text', false), ...(hybrid ? { hybrid: await ask(q, 'hybrid', false) } : {}) };
      rows.push(row);
    }
    const summary: ParaphraseReport['summary'] = {};
    const add = (key: string, r: { text: Outcome; hybrid?: Outcome }) => {
      const s = (summary[key] ??= { n: 0, text: { hit5: 0, injected: 0 }, ...(hybrid ? { hybrid: { hit5: 0, injected: 0 } } : {}) });
      s.n++;
      const unrelated = key.startsWith('unrelated') || key === 'nearmiss';
      s.text.hit5 += Number(r.text.hit5);
      s.text.injected += Number(unrelated ? r.text.anyInjection : r.text.injected);
      if (s.hybrid && r.hybrid) {
        s.hybrid.hit5 += Number(r.hybrid.hit5);
        s.hybrid.injected += Number(unrelated ? r.hybrid.anyInjection : r.hybrid.injected);
      }
    };
    for (const r of rows) {
      add(r.kind, r);
      if (r.kind !== 'unrelated' && r.kind !== 'nearmiss') add('all', r);
      if (r.alone) add('crosslang, query alone', r.alone);
    }
    for (const s of Object.values(summary)) {
      s.text.hit5 /= s.n;
      s.text.injected /= s.n;
      if (s.hybrid) {
        s.hybrid.hit5 /= s.n;
        s.hybrid.injected /= s.n;
      }
    }
    return { queries: queries.length, hybridMode, rows, summary, target: PARAPHRASE_TARGET };
  } finally {
    if (!options.keep) await rm(temp, { recursive: true, force: true });
  }
}

export function paraphraseTable(report: ParaphraseReport): string {
  const f = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(3));
  const lines = [
    `Paraphrase set (${report.queries} queries over the demo home and bench/paraphrase-set/life.yaml; hybrid: ${report.hybridMode})`,
    '',
    '| kind | n | text hit@5 | hybrid hit@5 | text injected | hybrid injected |',
    '|---|---|---|---|---|---|',
  ];
  for (const [kind, s] of Object.entries(report.summary)) {
    const unrelated = kind === 'unrelated' || kind === 'nearmiss';
    lines.push(
      `| ${kind}${unrelated ? ' (any injection: lower is better)' : ''} | ${s.n} | ` +
        `${unrelated ? '' : f(s.text.hit5)} | ${unrelated ? '' : f(s.hybrid?.hit5)} | ${f(s.text.injected)} | ` +
        `${f(s.hybrid?.injected)} |`,
    );
  }
  const all = report.summary.all;
  lines.push(
    '',
    `target: hit@5 ≥ ${report.target} hybrid — ${all?.hybrid ? (all.hybrid.hit5 >= report.target ? '✓' : '✗') : 'not measured (no embeddings)'}`,
  );
  return lines.join('\n');
}
