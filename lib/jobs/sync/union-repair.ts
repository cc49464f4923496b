/**
 * After Git merged a day file by union (both devices appended), the body holds
 * every observation but the frontmatter may hold both sides' versions of the
 * keys the program owns (`observations: 3` and `observations: 4`, two `tags:`
 * lines, two `provenance:` maps of files written before the provenance block),
 * and the end of the file both sides' provenance blocks. This reads such a frontmatter leniently —
 * duplicate maps merged, duplicate scalars last-wins — and recounts it from the
 * body; an observation that arrived twice is kept once. Pure; no I/O.
 */
import type { Pair } from 'yaml';
import { yamlDocuments } from '../../core/yaml.js';
import { splitFrontmatter } from '../../memory/frontmatter.js';
import {
  appendObservations,
  formatDayFile,
  listObservations,
  parseDayFile,
  removeObservations,
  setFrontmatter,
  type DayFile,
} from '../../memory/day-file/index.js';

function plain(value: unknown): unknown {
  return value && typeof value === 'object' && 'toJSON' in value ? (value as { toJSON(): unknown }).toJSON() : value;
}

/** YAML with repeated keys: repeated maps are merged, other repeated values: the last wins. */
export function lenientFrontmatter(yamlText: string): Record<string, unknown> | undefined {
  const { parseDocument, isMap, isScalar } = yamlDocuments();
  const doc = parseDocument(yamlText, { uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const out: Record<string, unknown> = {};
  for (const pair of doc.contents.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const value = plain(pair.value);
    const prev = out[key];
    if (prev && value && typeof prev === 'object' && typeof value === 'object' && !Array.isArray(prev) && !Array.isArray(value)) {
      out[key] = { ...(prev as Record<string, unknown>), ...(value as Record<string, unknown>) };
    } else if (Array.isArray(prev) && Array.isArray(value)) {
      out[key] = [...new Set([...prev, ...value])];
    } else out[key] = value;
  }
  return out;
}

function duplicateIds(file: DayFile): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const seg of file.segments) {
    if (seg.kind !== 'obs' || !seg.line.id) continue;
    if (seen.has(seg.line.id)) dup.add(seg.line.id);
    seen.add(seg.line.id);
  }
  return [...dup];
}

/** The repaired text of a union-merged day file, or undefined when it needs nothing. */
export function repairUnionMerged(text: string): string | undefined {
  const file = parseDayFile(text);
  // Two sides' provenance blocks are joined into one by the parser: written back even when nothing else changes.
  let changed = formatDayFile(file) !== text;
  if (file.frontmatter.error) {
    const block = splitFrontmatter(file.frontmatter.raw);
    const data = block ? lenientFrontmatter(block.yaml) : undefined;
    if (!data) return undefined; // broken in another way: leave it for the user
    file.frontmatter = { data, raw: file.frontmatter.raw, dirty: true };
    changed = true;
  }
  const dups = duplicateIds(file);
  if (dups.length > 0) {
    const first = new Map<string, ReturnType<typeof listObservations>[number]>();
    for (const o of listObservations(file)) if (dups.includes(o.id) && !first.has(o.id)) first.set(o.id, o);
    removeObservations(file, dups);
    appendObservations(
      file,
      [...first.values()].map(({ startLine: _s, endLine: _e, ...o }) => o),
    );
    changed = true;
  }
  if (!changed) {
    // Counts may be stale even when the YAML parses (one side's line won).
    const count = file.segments.filter((s) => s.kind === 'obs').length;
    if (file.frontmatter.data.observations === undefined || file.frontmatter.data.observations === count) return undefined;
  }
  const obs = file.segments.filter((s) => s.kind === 'obs');
  const tags = new Set<string>();
  for (const s of obs) if (s.kind === 'obs') for (const t of s.line.tags) tags.add(t);
  setFrontmatter(file, 'observations', obs.length);
  setFrontmatter(file, 'tags', [...tags].sort());
  return formatDayFile(file);
}
