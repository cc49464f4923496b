/**
 * Changing a day file in memory: a new file, removed or edited observations, owned frontmatter keys
 * (recounted after each change), and the check that a file may be rewritten at all. Appending is
 * append.ts.
 */
import { OcmError } from '../../core/errors.js';
import type { Observation, Tier } from '../../core/types.js';
import type { DayFile, ParsedObservation, Segment } from './model.js';
import { formatProvenanceBlock, mentionedIds, provenanceBlock, provenanceMap } from './provenance.js';
import { parseFrontmatter } from './owned-frontmatter.js';
import { conflictMarkerLine } from './parse.js';
import { withoutSavedEncoding } from './encoding.js';

/** A new, empty day file. */
export function createDayFile(options: {
  date: string;
  agent: string;
  tier: Tier;
  /** Body template (templates/daily.md); `{{date}}`, `{{agent}}` are filled in. */
  template?: string;
  /** The zone its times are in (the `time_zone` key), when known. */
  zone?: string;
}): DayFile {
  const template = options.template ?? '# {{date}}\n';
  const body = template.replace(/\{\{(date|agent)\}\}/g, (_m, key: 'date' | 'agent') => options[key]);
  return {
    frontmatter: {
      data: {
        date: options.date,
        tier: options.tier,
        agent: options.agent,
        ...(options.zone ? { time_zone: options.zone } : {}),
        observations: 0,
        tags: [],
      },
      raw: '',
      dirty: true,
    },
    segments: [{ kind: 'raw', text: body.endsWith('\n') ? body : `${body}\n` }],
  };
}

/** Recount the owned keys and drop provenance of lines no longer there. `lineIds`: the file's ids, when the caller has them. */
export function refreshOwnedFrontmatter(file: DayFile, lineIds?: Set<string>): void {
  let count = 0;
  const tags = new Set<string>();
  const ids = lineIds ?? new Set<string>();
  for (const s of file.segments) {
    if (s.kind !== 'obs') continue;
    count++;
    for (const t of s.line.tags) tags.add(t);
    if (!lineIds && s.line.id) ids.add(s.line.id);
  }
  const prov = provenanceMap(file);
  const keys = Object.keys(prov);
  // Provenance of ids no longer in the file goes. Usually every entry stays:
  // then the map is kept as it is (adding thousands of keys to a new object one by one is slow).
  // (An empty id is never a line's id.)
  const isLine = (id: string) => id !== '' && ids.has(id);
  if (!keys.every(isLine)) {
    // An id a user moved off its line (onto a line of its own, into a note) still exists: its provenance stays.
    const mentioned = mentionedIds(file);
    const kept = Object.create(null) as Record<string, unknown>;
    for (const id of keys) if (isLine(id) || mentioned.has(id)) kept[id] = prov[id];
    const block = provenanceBlock(file);
    block.map = kept;
    block.dirty = true;
    // The block's text follows at once (callers read the raw segments, e.g. to tell an emptied day).
    if (file.segments.includes(block.segment)) block.segment.text = formatProvenanceBlock(kept);
  }
  file.frontmatter.data.observations = count;
  file.frontmatter.data.tags = [...tags].sort();
  file.frontmatter.dirty = true;
}

/** Throws (BAD_INPUT, with a hint) when the program must not rewrite this file: a Git conflict left in it, or its frontmatter is broken. */
export function assertWritable(file: DayFile, path: string): void {
  if (file.conflict !== undefined) throw conflictError(path, file.conflict);
  if (file.frontmatter.error) throw brokenFrontmatterError(path, file.frontmatter.error);
}

/** assertWritable for a file's text, not parsed yet (a merge's result): only its frontmatter is read. */
export function assertTextWritable(saved: string, path: string): void {
  const { text } = withoutSavedEncoding(saved);
  const conflict = conflictMarkerLine(text);
  if (conflict !== undefined) throw conflictError(path, conflict);
  const error = parseFrontmatter(text).fm.error;
  if (error) throw brokenFrontmatterError(path, error);
}

