/**
 * Token efficiency with retention (the `npm run eval` section "tokens";
 * US-009, FR-P1-005), on the LoCoMo conversations in ../shared/data/locomo-dev
 * turned into OpenClaw transcripts (bench/locomo-convert.ts).
 *
 * 1. Offline pipeline, per conversation, on a fresh memory home: the real
 *    observe job with the heuristic Observer, then the reflect job with the
 *    heuristic Reflector over every observation (`reflect --force --all`),
 *    then active memory. Reported: transcript tokens (the messages' text),
 *    observation tokens (the observation lines as a Reflector or agent reads
 *    them), reflection tokens, active_memory.md tokens (budget 4000); the
 *    reflections' compression ratio and keyword preservation; and
 *    information retention — of the questions of categories 1, 2 and 4 whose
 *    answer's key words all appear in the observations, the share whose key
 *    words all still appear in the reflections.
 *    Same-run baselines at the same token budget as the reflections: the
 *    first observation lines of each period (truncation), and the
 *    high-priority lines only.
 * 2. Observer cost: the LLM Observer through the real observe job and the
 *    real `openai` client against the scripted local server (counting tokens
 *    with js-tiktoken): input tokens sent vs the new content's tokens, per
 *    100k transcript tokens.
 *
 *   node --import tsx bench/token-efficiency.ts [--data DIR] [--keep]
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConversations, turnText, writeConversation, type LocomoConversation } from './locomo-convert.js';
import { validateConfig } from '../lib/config/config.js';
import { homePaths, type HomePaths } from '../lib/platform/home.js';
import { createMemoryLogger } from '../lib/platform/log.js';
import { listHotDayFiles, readObservations } from '../lib/memory/memory-files.js';
import { createObserver } from '../lib/observer/factory.js';
import { runObserveJob } from '../lib/observe/job.js';
import { rebuildActiveMemory } from '../lib/memory/active-memory-file.js';
import { listReflections } from '../lib/memory/reflection-file.js';
import { runReflectJob } from '../lib/jobs/reflect-job.js';
import { contentWords } from '../lib/reflector/keywords.js';
import { renderObservations, renderReflectionLines, sortObservations } from '../lib/memory/reflection-text.js';
import { createOpenClawFileSource } from '../lib/sources/openclaw-files.js';
import { countTokens } from '../lib/core/tokens.js';
import type { Observation } from '../lib/core/types.js';
import { ok, startOpenAiServer, type RecordedRequest } from '../test/helpers/openai-server.js';

const ROOT = resolve(import.meta.dirname, '..');
const CATEGORIES = new Set([1, 2, 4]);
const NOW = new Date('2030-01-01T00:00:00Z');

export interface RetentionScores {
  /** Questions whose answer key words are all in the observations. */
  answerable: number;
  retained: number;
  retention: number;
}

export interface ConversationReport {
  id: string;
  turns: number;
  transcriptTokens: number;
  observations: number;
  observationTokens: number;
  reflections: number;
  reflectionTokens: number;
  activeMemoryTokens: number;
  compression: number;
  minCompression: number;
  maxCompression: number;
  keywordPreservation: number;
  minKeywordPreservation: number;
  questions: number;
  retention: RetentionScores;
  baselines: { truncation: RetentionScores; highOnly: RetentionScores & { tokens: number } };
}

export interface ObserverCost {
  transcriptTokens: number;
  newContentTokens: number;
  inputTokens: number;
  outputTokens: number;
  calls: number;
  inputPerContent: number;
  inputPer100k: number;
  /** Each message sent once: messages sent / messages in the transcripts. */
  messagesSent: number;
  messages: number;
}

export interface TokenEfficiencyReport {
  conversations: ConversationReport[];
  overall: Omit<ConversationReport, 'id' | 'minCompression' | 'maxCompression' | 'minKeywordPreservation'> & {
    minCompression: number;
    minKeywordPreservation: number;
  };
  observerCost: ObserverCost;
  seconds: number;
}

