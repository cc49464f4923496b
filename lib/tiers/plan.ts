/**
 * Which observations leave which tier today: pure functions of the files'
 * facts, the retention rules and today's date.
 *
 * - An observation leaves hot when its day is at least its TTL old: the
 *   priority's TTL (`tiers.ttl_by_priority`) or `tiers.hot_ttl_days`.
 *   Observations of one day that age at different speeds are split out of
 *   the day file; a day whose observations are all due moves as a whole file
 *   (with any notes the user wrote in it).
 * - A pinned observation (tag #pin / #pinned / #user_marked, or a day file
 *   with `pin: true` in its frontmatter) never moves.
 * - Warm days at least `tiers.warm_ttl_days` old are due for the cold tier.
 */
import { CONTROL_TAGS } from '../memory/suspicious.js';
import { estimateTokens } from '../core/tokens.js';
import type { Priority, Tier } from '../core/types.js';
import { ageInDays } from './age.js';
import type { TierFile } from './locations.js';

/** The tags that pin a line (memory/suspicious.ts CONTROL_TAGS: they never come from quoted text). */
export const PIN_TAGS = CONTROL_TAGS;

export interface ObservationFacts {
  /** undefined for a hand-written line without a block id (moves only with its whole file). */
  id: string | undefined;
  priority: Priority;
  tags: string[];
  text: string;
  /** Bytes of its line(s) in the file. */
  bytes: number;
}

export interface FileFacts {
  file: TierFile;
  observations: ObservationFacts[];
  /** Frontmatter `pin: true`: the whole day stays. */
  pinnedDay: boolean;
  bytes: number;
}

export function isPinned(o: Pick<ObservationFacts, 'tags'>): boolean {
  return o.tags.some((t) => PIN_TAGS.has(t.toLowerCase()));
}

export interface Move {
  source: TierFile;
  to: Tier;
  /** Every observation goes (and the file with its notes). */
  whole: boolean;
  /** Ids of the observations that go (all of them when whole, hand-written lines excluded). */
  ids: string[];
  observations: number;
  bytes: number;
  tokens: number;
  age: number;
}

/** Days an observation may stay in its tier; undefined = never leaves. */
export type TtlRule = (o: ObservationFacts | undefined) => number | undefined;

export function hotTtlRule(rules: { hotTtlDays: number; ttlByPriority: Partial<Record<Priority, number | undefined>> }): TtlRule {
  return (o) => (o ? (rules.ttlByPriority[o.priority] ?? rules.hotTtlDays) : rules.hotTtlDays);
}

export function flatTtlRule(days: number): TtlRule {
  return () => days;
}

/** Plan the moves of files of one tier to another tier under a TTL rule. */
export function planMoves(facts: FileFacts[], options: { to: Tier; today: string; ttl: TtlRule }): Move[] {
  const moves: Move[] = [];
  for (const f of facts) {
    if (f.pinnedDay) continue;
    const age = ageInDays(f.file.date, options.today);
    const due = (o: ObservationFacts | undefined) => {
      if (o && isPinned(o)) return false;
      const ttl = options.ttl(o);
      return ttl !== undefined && age >= ttl;
    };
    if (f.observations.length === 0) {
      if (due(undefined))
        moves.push({ source: f.file, to: options.to, whole: true, ids: [], observations: 0, bytes: f.bytes, tokens: 0, age });
      continue;
    }
    const going = f.observations.filter((o) => due(o));
    if (going.length === 0) continue;
    const whole = going.length === f.observations.length;
    const movable = whole ? going : going.filter((o) => o.id !== undefined);
    if (movable.length === 0) continue;
    moves.push({
      source: f.file,
      to: options.to,
      whole,
      ids: movable.map((o) => o.id).filter((id): id is string => id !== undefined),
      observations: movable.length,
      bytes: whole ? f.bytes : movable.reduce((n, o) => n + o.bytes, 0),
      tokens: movable.reduce((n, o) => n + estimateTokens(o.text), 0),
      age,
    });
  }
  return moves;
}

export interface MoveSummary {
  from: Tier;
  to: Tier;
  files: number;
  /** Day files split (some observations stay). */
  splits: number;
  observations: number;
  bytes: number;
  /** Oldest and newest day moved. */
  dateRange: [string, string] | undefined;
  /** Estimated tokens that leave the hot tier. */
  tokensFreedFromHot: number;
}

export function summarizeMoves(moves: Move[], from: Tier, to: Tier): MoveSummary {
  const dates = moves.map((m) => m.source.date).sort();
  return {
    from,
    to,
    files: moves.length,
    splits: moves.filter((m) => !m.whole).length,
    observations: moves.reduce((n, m) => n + m.observations, 0),
    bytes: moves.reduce((n, m) => n + m.bytes, 0),
    dateRange: dates.length > 0 ? [dates[0]!, dates[dates.length - 1]!] : undefined,
    tokensFreedFromHot: from === 'hot' ? moves.reduce((n, m) => n + m.tokens, 0) : 0,
  };
}
