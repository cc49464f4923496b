/**
 * Three-way merge of a day file's text: `base` is a version both writers started from, `ours` the
 * program's new version (observation lines and their provenance added, owned frontmatter keys
 * updated), `theirs` what another writer (an editor) saved over `base` meanwhile. Every change either
 * side made to `base` is in the result (docs/architecture.md, "Day files and editors"):
 *   - the frontmatter is theirs when they changed it, else ours (the owned keys are counted again
 *     from the merged lines afterwards, by the caller: they describe the merged file);
 *   - the body is merged line by line: a region only one side changed takes that side's lines; a
 *     region both changed the same way takes them once; a region both changed differently (both
 *     added lines at the same place, the common case: a note and new observations at the end) takes
 *     theirs, then the lines ours added that theirs does not have. A line either side removed stays
 *     removed, so a user's deletion is honoured; the program never removes a line of the body.
 * The two-way diffs are jsdiff's (`diffArrays`, Myers' O(ND)): a merge of a 100,000-line day with a
 * few changes costs a few hundred milliseconds where a Hunt–McIlroy diff3 (node-diff3) takes seconds
 * at 2,000 lines, the blank and repeated lines of a day file being its worst case.
 */
import { diffArrays } from 'diff';
import { splitFrontmatter } from '../frontmatter.js';

/** A change of one side: base lines [start, end) become `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/**
 * `base` → `other` as the base ranges it changes, in order. The common first and last lines are set
 * aside before the diff: two versions of a day file differ in a few places of thousands of lines
 * (a note at the top, new lines at the end), and the diff of the rest costs a fraction.
 */
function hunksOf(base: string[], other: string[]): Hunk[] {
  let head = 0;
  const shorter = Math.min(base.length, other.length);
  while (head < shorter && base[head] === other[head]) head++;
  let tail = 0;
  while (tail < shorter - head && base[base.length - 1 - tail] === other[other.length - 1 - tail]) tail++;
  const hunks: Hunk[] = [];
  let at = head;
  let open: Hunk | undefined;
  for (const change of diffArrays(base.slice(head, base.length - tail), other.slice(head, other.length - tail))) {
    if (!change.added && !change.removed) {
      if (open) hunks.push(open);
      open = undefined;
      at += change.count;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (change.removed) {
      at += change.count;
      open.end = at;
    } else open.lines.push(...change.value);
  }
  if (open) hunks.push(open);
  return hunks;
}

/** base[start, end) with a side's hunks inside that range applied. */
function applyWithin(base: string[], start: number, end: number, hunks: Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const h of hunks) {
    out.push(...base.slice(at, h.start), ...h.lines);
    at = h.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

/** Three-way merge of line lists (see the header for the policy). */
export function mergeLines(base: string[], ours: string[], theirs: string[]): string[] {
  const tagged = [
    ...hunksOf(base, ours).map((h) => ({ ...h, ours: true })),
    ...hunksOf(base, theirs).map((h) => ({ ...h, ours: false })),
  ].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < tagged.length; ) {
    // A region: hunks whose base ranges overlap or touch (two insertions at one place do).
    const start = tagged[i]!.start;
    let end = tagged[i]!.end;
    let j = i + 1;
    while (j < tagged.length && tagged[j]!.start <= end) end = Math.max(end, tagged[j++]!.end);
    const region = tagged.slice(i, j);
    out.push(...base.slice(at, start));
    const mine = region.filter((h) => h.ours);
    const yours = region.filter((h) => !h.ours);
    if (yours.length === 0) out.push(...applyWithin(base, start, end, mine));
    else if (mine.length === 0) out.push(...applyWithin(base, start, end, yours));
    else {
      const theirLines = applyWithin(base, start, end, yours);
      const ourLines = applyWithin(base, start, end, mine);
      out.push(...theirLines);
      if (ourLines.join('\n') !== theirLines.join('\n')) {
        const known = new Set([...base.slice(start, end), ...theirLines]);
        out.push(...ourLines.filter((line) => !known.has(line)));
      }
    }
    at = end;
    i = j;
  }
  out.push(...base.slice(at));
  return out;
}

/** A text's frontmatter block (fences included; '' when none) and its body. */
function split(text: string): { frontmatter: string; body: string } {
  const block = splitFrontmatter(text);
  return block ? { frontmatter: block.raw, body: block.body } : { frontmatter: '', body: text };
}

/** The merged day file text (see the header). */
export function mergeDayFileText(base: string, ours: string, theirs: string): string {
  const b = split(base);
  const o = split(ours);
  const t = split(theirs);
  const frontmatter = t.frontmatter !== b.frontmatter ? t.frontmatter : o.frontmatter;
  return frontmatter + mergeLines(b.body.split('\n'), o.body.split('\n'), t.body.split('\n')).join('\n');
}

/** How many lines `a` → `b` adds or removes. */
function distance(a: string[], b: string[]): number {
  let n = 0;
  for (const h of hunksOf(a, b)) n += h.end - h.start + h.lines.length;
  return n;
}

/**
 * Of the candidate bases (the likeliest first), the one `theirs` differs least from (the first on a
 * tie).
 */
export function closestBase(candidates: string[], theirs: string): string {
  let best = candidates[0]!;
  let bestDistance = Infinity;
  const theirLines = theirs.split('\n');
  for (const candidate of candidates) {
    const d = candidate === theirs ? 0 : distance(candidate.split('\n'), theirLines);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
