/**
 * Priority accuracy (the `npm run eval` section "priorities"): the labelled set of
 * bench/priority-set/ (labels from docs/priorities.md) against what the real pipeline writes.
 *
 * On a fresh home, the bundled samples and the set's sessions (as OpenClaw transcripts) go through
 * `ocm-run observe` with the default config (the heuristic Observer), then `ocm-run export
 * --format json`. The Observer's answer for a message is the highest priority of the observations
 * that speak for it (predictions()), or `none` (docs/priorities.md, "One label per message"). Reported: accuracy over the four labels beside the PRD's ≥ 85 %, per label
 * (precision, recall), the confusion table, per language and source, the priority accuracy over
 * the messages both keep, chit-chat (label none) written 🔴, and remembered facts written 🔴.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import {
  HOLDOUT_DIR,
  loadPrioritySet,
  loadSetSessions,
  PRIORITY_LABELS,
  SAMPLES_DIR,
  writeSetSessions,
  type LabelledMessage,
  type PriorityLabel,
} from './priority-set.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'scripts', 'cli.js');
/** The PRD's target for priority accuracy. */
export const PRIORITY_TARGET = 0.85;

const RANK: Record<PriorityLabel, number> = { none: 0, low: 1, medium: 2, high: 3 };

export interface PriorityMiss {
  entryId: string;
  session: string;
  role: string;
  label: PriorityLabel;
  predicted: PriorityLabel;
  text: string;
}

export interface PriorityReport {
  messages: number;
  accuracy: number;
  target: number;
  perLabel: Record<PriorityLabel, { count: number; predicted: number; correct: number; precision: number; recall: number }>;
  /** confusion[label][predicted] */
  confusion: Record<PriorityLabel, Record<PriorityLabel, number>>;
  byLanguage: Record<'en' | 'ko', { messages: number; accuracy: number }>;
  bySource: Record<'samples' | 'generated' | 'holdout', { messages: number; accuracy: number }>;
  /** The held-out parts, by the session names' first word ("holdout", "holdout2"): each written after the tuning before it. */
  holdoutParts: Record<string, { messages: number; accuracy: number }>;
  /** Messages both the labels and the Observer keep: is the priority right? */
  kept: { messages: number; accuracy: number };
  /** Messages labelled none that the Observer wrote 🔴 (the rubric: never). */
  noneAtHigh: number;
  /** Facts a remember request points at, and how many were written 🔴. */
  remembered: { facts: number; atHigh: number };
  misses: PriorityMiss[];
  seconds: number;
}

async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const res = await execa(process.execPath, [CLI, ...args], {
    env: { CI: '1', TZ: 'UTC', ...env },
    extendEnv: true,
    reject: false,
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.exitCode !== 0) throw new Error(`ocm-run ${args.join(' ')} failed (${res.exitCode}): ${String(res.stderr)}`);
  return String(res.stdout);
}

/**
 * The Observer's answer per entry id: the highest priority of the observations that speak for the
 * message — those citing it first, and those citing it later beside a first message of the same
 * speaker (a follow-up joined into one memory: "A says X, B asks, A answers"). The question an
 * answer cites and a reaction it cites are the other speaker's: not credited. Without `roleOf`,
 * only the first id counts.
 */
export function predictions(
  observations: Array<{ priority: string; category?: string; provenance?: { entryIds?: string[] } }>,
  roleOf?: (entryId: string) => string | undefined,
): Map<string, PriorityLabel> {
  const out = new Map<string, PriorityLabel>();
  for (const o of observations) {
    // A session's summary speaks for the session, not for the messages it cites (its first and last).
    if (o.category === 'summary') continue;
    const ids = o.provenance?.entryIds ?? [];
    const first = ids[0];
    if (!first || !(PRIORITY_LABELS as readonly string[]).includes(o.priority)) continue;
    const p = o.priority as PriorityLabel;
    const speaker = roleOf?.(first);
    for (const id of ids) {
      if (id !== first && (speaker === undefined || roleOf?.(id) !== speaker)) continue;
      const known = out.get(id);
      if (!known || RANK[p] > RANK[known]) out.set(id, p);
    }
  }
  return out;
}

