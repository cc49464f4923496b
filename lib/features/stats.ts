/**
 * `stats` (PRD §8.1.3): what the memory holds and what it cost — totals and
 * storage per tier, priority and category distribution, observations per day,
 * token efficiency (transcript tokens read vs active_memory.md), compression
 * ratios (transcript → observations, observations → reflections), LLM usage
 * and cost (recorded by the LLM client in state.json), and search times
 * (from logs/search.log). Read-only; formatting and CSV flattening are pure.
 */
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fromSystemError } from '../core/errors.js';
import type { Config } from '../config/config-schema.js';
import { activeMemoryPath, DEFAULT_AGENT, expandHome, type HomePaths } from '../platform/home.js';
import { dateFromFileName, listObservations, parseDayFile } from '../memory/day-file/index.js';
import { readState, type State } from '../platform/state.js';
import { headerTokens } from './status.js';
import { estimateTokens } from '../core/tokens.js';
import type { Observation } from '../core/types.js';
import { readTextSteady } from '../platform/atomic-file.js';

const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.md$/;

export interface TierStats {
  files: number;
  bytes: number;
  observations?: number;
}

export interface UsageRow {
  role: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
  costUsd: number | null;
}

export interface Stats {
  home: string;
  generatedAt: string;
  tiers: { hot: TierStats; warm: TierStats; cold: TierStats; reflections: TierStats };
  /** The cold tier's folder in the vault (null: no vault configured). */
  vault: string | null;
  observations: {
    total: number;
    completedTasks: number;
    byPriority: Record<string, number>;
    byCategory: Record<string, number>;
    byAgent: Record<string, number>;
    /** Oldest first. */
    perDay: Array<{ date: string; count: number }>;
    averagePerDay: number;
  };
  tokens: {
    transcriptRead: number;
    messagesRead: number;
    /** Estimated tokens of every observation's text. */
    observations: number;
    activeMemory: Record<string, number>;
    budget: number;
    /** Transcript tokens read per token of the main active memory (higher = more condensed). */
    efficiency: number | null;
    /** Transcript tokens per observation token. */
    observationCompression: number | null;
  };
  reflections: {
    count: number;
    averageCompressionRatio: number | null;
    averageKeywordPreservation: number | null;
    items: Array<{
      agent: string;
      period: string;
      compressionRatio: number;
      keywordPreservation: number;
      tokensBefore: number;
      tokensAfter: number;
    }>;
  };
  llm: {
    rows: UsageRow[];
    total: { inputTokens: number; outputTokens: number; calls: number; costUsd: number | null };
    byDay: Array<{ date: string; inputTokens: number; outputTokens: number; calls: number; costUsd: number | null }>;
  };
  search: { queries: number; averageMs: number | null; p95Ms: number | null };
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** Every file under a folder (recursively), skipping dot-folders. */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

async function tierOf(files: string[]): Promise<TierStats> {
  let bytes = 0;
  for (const f of files) bytes += await sizeOf(f);
  return { files: files.length, bytes };
}

/** Agent of a day file from its place: memory/x.md → main, memory/<agent>/x.md → agent; archive adds a year folder. */
function agentOf(root: string, file: string, yearFolder: boolean): string {
  const rel = file.slice(root.length + 1).split(/[/\\]/);
  const depth = yearFolder ? 3 : 2;
  return rel.length >= depth ? rel[0]! : DEFAULT_AGENT;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Durations of search runs, from the search log (JSON lines with an `ms` field on search.done). */
export function searchTimes(logText: string): number[] {
  const out: number[] = [];
  for (const line of logText.split('\n')) {
    if (!line.includes('"search.done"')) continue;
    try {
      const r = JSON.parse(line) as { event?: string; ms?: unknown };
      if (r.event === 'search.done' && typeof r.ms === 'number' && Number.isFinite(r.ms)) out.push(r.ms);
    } catch {
      /* a torn line */
    }
  }
  return out;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** What one day file adds to the figures. */
interface DayFileTally {
  observations: number;
  completed: number;
  tokens: number;
  byPriority: Record<string, number>;
  byCategory: Record<string, number>;
  byAgent: Record<string, number>;
  byDay: Record<string, number>;
}

/**
 * Day files' tallies kept by a long-running caller (the dashboard's health page) between calls:
 * a file whose size and mtime are unchanged is not read again. At 100k observations reading and
 * parsing every day file took ~1.4 s a page (`npm run bench -- ui`).
 */
export type StatsCache = Map<string, { size: number; mtimeMs: number; tally: DayFileTally }>;

function tallyOf(list: readonly Observation[]): DayFileTally {
  const t: DayFileTally = { observations: list.length, completed: 0, tokens: 0, byPriority: {}, byCategory: {}, byAgent: {}, byDay: {} };
  for (const o of list) {
    t.byPriority[o.priority] = (t.byPriority[o.priority] ?? 0) + 1;
    t.byCategory[o.category] = (t.byCategory[o.category] ?? 0) + 1;
    t.byAgent[o.agent] = (t.byAgent[o.agent] ?? 0) + 1;
    t.byDay[o.date] = (t.byDay[o.date] ?? 0) + 1;
    if (o.done) t.completed++;
    t.tokens += estimateTokens(o.text);
  }
  return t;
}

/**
 * `state` and `searchTimes`: state.json and the search log's times (searchTimes()) as a caller that
 * shows them too (the dashboard's health page) has read them already; read here otherwise.
 */
export async function collectStats(
  paths: HomePaths,
  config: Config,
  options: { now?: Date; userHome?: string; perDayLimit?: number; cache?: StatsCache; state?: State; searchTimes?: readonly number[] } = {},
): Promise<Stats> {
  const now = options.now ?? new Date();
  const hotFiles = (await walk(paths.memory)).filter((f) => DAY_FILE.test(basename(f)));
  const warmFiles = (await walk(paths.archive)).filter((f) => DAY_FILE.test(basename(f)));
  const reflectionFiles = (await walk(paths.reflections)).filter((f) => f.endsWith('.md'));
  // The cold tier's day files in the vault, as the tier moves lay them out (its notes and reflection copies are not days).
  const { coldRoot, listTierFiles } = await import('../tiers/locations.js');
  const vaultPath = config.tiers.vault_path ? expandHome(config.tiers.vault_path, options.userHome) : '';
  const coldFiles = (await listTierFiles(paths, vaultPath, 'cold')).map((f) => f.path);

  const tallies: DayFileTally[] = [];
  /** A tier's day files, one stat each: their bytes, and each file's tally — read again only when the cache has none of its size and mtime. */
  const readTier = async (files: string[], root: string, tier: 'hot' | 'warm' | 'cold'): Promise<TierStats> => {
    let bytes = 0;
    let observations = 0;
    for (const f of files) {
      let info: { size: number; mtimeMs: number };
      try {
        info = await stat(f);
      } catch {
        continue;
      }
      bytes += info.size;
      const cached = options.cache?.get(f);
      let tally = cached && cached.size === info.size && cached.mtimeMs === info.mtimeMs ? cached.tally : undefined;
      if (!tally) {
        let text: string;
        try {
          text = await readTextSteady(f);
        } catch {
          continue;
        }
        const date = dateFromFileName(f) ?? basename(f).slice(0, 10);
        tally = tallyOf(listObservations(parseDayFile(text), { date, agent: agentOf(root, f, tier !== 'hot'), tier }));
        options.cache?.set(f, { size: info.size, mtimeMs: info.mtimeMs, tally });
      }
      observations += tally.observations;
      tallies.push(tally);
    }
    return { files: files.length, bytes, observations };
  };
  const hot = await readTier(hotFiles, paths.memory, 'hot');
  const warm = await readTier(warmFiles, paths.archive, 'warm');
  const cold = await readTier(coldFiles, coldRoot(vaultPath) ?? '', 'cold');
  // Files gone since the last call leave the cache.
  if (options.cache) {
    const present = new Set([...hotFiles, ...warmFiles, ...coldFiles]);
    for (const f of options.cache.keys()) if (!present.has(f)) options.cache.delete(f);
  }

  const byPriority: Record<string, number> = { high: 0, medium: 0, low: 0 };
  const byCategory: Record<string, number> = {};
  const byAgent: Record<string, number> = {};
  const byDay = new Map<string, number>();
  let observationCount = 0;
  let completed = 0;
  let observationTokens = 0;
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
  };
  for (const t of tallies) {
    observationCount += t.observations;
    add(byPriority, t.byPriority);
    add(byCategory, t.byCategory);
    add(byAgent, t.byAgent);
    for (const [date, n] of Object.entries(t.byDay)) byDay.set(date, (byDay.get(date) ?? 0) + n);
    completed += t.completed;
    observationTokens += t.tokens;
  }
  const days = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count }));

  const state = options.state ?? (await readState(paths.state)).state;
  const activeMemory: Record<string, number> = {};
  for (const agent of new Set([DEFAULT_AGENT, ...Object.keys(byAgent)])) {
    try {
      const t = headerTokens(await readFile(activeMemoryPath(paths, agent), 'utf8'));
      if (t !== undefined) activeMemory[agent] = t;
    } catch {
      /* not built */
    }
  }
  const transcript = state.totals.transcriptTokens;
  const mainActive = activeMemory[DEFAULT_AGENT];

  // Reflections (every agent).
  const { listReflections } = await import('../memory/reflection-file.js');
  const items: Stats['reflections']['items'] = [];
  for (const agent of new Set([DEFAULT_AGENT, ...Object.keys(byAgent)])) {
    for (const r of await listReflections(paths, agent).catch(() => [])) {
      items.push({
        agent,
        period: `${r.meta.periodStart} → ${r.meta.periodEnd}`,
        compressionRatio: r.meta.compressionRatio,
        keywordPreservation: r.meta.keywordPreservation,
        tokensBefore: r.meta.tokensBefore,
        tokensAfter: r.meta.tokensAfter,
      });
    }
  }
  const avg = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);

  // LLM usage as the LLM client records it (state.extra.llm).
  const llm = (state.extra.llm ?? {}) as {
    totals?: Record<string, Record<string, Omit<UsageRow, 'role' | 'model'>>>;
    byDay?: Record<string, Omit<UsageRow, 'role' | 'model'>>;
  };
  const rows: UsageRow[] = [];
  for (const [role, models] of Object.entries(llm.totals ?? {}))
    for (const [model, t] of Object.entries(models ?? {})) rows.push({ role, model, ...t });
  const total = rows.reduce(
    (acc, r) => ({
      inputTokens: acc.inputTokens + r.inputTokens,
      outputTokens: acc.outputTokens + r.outputTokens,
      calls: acc.calls + r.calls,
      costUsd: acc.costUsd === null || r.costUsd === null ? null : round(acc.costUsd + r.costUsd, 6),
    }),
    { inputTokens: 0, outputTokens: 0, calls: 0, costUsd: 0 as number | null },
  );
  const llmByDay = Object.entries(llm.byDay ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, t]) => ({ date, ...t }));

  const times = (options.searchTimes ?? searchTimes(await readFile(join(paths.logs, 'search.log'), 'utf8').catch(() => ''))).slice(-5000);
  const sortedTimes = [...times].sort((a, b) => a - b);

  return {
    home: paths.root,
    generatedAt: now.toISOString(),
    tiers: { hot, warm, cold, reflections: await tierOf(reflectionFiles) },
    vault: coldRoot(vaultPath) ?? null,
    observations: {
      total: observationCount,
      completedTasks: completed,
      byPriority,
      byCategory,
      byAgent,
      perDay: options.perDayLimit ? days.slice(-options.perDayLimit) : days,
      averagePerDay: days.length ? round(observationCount / days.length) : 0,
    },
    tokens: {
      transcriptRead: transcript,
      messagesRead: state.totals.messages,
      observations: observationTokens,
      activeMemory,
      budget: config.active_memory.budget_tokens,
      efficiency: mainActive && transcript ? round(transcript / mainActive) : null,
      observationCompression: observationTokens && transcript ? round(transcript / observationTokens) : null,
    },
    reflections: {
      count: items.length,
      averageCompressionRatio: avg(items.map((i) => i.compressionRatio).filter((n) => Number.isFinite(n))),
      averageKeywordPreservation: avg(items.map((i) => i.keywordPreservation).filter((n) => Number.isFinite(n))),
      items,
    },
    llm: { rows, total, byDay: llmByDay },
    search: {
      queries: times.length,
      averageMs: times.length ? round(times.reduce((a, b) => a + b, 0) / times.length, 1) : null,
      p95Ms: sortedTimes.length ? percentile(sortedTimes, 95) : null,
    },
  };
}

