/**
 * openclaw.json as a concrete syntax tree (@croct/json5-parser): reading a
 * key path, creating one in a single nested literal, and the text spans a
 * removal widens over its comma and line, so every byte of the user's file
 * that OC-Memory did not write — comments, quotes, layout — stays as it was.
 */
import { JsonArrayNode, JsonObjectNode, JsonParser } from '@croct/json5-parser';
import { ConfigError } from '../../core/errors.js';
/** A value the CST accepts (plain JSON). */
export type JsonValue = Parameters<JsonObjectNode['set']>[1];

export function parseConfigText(text: string, file: string): JsonObjectNode {
  try {
    return JsonParser.parse(text, JsonObjectNode);
  } catch (error) {
    throw new ConfigError(`${file} is not a JSON5 object OC-Memory can edit: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'Fix openclaw.json (OpenClaw’s own `openclaw doctor` helps), or add the settings by hand: `ocm-run integrate openclaw --print` shows them.',
      cause: error,
    });
  }
}

export function describePath(path: string[]): string {
  return path.join('.');
}

/**
 * The object at `path`, creating missing levels. Returns the node and the
 * first key path it had to create (if any).
 */
export function objectAt(root: JsonObjectNode, path: string[], file: string): { node: JsonObjectNode; created?: string[] | undefined } {
  let node = root;
  let created: string[] | undefined;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    if (!node.has(key)) {
      node.set(key, {});
      created ??= path.slice(0, i + 1);
    }
    const next = node.get(key);
    if (!(next instanceof JsonObjectNode)) {
      throw new ConfigError(
        `${file}: ${describePath(path.slice(0, i + 1))} is not an object, so OC-Memory cannot add its settings under it.`,
        {
          hint: 'Fix that key in openclaw.json, or add the settings by hand (`ocm-run integrate openclaw --print`).',
        },
      );
    }
    node = next;
  }
  return { node, created };
}

/** Set `path` to `value`, creating missing parents in one nested literal (keeps the file's layout tidy). */
export function setDeep(root: JsonObjectNode, path: string[], value: JsonValue, file: string): string[] | undefined {
  let node = root;
  let i = 0;
  for (; i < path.length - 1; i++) {
    const key = path[i]!;
    if (!node.has(key)) break;
    const next = node.get(key);
    if (!(next instanceof JsonObjectNode)) {
      throw new ConfigError(
        `${file}: ${describePath(path.slice(0, i + 1))} is not an object, so OC-Memory cannot add its settings under it.`,
        {
          hint: 'Fix that key in openclaw.json, or add the settings by hand (`ocm-run integrate openclaw --print`).',
        },
      );
    }
    node = next;
  }
  let nested: JsonValue = value;
  for (let j = path.length - 1; j > i; j--) nested = { [path[j]!]: nested } as JsonValue;
  const existed = node.has(path[i]!);
  node.set(path[i]!, nested);
  return existed ? undefined : path.slice(0, i + 1);
}

/** The node at `path`; a numeric key indexes a list (`agents.list.1`). */
export function getAt(root: JsonObjectNode, path: string[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node instanceof JsonArrayNode && /^\d+$/.test(key)) {
      node = node.elements[Number(key)];
      if (node === undefined) return undefined;
      continue;
    }
    if (!(node instanceof JsonObjectNode) || !node.has(key)) return undefined;
    node = node.get(key);
  }
  return node;
}

export function isEmptyShell(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value && typeof value === 'object') return Object.values(value).every(isEmptyShell);
  return false;
}

export function propertyNode(root: JsonObjectNode, path: string[]) {
  const parent = getAt(root, path.slice(0, -1));
  if (!(parent instanceof JsonObjectNode)) return undefined;
  return parent.properties.find((p) => p.key.toJSON() === path[path.length - 1]);
}

/**
 * Widen a deleted span over its comma and, when nothing else is left on its
 * line, over the whole line — so the file reads as if the item was never there.
 */
export function widen(text: string, start: number, end: number): [number, number] {
  let j = end;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  if (text[j] === ',') j++;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', j);
  if (lineEnd < 0) lineEnd = text.length;
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && /^[ \t]*\r?$/.test(text.slice(j, lineEnd)))
    return [lineStart, Math.min(text.length, lineEnd + 1)];
  if (text[j - 1] === ',') while (j < text.length && text[j] === ' ') j++;
  return [start, j];
}

/** Merge overlapping spans; a run that ends a list or object without its own comma takes the comma before it ([a, b] → [a]). */
export function finishSpans(text: string, spans: Array<[number, number]>): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const out: Array<[number, number]> = [];
  for (const [a, b] of merged) {
    const endsList = !text.slice(a, b).trimEnd().endsWith(',') && /^\s*[\]}]/.test(text.slice(b));
    const before = endsList ? /,(\s*)$/.exec(text.slice(0, a)) : null;
    if (!before) out.push([a, b]);
    // Same line: the comma and the spaces after it go; across lines only the comma (the layout stays).
    else if (before[1]!.includes('\n')) out.push([before.index, before.index + 1], [a, b]);
    else out.push([before.index, b]);
  }
  return out;
}