function brokenFrontmatterError(path: string, error: string): OcmError {
  return new OcmError('BAD_INPUT', `${path} has a broken frontmatter block (${error}); it is not rewritten.`, {
    hint: 'Fix the YAML between the --- lines (or delete the block); the pending observations are written on the next run, nothing is lost.',
    details: { path },
  });
}

/** The error of a day file that holds an unresolved Git conflict (from line `line`): it is left as it is until resolved. */
export function conflictError(path: string, line: number): OcmError {
  return new OcmError(
    'BAD_INPUT',
    `${path} has unresolved Git conflict markers (<<<<<<< at line ${line}); it is left as it is until the conflict is resolved.`,
    {
      hint: 'Resolve the conflict in an editor: keep the lines you want and delete the <<<<<<<, ======= and >>>>>>> lines. New observations for that day are written on the next run after that; nothing is lost.',
      details: { path, conflict: line },
    },
  );
}

/** Remove observations by id (with their continuation lines). Returns the removed ids. */
export function removeObservations(file: DayFile, ids: Iterable<string>, path = 'day file'): string[] {
  const wanted = new Set(ids);
  const removed: string[] = [];
  const next: Segment[] = [];
  for (const seg of file.segments) {
    if (seg.kind === 'obs' && seg.line.id && wanted.has(seg.line.id)) {
      removed.push(seg.line.id);
      // Drop the newline that separated it from the previous segment.
      const prev = next[next.length - 1];
      if (prev && prev.kind === 'raw' && prev.text.endsWith('\n')) prev.text = prev.text.slice(0, -1);
      continue;
    }
    next.push(seg);
  }
  if (removed.length === 0) return removed;
  assertWritable(file, path);
  // Re-join a leading newline if we stripped one before a following obs line.
  for (let i = 1; i < next.length; i++) {
    const prev = next[i - 1]!;
    const cur = next[i]!;
    if (cur.kind === 'obs' && prev.kind === 'raw' && !prev.text.endsWith('\n') && prev.text !== '') prev.text += '\n';
    if (cur.kind === 'obs' && prev.kind === 'obs') next.splice(i, 0, { kind: 'raw', text: '\n' });
  }
  file.segments = next.filter((s) => !(s.kind === 'raw' && s.text === ''));
  refreshOwnedFrontmatter(file);
  return removed;
}

/** The fields of an observation that an update may replace. */
export type ObservationPatch = Partial<Pick<Observation, 'priority' | 'done' | 'category' | 'text' | 'tags' | 'time' | 'mark'>>;

/** Replace fields of one observation (marks it for re-formatting). */
export function updateObservation(file: DayFile, id: string, patch: ObservationPatch): boolean {
  return updateObservations(file, [{ id }], () => patch).length > 0;
}

/**
 * Replace fields of several observations, in order, each as updateObservation does, with one recount of the
 * owned keys after them all (a recount reads every line: one per update made marking a day of thousands
 * quadratic). `patchOf` gives an update's fields from its line as it is by then. Returns the updates whose
 * line was found.
 */
export function updateObservations<U extends { id: string }>(
  file: DayFile,
  updates: readonly U[],
  patchOf: (update: U, line: ParsedObservation) => ObservationPatch,
): U[] {
  const lines = new Map<string, Extract<Segment, { kind: 'obs' }>>();
  for (const seg of file.segments)
    if (seg.kind === 'obs' && seg.line.id !== undefined && !lines.has(seg.line.id)) lines.set(seg.line.id, seg);
  const made: U[] = [];
  for (const update of updates) {
    const seg = lines.get(update.id);
    if (!seg) continue;
    Object.assign(seg.line, patchOf(update, seg.line));
    seg.dirty = true;
    made.push(update);
  }
  if (made.length > 0) refreshOwnedFrontmatter(file);
  return made;
}

/** Set a frontmatter key the program owns (e.g. tier when a file moves). */
export function setFrontmatter(file: DayFile, key: string, value: unknown): void {
  file.frontmatter.data[key] = value;
  file.frontmatter.dirty = true;
}