function answerText(answer: unknown): string {
  return Array.isArray(answer) ? answer.map(String).join(' ') : String(answer ?? '');
}

function score(questions: LocomoConversation['questions'], observed: Set<string>, kept: Set<string>): RetentionScores {
  let answerable = 0;
  let retained = 0;
  for (const q of questions) {
    if (!CATEGORIES.has(q.category)) continue;
    const keys = [...contentWords(answerText(q.answer))];
    if (keys.length === 0 || !keys.every((k) => observed.has(k))) continue;
    answerable++;
    if (keys.every((k) => kept.has(k))) retained++;
  }
  return { answerable, retained, retention: answerable ? retained / answerable : 1 };
}

/** Baseline: the first lines of each period, up to the same number of tokens as its reflection. */
function truncationText(periods: Array<{ sources: Observation[]; tokens: number }>): string {
  let out = '';
  for (const p of periods) {
    const lines = renderObservations(p.sources).split('\n');
    let text = '';
    for (const line of lines) {
      if (countTokens(text + line) > p.tokens) break;
      text += `${line}\n`;
    }
    out += text;
  }
  return out;
}

async function offline(conv: LocomoConversation, dir: string): Promise<ConversationReport> {
  const stateDir = join(dir, 'openclaw');
  await writeConversation(conv, stateDir);
  const paths: HomePaths = homePaths(join(dir, 'home'));
  await mkdir(paths.machine, { recursive: true });
  const config = validateConfig({ timezone: 'UTC', sources: { openclaw: { state_dirs: [stateDir] } } });
  const logger = createMemoryLogger();
  await runObserveJob({
    paths,
    sources: [createOpenClawFileSource({ stateDirs: [stateDir], masking: {} })],
    observer: await createObserver(config),
    logger,
    timeZone: 'UTC',
    now: () => NOW,
  });
  const observations = await readObservations(await listHotDayFiles(paths, 'main'));
  await runReflectJob({
    paths,
    config,
    env: {},
    logger,
    timeZone: 'UTC',
    now: () => NOW,
    force: true,
    includeRecent: true,
    agents: ['main'],
  });
  const reflections = await listReflections(paths, 'main');
  const am = await rebuildActiveMemory({ paths, config, agent: 'main', timeZone: 'UTC', now: NOW });

  const byId = new Map(observations.map((o) => [o.id, o]));
  const periods = reflections.map((r) => ({
    sources: sortObservations(r.meta.sourceObservations.map((id) => byId.get(id)!).filter(Boolean)),
    tokens: r.meta.tokensAfter,
  }));
  const observationText = renderObservations(observations);
  const reflectionText = reflections.map((r) => renderReflectionLines(r.lines)).join('');
  const observed = contentWords(observationText, { expand: true });
  const retention = score(conv.questions, observed, contentWords(reflectionText, { expand: true }));
  const truncation = score(conv.questions, observed, contentWords(truncationText(periods), { expand: true }));
  const highText = renderObservations(observations.filter((o) => o.priority === 'high'));
  const highOnly = { ...score(conv.questions, observed, contentWords(highText, { expand: true })), tokens: countTokens(highText) };

  const before = reflections.reduce((n, r) => n + r.meta.tokensBefore, 0);
  const after = reflections.reduce((n, r) => n + r.meta.tokensAfter, 0);
  const ratios = reflections.map((r) => r.meta.compressionRatio);
  const kps = reflections.map((r) => r.meta.keywordPreservation);
  const turns = conv.sessions.flatMap((s) => s.turns);
  return {
    id: conv.id,
    turns: turns.length,
    transcriptTokens: turns.reduce((n, t) => n + countTokens(turnText(t)), 0),
    observations: observations.length,
    observationTokens: countTokens(observationText),
    reflections: reflections.length,
    reflectionTokens: after,
    activeMemoryTokens: am.tokens,
    compression: before / Math.max(1, after),
    minCompression: Math.min(...ratios),
    maxCompression: Math.max(...ratios),
    keywordPreservation: reflections.reduce((n, r) => n + r.meta.keywordPreservation * r.meta.tokensBefore, 0) / Math.max(1, before),
    minKeywordPreservation: Math.min(...kps),
    questions: conv.questions.filter((q) => CATEGORIES.has(q.category)).length,
    retention,
    baselines: { truncation, highOnly },
  };
}

