/**
 * Every word of a command line stays text. cac parses with mri, which turns
 * any option value that reads as a number into one — `--query 007` became 7,
 * `--query ""` became 0 (and `forget` then erased every observation holding a
 * "0") — and a word after a flag (`--json 007`) into a number too. cac offers
 * no switch for that, so every word that is not an option name is marked
 * before mri sees it (a NUL prefix: no real argv word can hold a NUL, and no
 * marked word reads as a number) and unmarked in what the parse returns.
 * Commands that want a number parse the text themselves, with a message.
 */
import type { CAC } from 'cac';

const MARK = '\u0000';

/** Mark every word before `--` that mri could read as a value (not option names, not the boolean words mri looks for). */
export function markWords(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((word, i) => {
    if (end !== -1 && i >= end) return word;
    if (word.startsWith('-')) {
      const eq = word.indexOf('=');
      return word.startsWith('--') && eq !== -1 ? `${word.slice(0, eq + 1)}${MARK}${word.slice(eq + 1)}` : word;
    }
    return word === 'true' || word === 'false' ? word : `${MARK}${word}`;
  });
}

/** The value with every mark removed (strings, arrays and the objects of dotted options). */
export function unmark<T>(value: T): T {
  if (typeof value === 'string') return (value.startsWith(MARK) ? value.slice(MARK.length) : value) as T;
  if (Array.isArray(value)) return value.map((v) => unmark(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unmark(v)])) as T;
  return value;
}

interface ParsedArgv {
  args: ReadonlyArray<string | number>;
  options: Record<string, unknown>;
}

/** Make a cac instance keep every word of its command lines as text. */
export function keepWordsAsText(cli: CAC): void {
  const target = cli as unknown as { mri(argv: string[], command?: unknown): ParsedArgv };
  const parse = target.mri.bind(cli);
  target.mri = (argv, command) => {
    const parsed = parse(markWords(argv), command);
    return { args: unmark(parsed.args), options: unmark(parsed.options) };
  };
}
