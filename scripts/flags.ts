/**
 * A command's flags, declared once and typed: a text flag takes a value and keeps it as typed
 * (`--also 007` is "007", `--query ""` is "", never a number), a switch is on or off. The declaration
 * gives the parser, the help and the type of the values the command gets (`FlagValues`), and the
 * command's usage line (`search <query>`) gives the type of its arguments (`ArgsOf`).
 *
 * Parsed with Node's `util.parseArgs` (its tokens; the checks and their messages are ours), not cac:
 * cac parses with mri, which turns every value that reads as a number into one and offers no way to
 * ask for text (docs/architecture.md, "The command line").
 */
import { parseArgs } from 'node:util';

/** A flag that takes a value: `--limit <n>`. */
export interface TextFlag {
  /** The value's name in help: `<n>`, `<date>`. */
  value: string;
  description: string;
  /** Given more than once: every value, in order (`--also a --also b`); else the last one. */
  multiple?: boolean;
  /** The value when the flag is not given (help shows it). */
  default?: string;
}

/** A flag that is on or off: `--dry-run`. */
export interface SwitchFlag {
  value?: undefined;
  description: string;
  /** Written `--no-<name>` and on unless given (`--no-cache`: the value `cache` is false). */
  negated?: boolean;
  /** A one-letter form (`-h`). */
  short?: string;
}

export type Flag = TextFlag | SwitchFlag;
export type Flags = Readonly<Record<string, Flag>>;

type ValueOf<F extends Flag> = F extends TextFlag
  ? F extends { multiple: true }
    ? string[]
    : F extends { default: string }
      ? string
      : string | undefined
  : boolean;

/** The values a command's run() gets for its flags, by key. */
export type FlagValues<F extends Flags> = { -readonly [K in keyof F]: ValueOf<F[K]> };

type Slot<W extends string> = W extends `<...${infer N}>`
  ? { [K in N]: string[] }
  : W extends `[...${infer N}]`
    ? { [K in N]: string[] }
    : W extends `<${infer N}>`
      ? { [K in N]: string }
      : W extends `[${infer N}]`
        ? { [K in N]: string | undefined }
        : unknown;

/** The arguments of a usage line, by name: `'forget [...ids]'` gives `{ ids: string[] }`. */
export type ArgsOf<S extends string> = S extends `${infer W} ${infer Rest}` ? Slot<W> & ArgsOf<Rest> : Slot<S>;

/** The flags every command takes. */
export const GLOBAL_FLAGS = {
  home: { value: '<dir>', description: 'Memory home (default: $OCM_HOME or ~/.openclaw/oc-memory)' },
  config: { value: '<path>', description: 'Config file (default: config.yaml in the home)' },
  verbose: { description: 'Log every step to stderr' },
  json: { description: 'Machine-readable output where output is data' },
  color: { negated: true, description: 'No colours (also NO_COLOR=1; FORCE_COLOR=1 forces them)' },
  help: { short: 'h', description: 'Display this message' },
  version: { short: 'v', description: 'Display version number' },
} as const satisfies Flags;

export type GlobalFlagValues = FlagValues<typeof GLOBAL_FLAGS>;

/** `dryRun` is written `--dry-run`. */
export function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** How help shows the flag: `--limit <n>`, `--no-cache`, `-h, --help`. */
export function flagUsage(key: string, flag: Flag): string {
  const name = flagName(key);
  if (flag.value !== undefined) return `--${name} ${flag.value}`;
  const long = flag.negated ? `--no-${name}` : `--${name}`;
  return flag.short ? `-${flag.short}, ${long}` : long;
}

/** Every spelling of every flag, for did-you-mean: `--limit`, `--no-cache`, `-h`. */
export function flagSpellings(flags: Flags): string[] {
  return Object.entries(flags).flatMap(([key, flag]) => [
    ...(flag.value === undefined && flag.short ? [`-${flag.short}`] : []),
    `--${flag.value === undefined && flag.negated ? 'no-' : ''}${flagName(key)}`,
  ]);
}