/** A scripted model: one short observation per user line it is shown (the output size does not matter here). */
function scriptedObserver(req: RecordedRequest) {
  const out: string[] = [];
  for (const line of (req.messages[1]?.content ?? '').split('\n')) {
    if (/^# Session \d+$/.test(line)) out.push(line);
    const h = /^## (\d{4}-\d{2}-\d{2})/.exec(line);
    if (h) out.push(`## ${h[1]}`);
    else if (/^(?:\d\d:\d\d )?U: /.test(line)) out.push(`- 🟡 [fact] ${line.replace(/^(?:\d\d:\d\d )?U: /, 'User: ').slice(0, 80)}`);
  }
  return ok(out.length > 1 ? out.join('\n') : 'NONE');
}

export async function observerCost(convs: LocomoConversation[], dir: string, batchTokens?: number): Promise<ObserverCost> {
  const server = await startOpenAiServer(scriptedObserver);
  try {
    let transcriptTokens = 0;
    let messages = 0;
    for (const conv of convs) {
      const stateDir = join(dir, `llm-${conv.id}`, 'openclaw');
      await writeConversation(conv, stateDir);
      const paths = homePaths(join(dir, `llm-${conv.id}`, 'home'));
      await mkdir(paths.machine, { recursive: true });
      const config = validateConfig({
        timezone: 'UTC',
        observer: {
          provider: 'custom',
          model: 'scripted',
          api_base: server.url,
          api_key: 'bench',
          retry_delays_ms: [10, 20, 40],
          ...(batchTokens ? { batch_tokens: batchTokens } : {}),
        },
      });
      await runObserveJob({
        paths,
        sources: [createOpenClawFileSource({ stateDirs: [stateDir], masking: {} })],
        observer: await createObserver(config, { env: {}, homeRoot: paths.root }),
        logger: createMemoryLogger(),
        timeZone: 'UTC',
        now: () => NOW,
        batching: { batchTokens: config.observer.batch_tokens, idleMinutes: config.observer.idle_minutes },
      });
      for (const t of conv.sessions.flatMap((s) => s.turns)) {
        transcriptTokens += countTokens(turnText(t));
        messages++;
      }
    }
    // New content: the text of every message the Observer was sent (each once).
    let newContentTokens = 0;
    let messagesSent = 0;
    for (const r of server.requests) {
      for (const line of (r.messages[1]?.content ?? '').split('\n')) {
        const m = /^(?:\d\d:\d\d )?(?:U|A|S|T\([^)]*\)): (.*)$/.exec(line);
        if (!m) continue;
        newContentTokens += countTokens(m[1]!);
        messagesSent++;
      }
    }
    const totals = server.totals();
    return {
      transcriptTokens,
      newContentTokens,
      inputTokens: totals.promptTokens,
      outputTokens: totals.completionTokens,
      calls: totals.calls,
      inputPerContent: totals.promptTokens / Math.max(1, newContentTokens),
      inputPer100k: (totals.promptTokens / Math.max(1, transcriptTokens)) * 100_000,
      messagesSent,
      messages,
    };
  } finally {
    await server.close();
  }
}

