/**
 * The injection gate on kept homes, in-process (docs/performance.md, "Where the gate stands, per
 * item"): every question of the homes a scorer kept is asked through `searchMemory` as `search
 * --json --limit 30 --no-cache` asks it, and scored as the scorers score unasked injection (the
 * top 15 by rank, relevance at the floor, five at most). Seconds instead of the scorer's minutes,
 * so a change of the gate is measured on both sets before it is run through the CLI.
 *
 *   node --import tsx bench/gate-homes.ts agentlife ../shared/data/agentlife-dev /tmp/agentlife-a1-… /tmp/agentlife-a2-… …
 *   node --import tsx bench/gate-homes.ts locomo ../shared/data/locomo-dev /tmp/ocm-observer-quality-…
 *
 * (the homes `agentlife_run.py --keep` and `npm run eval -- observer --keep` keep). Prints R@10,
 * R@1kTok, inject_recall, the questions the memory cannot answer that get an injection (agent-life's
 * abstain questions; LoCoMo: 40 questions of the next conversation per home), and where the
 * evidence that is not injected is: not in the top 15, under a question with nothing at the floor,
 * under 0.3 beside a passing result, past the five.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { homePaths } from '../lib/platform/home.js';
import { loadConfig } from '../lib/config/config.js';
import { searchMemory } from '../lib/search/search.js';
import { DEFAULT_MIN_RELEVANCE } from '../lib/search/relevance.js';
import type { SearchResult } from '../lib/search/types.js';

const cl100k = getEncoding('cl100k_base');
const BUDGET = 1000;
const NEGATIVES = 40;

interface Question {
  question: string;
  evidence: string[];
  category: string;
}

interface KeptHome {
  name: string;
  home: string;
  /** entry id → turn (dia_id) */
  turns: Map<string, string>;
  questions: Question[];
  /** Questions this home cannot answer (another conversation's). */
  negatives: Question[];
}

async function agentLifeHomes(dataDir: string, dirs: string[]): Promise<KeptHome[]> {
  const out: KeptHome[] = [];
  for (const dir of dirs) {
    const conv = /^agentlife-(.+)-[^-]+$/.exec(basename(dir))?.[1];
    if (!conv) throw new Error(`not a kept agent-life dir (agentlife-<conv>-…): ${dir}`);
    const data = JSON.parse(await readFile(join(dataDir, `${conv}.json`), 'utf8'));
    // The scorer's entry ids: sha1("<conv>:<dia_id>"), and a turn's tool steps' (#m<j>, #r<j>).
    const eid = (s: string) => createHash('sha1').update(`${conv}:${s}`).digest('hex').slice(0, 8);
    const turns = new Map<string, string>();
    for (let n = 1; data[`session_${n}`]; n++)
      for (const t of data[`session_${n}`] as Array<{ dia_id: string; steps?: unknown[] }>) {
        turns.set(eid(t.dia_id), t.dia_id);
        for (let j = 0; j <= (t.steps?.length ?? 0); j++) {
          turns.set(eid(`${t.dia_id}#m${j}`), t.dia_id);
          turns.set(eid(`${t.dia_id}#r${j}`), t.dia_id);
        }
      }
    out.push({ name: conv, home: join(dir, 'home'), turns, questions: data.qa, negatives: [] });
  }
  return out;
}

