/**
 * YAML frontmatter of the Markdown files OC-Memory reads and writes (day files, reflections):
 * finding the block, reading it, and changing keys in it without touching anything else.
 *
 * The one YAML path for Markdown files: day files, reflections and the search index's documents
 * read, write and edit frontmatter only through this module. Splitting is gray-matter's rule, without
 * gray-matter (test/memory/day-file.test.ts reads every case with gray-matter as the oracle). Which YAML
 * library reads, writes and edits is decided in lib/core/yaml.ts. Changing uses the Document API only to
 * find where each key's value sits in the text: the new value replaces those bytes and nothing else,
 * so comments, flow lists, quoting, blank lines and keys the program does not own stay byte for byte
 * (README "File formats").
 */
import { readYaml, yamlDocuments } from '../core/yaml.js';

export { formatYaml, yamlValue } from '../core/yaml.js';

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

export interface FrontmatterBlock {
  /** The exact block, fences and final newline included. */
  raw: string;
  /** The YAML between the fences: after the opening `---` line, up to the first line that starts with `---`. */
  yaml: string;
  /** The text after the block. */
  body: string;
  /** Lines the block takes (the body's first line is this + 1). */
  lines: number;
}

/** The frontmatter block at the start of `text` (split the way gray-matter splits it), or undefined. */
export function splitFrontmatter(text: string): FrontmatterBlock | undefined {
  if (!text.startsWith('---')) return undefined;
  const m = FRONTMATTER.exec(text);
  if (!m) return undefined;
  const raw = m[0];
  const afterOpen = raw.slice(3);
  const close = afterOpen.indexOf('\n---');
  return {
    raw,
    yaml: close === -1 ? afterOpen : afterOpen.slice(0, close),
    body: text.slice(raw.length),
    lines: raw.split('\n').length - 1,
  };
}

/** The block's data: a map, or {} (nothing but comments, or not a map). Throws the YAML error on broken YAML. */
export function readFrontmatterYaml(yaml: string): Record<string, unknown> {
  if (yaml.replace(/^\s*#[^\n]+/gm, '').trim() === '') return {};
  const parsed = readYaml(yaml);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** How a value the program sets is written: a plain word or integer as it is, anything else quoted as YAML quotes it. */
export type ScalarText = (value: unknown) => string;

/**
 * `raw` (a frontmatter block, fences included) with the keys whose value differs between `before`
 * and `after` changed in place: a changed value replaces the old value's bytes (a comment after it
 * stays), a new key goes at the end, a key missing from `after` is removed with its lines. Lists keep
 * their style (flow `[a, b]` or block `- a`). Undefined when the block cannot be edited that way
 * (broken YAML, not a map, a key written twice, an alias): the caller writes the block anew.
 */
export function editFrontmatter(
  raw: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  scalar: ScalarText,
): string | undefined {
  const open = raw.indexOf('\n') + 1;
  const closeAt = raw.indexOf('\n---', open - 1);
  if (open === 0 || closeAt === -1) return undefined;
  const yamlEnd = Math.max(closeAt + 1, open);
  let yaml = raw.slice(open, yamlEnd);
  const Y = yamlDocuments();
  const doc = Y.parseDocument(yaml, { uniqueKeys: true });
  if (doc.errors.length > 0) return undefined;
  const contents = doc.contents;
  const pairs = new Map<string, import('yaml').Pair>();
  if (contents !== null && contents !== undefined) {
    if (!Y.isMap(contents)) return undefined;
    for (const pair of contents.items) {
      if (!Y.isScalar(pair.key) || pair.key.range === undefined || pair.key.range === null) return undefined;
      if (pair.value !== null && (!Y.isNode(pair.value) || Y.isAlias(pair.value) || !pair.value.range)) return undefined;
      pairs.set(String(pair.key.value), pair);
    }
  }
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const appended: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const next = after[key];
    if (sameValue(before[key], next)) continue;
    const pair = pairs.get(key);
    if (next === undefined) {
      if (!pair) continue;
      const keyStart = (pair.key as import('yaml').Scalar).range![0];
      const lineStart = yaml.lastIndexOf('\n', keyStart - 1) + 1;
      const value = pair.value as import('yaml').Node | null;
      const end = value ? value.range![2] : lineEnd(yaml, (pair.key as import('yaml').Scalar).range![2]);
      edits.push({ start: lineStart, end, text: '' });
    } else if (pair?.value) {
      const value = pair.value as import('yaml').Node;
      const [start, end] = value.range!;
      const blockList = Y.isSeq(value) && !value.flow && Array.isArray(next);
      const keepsNewline = yaml.slice(start, end).endsWith('\n');
      const text = blockList
        ? blockSequence(next as unknown[], start - (yaml.lastIndexOf('\n', start - 1) + 1), scalar)
        : valueText(next, scalar);
      edits.push({ start, end, text: keepsNewline && !text.endsWith('\n') ? `${text}\n` : text });
    } else if (pair) {
      return undefined; // `key:` with nothing after it: rare enough to write the block anew
    } else {
      appended.push(`${scalar(key)}: ${valueText(next, scalar)}\n`);
    }
  }
  if (edits.length === 0 && appended.length === 0) return raw;
  edits.sort((a, b) => b.start - a.start);
  for (const e of edits) yaml = yaml.slice(0, e.start) + e.text + yaml.slice(e.end);
  if (appended.length > 0) yaml = (yaml === '' || yaml.endsWith('\n') ? yaml : `${yaml}\n`) + appended.join('');
  return raw.slice(0, open) + yaml + raw.slice(yamlEnd);
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl + 1;
}

function valueText(value: unknown, scalar: ScalarText): string {
  if (Array.isArray(value)) return `[${value.map((v) => scalar(v)).join(', ')}]`;
  return scalar(value);
}

/** A block list whose first `- ` sits at column `indent` (where the old list started). */
function blockSequence(items: unknown[], indent: number, scalar: ScalarText): string {
  if (items.length === 0) return '[]';
  const pad = ' '.repeat(indent);
  return items.map((v, i) => `${i === 0 ? '' : pad}- ${scalar(v)}`).join('\n');
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}
