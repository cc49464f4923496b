/**
 * A day file's frontmatter: read (with a `provenance:` map of a file written before the block taken
 * out), and written back with only what the program changed — the keys it owns (date, tier, agent,
 * time_zone, observations, tags) — re-formatted; a block a user edited keeps its comments and layout.
 *
 * Kept for speed, beside the plain form it must equal: the owned keys are written without loading the
 * `yaml` serialiser (formatPlainOwnedKeys, ~55 ms of a job); oracle: the serialiser, in
 * test/memory/day-file.test.ts. `npm run bench -- observe` measures the job around it.
 */
import { editFrontmatter, formatYaml, readFrontmatterYaml, splitFrontmatter, yamlValue } from '../frontmatter.js';
import type { Frontmatter } from './model.js';

const OWNED_KEYS = ['date', 'tier', 'agent', 'time_zone', 'observations', 'tags'] as const;

export function parseFrontmatter(text: string): {
  fm: Frontmatter;
  body: string;
  bodyLineOffset: number;
  provenance?: Record<string, unknown>;
} {
  const block = splitFrontmatter(text);
  if (!block) return { fm: { data: {}, raw: '', dirty: false }, body: text, bodyLineOffset: 0 };
  const { raw, body, lines: bodyLineOffset } = block;
  try {
    // js-yaml (lib/memory/frontmatter.ts): not the `yaml` package, whose duplicate-key check is quadratic,
    // ~40 ms for the 1000-entry provenance map of a busy day in a file written before the block.
    const data = readFrontmatterYaml(block.yaml);
    const original = { ...data };
    const provenance = data.provenance;
    if (provenance && typeof provenance === 'object' && !Array.isArray(provenance)) {
      delete data.provenance;
      return { fm: { data, raw, dirty: false, original }, body, bodyLineOffset, provenance: provenance as Record<string, unknown> };
    }
    return { fm: { data, raw, dirty: false, original }, body, bodyLineOffset };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { fm: { data: {}, raw, error: message, dirty: false }, body, bodyLineOffset };
  }
}

export function formatFrontmatter(fm: Frontmatter): string {
  if (!fm.dirty) return fm.raw;
  if (fm.raw === '' || fm.original === undefined) return canonicalFrontmatter(fm.data);
  fm.canonical ??= fm.raw === canonicalFrontmatter(fm.original);
  if (fm.canonical) return canonicalFrontmatter(fm.data);
  // Edited by hand (comments, flow lists, keys of the user's own): only the changed keys change,
  // and tags in the user's order stay in it while they are the same tags.
  const tags = fm.data.tags;
  const before = fm.original.tags;
  const data = Array.isArray(tags) && Array.isArray(before) && sameMembers(tags, before) ? { ...fm.data, tags: before } : fm.data;
  return editFrontmatter(fm.raw, fm.original, data, frontmatterScalar) ?? canonicalFrontmatter(fm.data);
}

function sameMembers(a: readonly unknown[], b: readonly unknown[]): boolean {
  const set = new Set(b);
  return a.length === set.size && a.every((v) => set.has(v));
}

/** A value in a frontmatter the program edits: as formatPlainOwnedKeys writes it, else quoted by the YAML serialiser. */
function frontmatterScalar(value: unknown): string {
  return isPlainWord(value) || (Number.isSafeInteger(value) && !Object.is(value, -0)) ? String(value) : yamlValue(value);
}

/** The frontmatter block exactly as the program writes it for `data` (owned keys first). */
function canonicalFrontmatter(data: Record<string, unknown>): string {
  const ordered: Record<string, unknown> = {};
  for (const key of OWNED_KEYS) if (data[key] !== undefined) ordered[key] = data[key];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'provenance' || key in ordered) continue;
    ordered[key] = value;
  }
  const provenance = data.provenance;
  const yaml =
    formatPlainOwnedKeys(ordered) ??
    (Object.keys(ordered).length
      ? formatYaml(ordered, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'any' })
      : ''
    ).replace(/^tags:\n((?:\s+- .*\n)+)/m, (_m, items: string) => {
      const list = items
        .trim()
        .split('\n')
        .map((l) => l.replace(/^\s*-\s*/, '').trim());
      return `tags: [${list.join(', ')}]\n`;
    });
  // A `provenance:` map only in the data as read from a file written before the block (to recognise its own text).
  return `---\n${yaml}${provenance === undefined ? '' : formatFrontmatterProvenance(provenance)}---\n`;
}