async function locomoHomes(dataDir: string, work: string): Promise<KeptHome[]> {
  const ids = ['26', '30', '41', '42', '43'];
  const questions = new Map<string, Question[]>();
  for (const id of ids) {
    const raw = JSON.parse(await readFile(join(dataDir, `${id}.json`), 'utf8'));
    const qa = (raw.qa ?? raw.conversation?.qa ?? []) as Array<{ question: string; evidence: string[]; category: number }>;
    questions.set(
      id,
      qa
        .filter((q) => q.category !== 5 && q.evidence.length > 0)
        .map((q) => ({ question: q.question, evidence: q.evidence.map((e) => e.trim()), category: String(q.category) })),
    );
  }
  const out: KeptHome[] = [];
  for (const [i, id] of ids.entries()) {
    const map = JSON.parse(await readFile(join(work, id, 'openclaw', 'locomo-map.json'), 'utf8')) as Record<string, string>;
    out.push({
      name: id,
      home: join(work, id, 'home'),
      turns: new Map(Object.entries(map)),
      questions: questions.get(id)!,
      negatives: questions.get(ids[(i + 1) % ids.length]!)!.slice(0, NEGATIVES),
    });
  }
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const injectedOf = (results: SearchResult[]) =>
  results
    .slice(0, 15)
    .map((r, k) => ({ r, k }))
    .filter(({ r }) => (r.relevance ?? 0) >= DEFAULT_MIN_RELEVANCE)
    .slice(0, 5);

async function main(): Promise<void> {
  const [kind, dataDir, ...dirs] = process.argv.slice(2);
  if ((kind !== 'agentlife' && kind !== 'locomo') || !dataDir || dirs.length === 0)
    throw new Error('usage: gate-homes.ts agentlife|locomo DATA_DIR KEPT_DIR…');
  const homes = kind === 'agentlife' ? await agentLifeHomes(dataDir, dirs) : await locomoHomes(dataDir, dirs[0]!);
  const r10: number[] = [];
  const r1k: number[] = [];
  const inject: number[] = [];
  const unanswerable: Array<{ home: string; question: string; injected: boolean }> = [];
  const where = { injected: 0, notInTop15: 0, nothingAtFloor: 0, belowFloor: 0, pastFive: 0 };
  for (const h of homes) {
    const paths = homePaths(h.home);
    const { config } = await loadConfig({ file: paths.config, envFile: paths.env, env: {} });
    const lines = new Map<string, string[]>();
    const lineTokens = async (r: SearchResult) => {
      if (!lines.has(r.path)) lines.set(r.path, (await readFile(join(h.home, r.path), 'utf8').catch(() => '')).split('\n'));
      return cl100k.encode((lines.get(r.path)![r.startLine - 1] ?? '').trim()).length;
    };
    const ask = async (q: string, limit: number) => (await searchMemory(paths, config, { query: q, limit, cache: false })).results;
    for (const q of h.questions) {
      const results = await ask(q.question, 30);
      const cited = results.map((r) => new Set(r.provenance.entryIds.map((e) => h.turns.get(e)).filter((d): d is string => !!d)));
      const injected = injectedOf(results);
      const evidence = [...new Set(q.evidence.map((e) => e.trim()))];
      if (evidence.length === 0) {
        unanswerable.push({ home: h.name, question: q.question, injected: injected.length > 0 });
        continue;
      }
      const share = (got: Set<string>) => evidence.filter((e) => got.has(e)).length / evidence.length;
      r10.push(share(new Set(cited.slice(0, 10).flatMap((c) => [...c]))));
      const within = new Set<string>();
      let used = 0;
      for (const [k, r] of results.entries()) {
        const t = await lineTokens(r);
        if (used + t > BUDGET) break;
        used += t;
        for (const d of cited[k]!) within.add(d);
      }
      r1k.push(share(within));
      const got = new Set(injected.flatMap(({ k }) => [...cited[k]!]));
      inject.push(share(got));
      const open = results.slice(0, 15).some((r) => (r.relevance ?? 0) >= DEFAULT_MIN_RELEVANCE);
      for (const e of evidence) {
        const k = cited.slice(0, 15).findIndex((c) => c.has(e));
        if (got.has(e)) where.injected++;
        else if (k < 0) where.notInTop15++;
        else if ((results[k]!.relevance ?? 0) >= DEFAULT_MIN_RELEVANCE) where.pastFive++;
        else if (open) where.belowFloor++;
        else where.nothingAtFloor++;
      }
    }
    for (const q of h.negatives) {
      const results = await ask(q.question, 15);
      unanswerable.push({ home: h.name, question: q.question, injected: injectedOf(results).length > 0 });
    }
  }
  const f = (x: number) => x.toFixed(3);
  const hit = unanswerable.filter((u) => u.injected);
  console.log(
    `${kind}: R@10 ${f(mean(r10))}  R@1kTok ${f(mean(r1k))}  inject_recall ${f(mean(inject))}  unanswerable injected ${hit.length} of ${unanswerable.length}  (${r10.length} questions)`,
  );
  console.log(
    `evidence: ${where.injected} injected, ${where.notInTop15} not in the top 15, ${where.nothingAtFloor} with nothing at the floor, ${where.belowFloor} below the floor beside a passing result, ${where.pastFive} past the five`,
  );
  for (const u of hit) console.log(`  injected, unanswerable here (${u.home}): ${u.question}`);
}

await main();