function kb(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

const num = (n: number) => n.toLocaleString('en-US');
const usd = (n: number | null) => (n === null ? 'unknown (a model without a known price)' : `$${n.toFixed(4)}`);

export function formatStats(s: Stats, detailed: boolean): string {
  const L: string[] = [];
  const t = s.tiers;
  L.push(`OC-Memory statistics · ${s.home}`, '');
  L.push('Storage');
  L.push(`  hot    ${String(t.hot.files).padStart(6)} files ${kb(t.hot.bytes).padStart(10)}  ${num(t.hot.observations ?? 0)} observations`);
  L.push(
    `  warm   ${String(t.warm.files).padStart(6)} files ${kb(t.warm.bytes).padStart(10)}  ${num(t.warm.observations ?? 0)} observations`,
  );
  L.push(
    `  cold   ${String(t.cold.files).padStart(6)} files ${kb(t.cold.bytes).padStart(10)}  ${num(t.cold.observations ?? 0)} observations${s.vault ? ` (${s.vault})` : ' (no vault configured: tiers.vault_path)'}`,
  );
  L.push(`  reflections ${String(t.reflections.files).padStart(1)} files ${kb(t.reflections.bytes)}`);
  L.push('');
  const o = s.observations;
  L.push(
    `Observations: ${num(o.total)} (${o.completedTasks} completed tasks) · ${o.perDay.length} days · ${o.averagePerDay} per day on average`,
  );
  const pct = (n: number) => (o.total ? `${Math.round((n / o.total) * 100)}%` : '0%');
  L.push(
    `  priority: 🔴 high ${o.byPriority.high ?? 0} (${pct(o.byPriority.high ?? 0)}) · 🟡 medium ` +
      `${o.byPriority.medium ?? 0} (${pct(o.byPriority.medium ?? 0)}) · 🟢 low ${o.byPriority.low ?? 0} ` +
      `(${pct(o.byPriority.low ?? 0)})`,
  );
  L.push(
    `  category: ${
      Object.entries(o.byCategory)
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c} ${n}`)
        .join(' · ') || 'none'
    }`,
  );
  if (Object.keys(o.byAgent).length > 1 || detailed)
    L.push(
      `  agents:   ${
        Object.entries(o.byAgent)
          .map(([a, n]) => `${a} ${n}`)
          .join(' · ') || 'none'
      }`,
    );
  const perDay = detailed ? o.perDay : o.perDay.slice(-7);
  if (perDay.length > 0) {
    const max = Math.max(...perDay.map((d) => d.count));
    L.push(`  per day${detailed ? '' : ' (last 7 days with observations)'}:`);
    for (const d of perDay)
      L.push(`    ${d.date} ${String(d.count).padStart(5)} ${'█'.repeat(Math.max(1, Math.round((d.count / max) * 30)))}`);
  }
  L.push('');
  const k = s.tokens;
  L.push('Tokens');
  L.push(`  transcripts read: ${num(k.transcriptRead)} tokens in ${num(k.messagesRead)} messages`);
  L.push(
    `  observations:     ${num(k.observations)} tokens${k.observationCompression ? ` (${k.observationCompression}× smaller than the transcripts)` : ''}`,
  );
  L.push(
    `  active memory:    ${
      Object.entries(k.activeMemory)
        .map(([a, n]) => `${a} ${num(n)}`)
        .join(', ') || 'not built yet'
    } (budget ${num(k.budget)})`,
  );
  L.push(`  efficiency:       ${k.efficiency ? `${k.efficiency} transcript tokens per active-memory token` : 'n/a (nothing read yet)'}`);
  L.push('');
  const r = s.reflections;
  L.push(
    `Reflections: ${r.count}${r.count ? ` · average compression ${r.averageCompressionRatio}× · keywords kept ${r.averageKeywordPreservation !== null ? `${Math.round(r.averageKeywordPreservation * 100)}%` : 'n/a'}` : ''}`,
  );
  if (detailed)
    for (const i of r.items)
      L.push(
        `  ${i.agent} ${i.period}: ${i.tokensBefore} → ${i.tokensAfter} tokens (${i.compressionRatio}×), keywords ${Math.round(i.keywordPreservation * 100)}%`,
      );
  L.push('');
  const u = s.llm;
  L.push(
    `LLM usage: ${u.total.calls ? `${num(u.total.calls)} calls · ${num(u.total.inputTokens)} in / ${num(u.total.outputTokens)} out tokens · cost ${usd(u.total.costUsd)}` : 'none (heuristic observer, or no LLM call yet)'}`,
  );
  if (detailed || u.rows.length > 1)
    for (const row of u.rows)
      L.push(
        `  ${row.role.padEnd(9)} ${row.model}: ${num(row.calls)} calls, ${num(row.inputTokens)} in / ${num(row.outputTokens)} out, ${usd(row.costUsd)}`,
      );
  if (detailed)
    for (const d of u.byDay.slice(-14))
      L.push(`  ${d.date}: ${num(d.calls)} calls, ${num(d.inputTokens)} in / ${num(d.outputTokens)} out, ${usd(d.costUsd)}`);
  L.push('');
  L.push(
    `Search: ${s.search.queries ? `${num(s.search.queries)} searches · average ${s.search.averageMs} ms · p95 ${s.search.p95Ms} ms` : 'no searches logged yet'}`,
  );
  return L.join('\n');
}

/** Flatten for CSV: one row per figure (section, key, value). */
export function statsRows(s: Stats): Array<[string, string, string | number]> {
  const rows: Array<[string, string, string | number]> = [];
  const add = (section: string, key: string, value: string | number | null | undefined) => rows.push([section, key, value ?? '']);
  for (const [tier, t] of Object.entries(s.tiers)) {
    add('storage', `${tier}.files`, t.files);
    add('storage', `${tier}.bytes`, t.bytes);
    if (t.observations !== undefined) add('storage', `${tier}.observations`, t.observations);
  }
  add('observations', 'total', s.observations.total);
  add('observations', 'completed_tasks', s.observations.completedTasks);
  add('observations', 'average_per_day', s.observations.averagePerDay);
  for (const [k, v] of Object.entries(s.observations.byPriority)) add('priority', k, v);
  for (const [k, v] of Object.entries(s.observations.byCategory)) add('category', k, v);
  for (const [k, v] of Object.entries(s.observations.byAgent)) add('agent', k, v);
  for (const d of s.observations.perDay) add('per_day', d.date, d.count);
  add('tokens', 'transcript_read', s.tokens.transcriptRead);
  add('tokens', 'messages_read', s.tokens.messagesRead);
  add('tokens', 'observations', s.tokens.observations);
  for (const [a, v] of Object.entries(s.tokens.activeMemory)) add('tokens', `active_memory.${a}`, v);
  add('tokens', 'budget', s.tokens.budget);
  add('tokens', 'efficiency', s.tokens.efficiency);
  add('tokens', 'observation_compression', s.tokens.observationCompression);
  add('reflections', 'count', s.reflections.count);
  add('reflections', 'average_compression_ratio', s.reflections.averageCompressionRatio);
  add('reflections', 'average_keyword_preservation', s.reflections.averageKeywordPreservation);
  for (const r of s.llm.rows) {
    const key = `${r.role}.${r.model}`;
    add('llm', `${key}.calls`, r.calls);
    add('llm', `${key}.input_tokens`, r.inputTokens);
    add('llm', `${key}.output_tokens`, r.outputTokens);
    add('llm', `${key}.cost_usd`, r.costUsd);
  }
  add('llm', 'total.calls', s.llm.total.calls);
  add('llm', 'total.cost_usd', s.llm.total.costUsd);
  add('search', 'queries', s.search.queries);
  add('search', 'average_ms', s.search.averageMs);
  add('search', 'p95_ms', s.search.p95Ms);
  return rows;
}

/** `stats --export FILE`: the figures as JSON (FILE.json) or as section/key/value rows (FILE.csv), readable by the user only. */
export async function writeStatsExport(stats: Stats, file: string): Promise<void> {
  let text: string;
  if (/\.json$/i.test(file)) text = `${JSON.stringify(stats, null, 2)}\n`;
  else {
    const { stringify } = await import('csv-stringify/sync');
    text = stringify([['section', 'key', 'value'], ...statsRows(stats)]);
  }
  await writeFile(resolve(file), text, { mode: 0o600 }).catch((error: unknown) => {
    throw fromSystemError(error, `write ${file}`);
  });
}
