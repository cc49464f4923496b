/**
 * `config set` in place: the new value replaces the bytes of the old one, and a
 * key that is not there yet is added under its parent with the file's own
 * indentation. Everything else — comments, blank lines, indentation, the
 * spacing before a comment, flow maps, quoting — stays byte for byte, as the day
 * files' frontmatter does (lib/memory/frontmatter.ts). The `yaml` package's
 * Document API only finds where each node sits. The result is checked: read
 * back, it must equal what the Document API's own `setIn` would give; where
 * it does not, or the edit is not a scalar one (a whole list or map, a flow
 * map to grow, an alias), the caller re-writes the file through the Document
 * API, which keeps the comments but not the layout.
 */
import { isDeepStrictEqual } from 'node:util';
import { yamlDocuments, yamlValue } from '../core/yaml.js';

export function setYamlInPlace(text: string, path: readonly string[], value: unknown): string | undefined {
  if (path.length === 0 || (value !== null && typeof value === 'object')) return undefined;
  const Y = yamlDocuments();
  const doc = Y.parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return undefined;
  let next: string | undefined;
  let node: unknown = doc.contents;
  let depth = 0;
  for (; depth < path.length; depth++) {
    if (node === null && depth === 0) break; // an empty file
    if (!Y.isMap(node)) return undefined;
    const pair = node.items.find((p) => Y.isScalar(p.key) && String(p.key.value) === path[depth]);
    if (!pair) break;
    if (depth === path.length - 1) {
      const old = pair.value;
      if (!Y.isScalar(old) || !old.range || Y.isAlias(old)) return undefined;
      next = text.slice(0, old.range[0]) + scalarLike(old, value) + text.slice(old.range[1]);
    }
    node = pair.value;
  }
  if (next === undefined) next = addKeys(text, node, depth, path, value);
  if (next === undefined) return undefined;
  const expected = Y.parseDocument(text);
  expected.setIn([...path], value);
  const got = Y.parseDocument(next);
  return got.errors.length === 0 && isDeepStrictEqual(got.toJS(), expected.toJS()) ? next : undefined;
}

/** A new value written the way the old one was: a quoted string stays quoted in the same quotes. */
function scalarLike(old: import('yaml').Scalar, value: unknown): string {
  if (typeof value === 'string' && old.type === 'QUOTE_DOUBLE') return JSON.stringify(value);
  if (typeof value === 'string' && old.type === 'QUOTE_SINGLE') return `'${value.replaceAll("'", "''")}'`;
  return yamlValue(value);
}

/** `path[depth…]` added under the map `parent` (the document's root when depth is 0), as block YAML in the file's indentation. */
function addKeys(text: string, parent: unknown, depth: number, path: readonly string[], value: unknown): string | undefined {
  const Y = yamlDocuments();
  let column = 0;
  let at = text.length;
  if (depth > 0) {
    if (!Y.isMap(parent) || parent.flow || parent.items.length === 0) return undefined;
    const firstKey = parent.items[0]!.key;
    if (!Y.isNode(firstKey) || !firstKey.range) return undefined;
    column = firstKey.range[0] - (text.lastIndexOf('\n', firstKey.range[0] - 1) + 1);
    const last = parent.items.at(-1)!;
    const end =
      Y.isNode(last.value) && last.value.range ? last.value.range[1] : Y.isNode(last.key) && last.key.range ? last.key.range[1] : undefined;
    if (end === undefined) return undefined;
    const nl = text.indexOf('\n', end > 0 && text[end - 1] === '\n' ? end - 1 : end);
    at = nl === -1 ? text.length : nl + 1;
  } else if (Y.isMap(parent) && parent.flow) return undefined;
  const unit = indentUnit(text);
  const lines = path
    .slice(depth)
    .map((key, i, keys) => `${' '.repeat(column + i * unit)}${yamlValue(key)}:${i === keys.length - 1 ? ` ${yamlValue(value)}` : ''}`);
  const before = text.slice(0, at);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  return `${before}${lead}${lines.join('\n')}\n${text.slice(at)}`;
}

/** The file's indentation step: the smallest indentation of a key line (2 when nothing is nested). */
function indentUnit(text: string): number {
  let unit = Infinity;
  for (const m of text.matchAll(/^( +)[^\s#-][^\n]*:/gm)) unit = Math.min(unit, m[1]!.length);
  return Number.isFinite(unit) ? unit : 2;
}