/** Score labelled messages against the Observer's answers. */
export function scorePriorities(set: LabelledMessage[], predicted: ReadonlyMap<string, PriorityLabel>): Omit<PriorityReport, 'seconds'> {
  const confusion = Object.fromEntries(
    PRIORITY_LABELS.map((l) => [l, Object.fromEntries(PRIORITY_LABELS.map((p) => [p, 0]))]),
  ) as PriorityReport['confusion'];
  const share = (xs: LabelledMessage[]) => ({
    messages: xs.length,
    accuracy: xs.length ? xs.filter((m) => (predicted.get(m.entryId) ?? 'none') === m.label).length / xs.length : 0,
  });
  const misses: PriorityMiss[] = [];
  let correct = 0;
  for (const m of set) {
    const p = predicted.get(m.entryId) ?? 'none';
    confusion[m.label][p]++;
    if (p === m.label) correct++;
    else misses.push({ entryId: m.entryId, session: m.session, role: m.role, label: m.label, predicted: p, text: m.text.slice(0, 160) });
  }
  const perLabel = Object.fromEntries(
    PRIORITY_LABELS.map((l) => {
      const count = PRIORITY_LABELS.reduce((n, p) => n + confusion[l][p], 0);
      const predictedN = PRIORITY_LABELS.reduce((n, t) => n + confusion[t][l], 0);
      const ok = confusion[l][l];
      return [
        l,
        { count, predicted: predictedN, correct: ok, precision: predictedN ? ok / predictedN : 0, recall: count ? ok / count : 0 },
      ];
    }),
  ) as PriorityReport['perLabel'];
  const kept = set.filter((m) => m.label !== 'none' && (predicted.get(m.entryId) ?? 'none') !== 'none');
  const remembered = set.filter((m) => m.remember);
  return {
    messages: set.length,
    accuracy: set.length ? correct / set.length : 0,
    target: PRIORITY_TARGET,
    perLabel,
    confusion,
    byLanguage: { en: share(set.filter((m) => m.language === 'en')), ko: share(set.filter((m) => m.language === 'ko')) },
    bySource: {
      samples: share(set.filter((m) => m.source === 'samples')),
      generated: share(set.filter((m) => m.source === 'generated')),
      holdout: share(set.filter((m) => m.source === 'holdout')),
    },
    holdoutParts: Object.fromEntries(
      [...new Set(set.filter((m) => m.source === 'holdout').map((m) => m.session.split('-')[0]!))].map((part) => [
        part,
        share(set.filter((m) => m.source === 'holdout' && m.session.split('-')[0] === part)),
      ]),
    ),
    kept: share(kept),
    noneAtHigh: confusion.none.high,
    remembered: { facts: remembered.length, atHigh: remembered.filter((m) => predicted.get(m.entryId) === 'high').length },
    misses,
  };
}

export async function runPriorityEval(options: { keep?: boolean; log?: (line: string) => void } = {}): Promise<PriorityReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const set = await loadPrioritySet();
  const work = await mkdtemp(join(tmpdir(), 'ocm-priorities-'));
  try {
    const state = join(work, 'openclaw');
    const home = join(work, 'home');
    await cp(SAMPLES_DIR, state, { recursive: true });
    await writeSetSessions([...(await loadSetSessions()), ...(await loadSetSessions(HOLDOUT_DIR))], state);
    await mkdir(home, { recursive: true });
    const env = { OPENCLAW_STATE_DIR: state, OCM_HOME: home };
    await cli(['observe'], env);
    const exported = JSON.parse(await cli(['export', '--format', 'json'], env)) as {
      observations: Array<{ priority: string; provenance?: { entryIds?: string[] } }>;
    };
    log(`  ${set.length} labelled messages, ${exported.observations.length} observations`);
    const roles = new Map(set.map((m) => [m.entryId, m.role]));
    return {
      ...scorePriorities(
        set,
        predictions(exported.observations, (id) => roles.get(id)),
      ),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  work dir kept: ${work}`);
  }
}

const SHOW: Record<PriorityLabel, string> = { high: '🔴 high', medium: '🟡 medium', low: '🟢 low', none: 'none' };

export function priorityTable(r: PriorityReport): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const lines = [
    `Priority accuracy on the labelled set (${r.messages} messages; labels from docs/priorities.md)`,
    '',
    '| figure | value | target |',
    '|---|---|---|',
    `| accuracy (high / medium / low / none) | ${pct(r.accuracy)} | ≥ ${pct(r.target)} (${r.accuracy >= r.target ? 'met' : 'not met'}) |`,
    `| priority where both keep the message (${r.kept.messages}) | ${pct(r.kept.accuracy)} | |`,
    `| English (${r.byLanguage.en.messages}) / Korean (${r.byLanguage.ko.messages}) | ${pct(r.byLanguage.en.accuracy)} / ${pct(r.byLanguage.ko.accuracy)} | |`,
    `| bundled samples (${r.bySource.samples.messages}) / written sessions (${r.bySource.generated.messages}) | ` +
      `${pct(r.bySource.samples.accuracy)} / ${pct(r.bySource.generated.accuracy)} | |`,
    `| held out: written after the rules were tuned (${r.bySource.holdout.messages}) | ${pct(r.bySource.holdout.accuracy)} | |`,
    ...Object.entries(r.holdoutParts).map(([part, x]) => `| held out, part "${part}" (${x.messages}) | ${pct(x.accuracy)} | |`),
    `| labelled none, written 🔴 | ${r.noneAtHigh} | 0 |`,
    `| remembered facts written 🔴 | ${r.remembered.atHigh} / ${r.remembered.facts} | all |`,
    '',
    '| label | messages | precision | recall |',
    '|---|---|---|---|',
    ...PRIORITY_LABELS.map(
      (l) => `| ${SHOW[l]} | ${r.perLabel[l].count} | ${pct(r.perLabel[l].precision)} | ${pct(r.perLabel[l].recall)} |`,
    ),
    '',
    `| label ↓ / Observer → | ${PRIORITY_LABELS.map((l) => SHOW[l]).join(' | ')} |`,
    `|---|${PRIORITY_LABELS.map(() => '---').join('|')}|`,
    ...PRIORITY_LABELS.map((l) => `| ${SHOW[l]} | ${PRIORITY_LABELS.map((p) => r.confusion[l][p]).join(' | ')} |`),
    '',
    `time: ${r.seconds} s (the misses are in bench/results/eval-priorities.json)`,
  ];
  return lines.join('\n');
}