/** One argument of a usage line: `<query>`, `[key]`, `[...ids]`. */
export interface ArgSlot {
  name: string;
  required: boolean;
  variadic: boolean;
}

export function argSlots(usage: string): ArgSlot[] {
  return [...usage.matchAll(/([<[])(\.\.\.)?([^>\]]+)[>\]]/g)].map((m) => ({
    name: m[3]!,
    required: m[1] === '<',
    variadic: m[2] !== undefined,
  }));
}

/** What is wrong with a command line, in the order it is checked. */
export type CommandLineProblem =
  | { kind: 'unknown-option'; option: string }
  | { kind: 'missing-value'; option: string }
  | { kind: 'unexpected-value'; option: string }
  | { kind: 'missing-args' };

export interface ParsedFlags {
  /** The words that are not flags (after `--` too), in order. */
  words: string[];
  /** By key: text flags as typed (a list for `multiple`), switches true/false, defaults filled in. */
  values: Record<string, string | string[] | boolean | undefined>;
  /** The first problem, if any (unknown flags first, then missing values). */
  problem?: CommandLineProblem;
}

/** Parse argv against these flags: every word stays text. */
export function parseFlags(argv: readonly string[], flags: Flags): ParsedFlags {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  const byName = new Map<string, { key: string; flag: Flag; off?: boolean }>();
  for (const [key, flag] of Object.entries(flags)) {
    const name = flagName(key);
    if (flag.value !== undefined) {
      options[name] = { type: 'string' };
    } else {
      // Every switch can be turned off by name (`--no-yes`), and a negated one on (`--cache`).
      options[name] = { type: 'boolean', ...(flag.short ? { short: flag.short } : {}) };
      options[`no-${name}`] = { type: 'boolean' };
      byName.set(`no-${name}`, { key, flag, off: true });
      if (flag.short) byName.set(flag.short, { key, flag });
    }
    byName.set(name, { key, flag });
  }
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const values: ParsedFlags['values'] = {};
  for (const [key, flag] of Object.entries(flags)) {
    if (flag.value === undefined) values[key] = Boolean(flag.negated);
    else if (flag.multiple) values[key] = flag.default === undefined ? [] : [flag.default];
    else values[key] = flag.default;
  }
  const given = new Set<string>();
  const words: string[] = [];
  const problems: CommandLineProblem[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') words.push(token.value);
    if (token.kind !== 'option') continue;
    const known = byName.get(token.name);
    if (!known) {
      problems.push({ kind: 'unknown-option', option: token.rawName });
      continue;
    }
    const { key, flag } = known;
    if (flag.value === undefined) {
      if (token.value !== undefined) problems.push({ kind: 'unexpected-value', option: token.rawName });
      else values[key] = !known.off;
      continue;
    }
    // `--limit` last, or followed by another flag (`--limit --json`): the value is missing, as it reads.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
      problems.push({ kind: 'missing-value', option: flagUsage(key, flag) });
      continue;
    }
    if (flag.multiple) values[key] = [...(given.has(key) ? (values[key] as string[]) : []), token.value];
    else values[key] = token.value;
    given.add(key);
  }
  const order: CommandLineProblem['kind'][] = ['unknown-option', 'unexpected-value', 'missing-value'];
  const problem = order.map((kind) => problems.find((p) => p.kind === kind)).find((p) => p !== undefined);
  return { words, values, ...(problem ? { problem } : {}) };
}

/** The words after the command's name as its named arguments (a variadic one takes the rest). */
export function namedArgs(
  usage: string,
  words: readonly string[],
): { args: Record<string, string | string[] | undefined>; missing: boolean } {
  const slots = argSlots(usage);
  const args: Record<string, string | string[] | undefined> = {};
  slots.forEach((slot, i) => {
    args[slot.name] = slot.variadic ? words.slice(i) : words[i];
  });
  return { args, missing: words.length < slots.filter((s) => s.required).length };
}
