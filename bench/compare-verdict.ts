/**
 * The verdict of `npm run bench -- compare`: one figure measured in several
 * rounds on a baseline build and on this build, compared against the noise
 * the rounds themselves show. Pure functions (bench/compare.ts measures).
 *
 * - median of each build's rounds;
 * - delta = current median − baseline median (in the figure's unit), and as
 *   a share of the baseline median;
 * - noise = the larger of the two builds' spreads (highest − lowest round):
 *   how far apart the same build measured itself within the same run;
 * - slower only if the change for the worse exceeds the noise, faster only if
 *   the change for the better does; anything within the noise is "same".
 *
 * "Worse" is a larger figure for a time and a smaller one for a rate
 * (`better: 'higher'`, e.g. MB/s).
 */

export type Better = 'lower' | 'higher';
export type Verdict = 'slower' | 'same' | 'faster';

export interface FigureComparison {
  baselineMedian: number;
  currentMedian: number;
  /** current − baseline, in the figure's unit. */
  delta: number;
  /** delta as a share of the baseline median (0.1 = 10 %); null when the baseline median is 0. */
  deltaShare: number | null;
  /** The larger of the two builds' spreads between rounds (highest − lowest). */
  noise: number;
  verdict: Verdict;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('the median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Highest − lowest: how far one build's rounds are apart. */
export function spread(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('the spread of no values');
  return Math.max(...values) - Math.min(...values);
}

/**
 * Compare one figure's rounds. Each build needs two rounds at least: with one,
 * there is no noise to judge a delta against.
 */
export function compareFigure(baseline: readonly number[], current: readonly number[], better: Better): FigureComparison {
  if (baseline.length < 2 || current.length < 2)
    throw new RangeError(`two rounds of each build are needed (baseline ${baseline.length}, current ${current.length})`);
  const baselineMedian = median(baseline);
  const currentMedian = median(current);
  const delta = currentMedian - baselineMedian;
  const noise = Math.max(spread(baseline), spread(current));
  const worse = better === 'lower' ? delta : -delta;
  const verdict: Verdict = worse > noise ? 'slower' : -worse > noise ? 'faster' : 'same';
  return {
    baselineMedian,
    currentMedian,
    delta,
    deltaShare: baselineMedian === 0 ? null : delta / baselineMedian,
    noise,
    verdict,
  };
}
