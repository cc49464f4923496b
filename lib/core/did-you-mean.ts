/**
 * "Did you mean …": the known names closest to a mistyped one (a command, an option, an agent, a
 * home folder). Edit distance from fastest-levenshtein; a name the input starts (`integ` →
 * `integrate`) counts as close too, and so does a swap of two neighbouring letters. Pure.
 */
import { distance } from 'fastest-levenshtein';

/** The candidates close to `input`, closest first (at most `limit`); none when nothing is close. */
export function closestNames(input: string, candidates: Iterable<string>, limit = 3): string[] {
  const wanted = input.toLowerCase();
  if (!wanted) return [];
  // Up to 2 edits for a short name, a third of the name for a longer one: `claude-cod` → `claude-code`, not `codex`.
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(candidates)) {
    const other = name.toLowerCase();
    if (other === wanted) continue;
    const edits = isSwap(wanted, other) ? 1 : distance(wanted, other);
    const prefix = wanted.length >= 3 && other.startsWith(wanted);
    if (edits <= allowed || prefix) scored.push({ name, score: prefix ? Math.min(edits, 1) : edits });
  }
  // Only the closest: `stauts` is `status` (two letters swapped), not also `stats` and `start`.
  const best = Math.min(...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score === best)
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((s) => s.name);
}

/** `a` is `b` with two neighbouring characters swapped (the commonest typo, one edit not two). */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const differ: number[] = [];
  for (let i = 0; i < a.length && differ.length <= 2; i++) if (a[i] !== b[i]) differ.push(i);
  return differ.length === 2 && differ[1] === differ[0]! + 1 && a[differ[0]!] === b[differ[1]!] && a[differ[1]!] === b[differ[0]!];
}

/** ` Did you mean "a" or "b"?` (with a leading space), or '' when nothing is close. */
export function didYouMean(input: string, candidates: Iterable<string>, quote: (name: string) => string = (n) => `"${n}"`): string {
  const names = closestNames(input, candidates).map(quote);
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
  return ` Did you mean ${list}?`;
}
