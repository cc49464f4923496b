/**
 * Search filters from command-line words: dates (2026-02-12, 7d, 2w, 3m, 1y,
 * today, yesterday), priorities (high / 🔴 / h), tiers, comma lists. Pure.
 */
import { OcmError } from '../core/errors.js';
import type { Priority, Tier } from '../core/types.js';
import type { SearchFilters } from './types.js';

/** YYYY-MM-DD of `date` in `timeZone` ('' = the system's). */
export function localDate(date: Date, timeZone: string): string {
  const fmt = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: timeZone || undefined });
  return fmt.format(date);
}

function shiftDays(ymd: string, days: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function shiftMonths(ymd: string, months: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

/** A date bound: absolute (YYYY-MM-DD, YYYY-MM = first day) or relative to today (7d, 2w, 3m, 1y, today, yesterday). */
export function parseDateBound(text: string, now: Date, timeZone: string, flag = '--since'): string {
  const t = text.trim().toLowerCase();
  const today = localDate(now, timeZone);
  if (t === 'today') return today;
  if (t === 'yesterday') return shiftDays(today, -1);
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) {
    const d = new Date(`${t}T00:00:00Z`);
    if (!Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === t) return t;
  }
  m = /^(\d{4})-(\d{2})$/.exec(t);
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= 12) return `${t}-01`;
  m = /^(\d+)\s*(d|w|m|y)$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    switch (m[2]) {
      case 'd':
        return shiftDays(today, -n);
      case 'w':
        return shiftDays(today, -7 * n);
      case 'm':
        return shiftMonths(today, -n);
      default:
        return shiftMonths(today, -12 * n);
    }
  }
  throw new OcmError('BAD_INPUT', `${flag} "${text}" is not a date.`, {
    hint: 'Use YYYY-MM-DD (2026-02-12), YYYY-MM, today, yesterday, or a span back from today: 7d, 2w, 3m, 1y.',
  });
}

const PRIORITY_WORDS: Record<string, Priority> = {
  high: 'high',
  h: 'high',
  '🔴': 'high',
  medium: 'medium',
  med: 'medium',
  m: 'medium',
  '🟡': 'medium',
  low: 'low',
  l: 'low',
  '🟢': 'low',
};

/** Comma/space separated values from one or repeated options. */
export function listOption(value: unknown, separator: RegExp = /[,\s]+/): string[] {
  const raw = Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value];
  return raw
    .flatMap((v) => String(v).split(separator))
    .map((v) => v.trim())
    .filter(Boolean);
}

export function parsePriorities(values: string[]): Priority[] {
  return values.map((v) => {
    const p = PRIORITY_WORDS[v.toLowerCase()];
    if (!p)
      throw new OcmError('BAD_INPUT', `--priority "${v}" is not a priority.`, {
        hint: 'Use high, medium or low (or 🔴 🟡 🟢); several: --priority high,medium.',
      });
    return p;
  });
}

export function parseTiers(values: string[]): Tier[] {
  return values.map((v) => {
    const t = v.toLowerCase();
    if (t !== 'hot' && t !== 'warm' && t !== 'cold')
      throw new OcmError('BAD_INPUT', `--tier "${v}" is not a tier.`, { hint: 'Use hot, warm or cold (several: --tier hot,warm).' });
    return t;
  });
}

/** Filters from the `search` command's options. */
export function filtersFromOptions(options: Record<string, unknown>, now: Date, timeZone: string): SearchFilters {
  const filters: SearchFilters = {};
  const since = listOption(options.since)[0];
  const until = listOption(options.until)[0];
  if (since) filters.since = parseDateBound(since, now, timeZone, '--since');
  if (until) filters.until = parseDateBound(until, now, timeZone, '--until');
  if (filters.since && filters.until && filters.since > filters.until) {
    throw new OcmError('BAD_INPUT', `--since ${filters.since} is after --until ${filters.until}.`, { hint: 'Swap the two dates.' });
  }
  const priorities = listOption(options.priority);
  if (priorities.length) filters.priorities = parsePriorities(priorities);
  const categories = listOption(options.category);
  if (categories.length) filters.categories = categories.map((c) => c.toLowerCase());
  const tiers = listOption(options.tier);
  if (tiers.length) filters.tiers = parseTiers(tiers);
  // Agent names may hold spaces (`team x`): only commas separate them.
  const agents = listOption(options.agent, /\s*,\s*/);
  if (agents.length) filters.agents = agents;
  const tags = listOption(options.tag).map((t) => t.replace(/^#/, '').toLowerCase());
  if (tags.length) filters.tags = tags;
  if (options.current === true) filters.current = true;
  return filters;
}

export function parseLimit(value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new OcmError('BAD_INPUT', `--limit "${String(value)}" is not a number from 1 to 1000.`, { hint: 'For example --limit 20.' });
  }
  return n;
}

/** `--mode` (or the dashboard's choice): text or hybrid; undefined when not given (hybrid when embeddings are configured). */
export function parseSearchMode(value: unknown): 'text' | 'hybrid' | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === 'text' || value === 'hybrid') return value;
  throw new OcmError('BAD_INPUT', `--mode "${String(value)}" is not a search mode.`, {
    hint: 'Use --mode text (full text only) or --mode hybrid (with embeddings, when configured; the default).',
  });
}