/** A string the `yaml` serialiser writes as it is: a name, a date, a tag; never one that reads as a number, bool or null. */
const PLAIN_WORD = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;
const READS_AS_OTHER_TYPE =
  /^(?:[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-f]+|true|false|null|yes|no|on|off|y|n)$/i;
function isPlainWord(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_WORD.test(value) && !READS_AS_OTHER_TYPE.test(value);
}

/**
 * The owned keys exactly as the `yaml` serialiser (with the flow-style tags
 * above) writes them, without loading it (~55 ms of a job): only when every
 * key is owned and every value is a plain word or an integer, and the tags a
 * list of plain words — what the program writes. Undefined otherwise.
 * test/memory/day-file.test.ts checks it against the serialiser.
 */
function formatPlainOwnedKeys(ordered: Record<string, unknown>): string | undefined {
  let out = '';
  for (const [key, value] of Object.entries(ordered)) {
    if (!(OWNED_KEYS as readonly string[]).includes(key)) return undefined;
    if (key === 'tags' && Array.isArray(value)) {
      if (!value.every((tag) => isPlainWord(tag))) return undefined;
      out += `${key}: [${value.join(', ')}]\n`;
    } else if (isPlainWord(value) || (Number.isSafeInteger(value) && !Object.is(value, -0))) {
      out += `${key}: ${String(value)}\n`;
    } else {
      return undefined;
    }
  }
  return out;
}

/** A YAML plain scalar we may write unquoted (our ids and provenance strings always are). */
const PLAIN_SCALAR = /^[A-Za-z0-9_][A-Za-z0-9_.:%,/+ -]*$/;
/**
 * A subset of those decided by one test: starts with a letter (not a number),
 * words of plain characters without ':' or '#', single spaces between them.
 * Our ids and provenance strings are; the full test runs for anything else.
 */
const SIMPLE_SCALAR = /^[A-Za-z_][A-Za-z0-9_.%,/+-]*(?: [A-Za-z0-9_.%,/+-]+)*$/;
const RESERVED_WORD = /^(?:true|false|null|yes|no|on|off)$/i;
function yamlScalar(text: string): string {
  // (No reserved word is longer than 5 characters: ids and provenance strings skip that test.)
  if (SIMPLE_SCALAR.test(text) && (text.length > 5 || !RESERVED_WORD.test(text))) return text;
  return PLAIN_SCALAR.test(text) &&
    !/: |:$| #|\s$/.test(text) &&
    !/^(true|false|null|~|yes|no|on|off|[-+]?[0-9.]+(e[-+]?[0-9]+)?)$/i.test(text)
    ? text
    : JSON.stringify(text);
}

/**
 * A `provenance:` map as the program wrote it into the frontmatter before the block: only to tell
 * a frontmatter the program wrote from one a user edited (see formatFrontmatter).
 */
function formatFrontmatterProvenance(provenance: unknown): string {
  if (!provenance || typeof provenance !== 'object' || Array.isArray(provenance)) return formatYaml({ provenance }, { lineWidth: 0 });
  const map = provenance as Record<string, unknown>;
  const ids = Object.keys(map);
  if (ids.length === 0) return 'provenance: {}\n';
  let out = 'provenance:\n';
  for (const id of ids) {
    const value = map[id];
    out +=
      typeof value === 'string'
        ? `  ${yamlScalar(id)}: ${yamlScalar(value)}\n`
        : formatYaml({ [id]: value }, { lineWidth: 0 })
            .replace(/^/gm, '  ')
            .replace(/ +$/, '');
  }
  return out;
}