export async function runTokenEfficiency(options: {
  dataDir: string;
  keep?: boolean;
  log?: (line: string) => void;
}): Promise<TokenEfficiencyReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const convs = await loadConversations(options.dataDir);
  const dir = await mkdtemp(join(tmpdir(), 'ocm-tokens-'));
  try {
    const reports: ConversationReport[] = [];
    for (const conv of convs) {
      log(`conversation ${conv.id}: observe, reflect, active memory`);
      reports.push(await offline(conv, join(dir, conv.id)));
    }
    log('observer cost against the scripted server');
    const cost = await observerCost(convs, dir);
    const sum = (f: (r: ConversationReport) => number) => reports.reduce((n, r) => n + f(r), 0);
    const merge = (f: (r: ConversationReport) => RetentionScores): RetentionScores => {
      const answerable = sum((r) => f(r).answerable);
      const retained = sum((r) => f(r).retained);
      return { answerable, retained, retention: answerable ? retained / answerable : 1 };
    };
    const before = sum((r) => r.compression * r.reflectionTokens);
    return {
      conversations: reports,
      overall: {
        turns: sum((r) => r.turns),
        transcriptTokens: sum((r) => r.transcriptTokens),
        observations: sum((r) => r.observations),
        observationTokens: sum((r) => r.observationTokens),
        reflections: sum((r) => r.reflections),
        reflectionTokens: sum((r) => r.reflectionTokens),
        activeMemoryTokens: Math.max(...reports.map((r) => r.activeMemoryTokens)),
        compression:
          before /
          Math.max(
            1,
            sum((r) => r.reflectionTokens),
          ),
        minCompression: Math.min(...reports.map((r) => r.minCompression)),
        keywordPreservation: sum((r) => r.keywordPreservation * r.compression * r.reflectionTokens) / Math.max(1, before),
        minKeywordPreservation: Math.min(...reports.map((r) => r.minKeywordPreservation)),
        questions: sum((r) => r.questions),
        retention: merge((r) => r.retention),
        baselines: {
          truncation: merge((r) => r.baselines.truncation),
          highOnly: { ...merge((r) => r.baselines.highOnly), tokens: sum((r) => r.baselines.highOnly.tokens) },
        },
      },
      observerCost: cost,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (!options.keep) await rm(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const ratio = (x: number) => `${x.toFixed(2)}:1`;

export function tokenEfficiencyTable(report: TokenEfficiencyReport): string {
  const rows = [...report.conversations, { ...report.overall, id: 'overall', maxCompression: NaN }];
  const head = [
    'conv',
    'transcript',
    'observations',
    'reflections',
    'active mem',
    'compression (min)',
    'keywords (min)',
    'retention',
    'trunc. same budget',
    'high only',
  ];
  const lines = [head.join(' | '), head.map(() => '---').join(' | ')];
  for (const r of rows) {
    lines.push(
      [
        r.id,
        String(r.transcriptTokens),
        `${r.observationTokens} (${r.observations})`,
        `${r.reflectionTokens} (${r.reflections})`,
        String(r.activeMemoryTokens),
        `${ratio(r.compression)} (${ratio(r.minCompression)})`,
        `${pct(r.keywordPreservation)} (${pct(r.minKeywordPreservation)})`,
        `${pct(r.retention.retention)} (${r.retention.retained}/${r.retention.answerable})`,
        pct(r.baselines.truncation.retention),
        `${pct(r.baselines.highOnly.retention)} @ ${r.baselines.highOnly.tokens} tok`,
      ].join(' | '),
    );
  }
  const c = report.observerCost;
  lines.push(
    '',
    `Observer cost (LLM Observer, scripted server, default batching): ${c.calls} calls, ${c.inputTokens} input tokens for ${c.newContentTokens} tokens of new content = ${c.inputPerContent.toFixed(2)}×; ` +
      `${Math.round(c.inputPer100k)} input tokens per 100k transcript tokens; ${c.messagesSent}/${c.messages} messages sent (each once).`,
    `Targets: compression 5:1–40:1, keywords ≥ 70 %, retention ≥ 90 % at ≥ 5:1, active memory ≤ 4000, observer ` +
      `input ≤ 1.2× new content. (${report.seconds.toFixed(0)} s)`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--data');
  const report = await runTokenEfficiency({
    dataDir: at >= 0 ? resolve(args[at + 1]!) : resolve(ROOT, '..', 'shared', 'data', 'locomo-dev'),
    keep: args.includes('--keep'),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${tokenEfficiencyTable(report)}\n`);
}
