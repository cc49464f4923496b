/**
 * Appending observations to a day file: new lines go in time order after the file's last observation
 * (before trailing notes and the provenance block), with their provenance, and the owned frontmatter
 * keys follow. DayFileAppender is the append engine a long job uses (lib/memory/day-file-buffer.ts):
 * after its first append it updates the counts from the new lines alone; `npm run bench -- observe`
 * measures the job around it.
 */
import type { Observation } from '../../core/types.js';
import { formatObservationLine } from '../observation-line.js';
import { assertWritable, refreshOwnedFrontmatter } from './edit.js';
import { formatSegments } from './format.js';
import type { DayFile, ParsedObservation, Segment } from './model.js';
import { dayFileZone, observationIds } from './observations.js';
import { utcOffsetAt } from '../../platform/time-zone.js';
import { addProvenance, provenanceBlock, provenanceMap } from './provenance.js';

/**
 * Append observations whose id is not in the file yet. Returns how many were
 * added. New lines go after the last observation (before any trailing notes).
 */
export function appendObservations(file: DayFile, observations: Observation[], path = 'day file'): number {
  return new DayFileAppender(file).append(observations, path);
}

/**
 * One day file that is appended to many times (a long observe job appends each chunk's observations as they
 * arrive). appendObservations recounts the whole file (ids, tags, provenance) on every append; here only the
 * first append does, and later ones update the count, tags and provenance from their new lines alone, which
 * gives the same file as long as nothing else changes it meanwhile.
 */
export class DayFileAppender {
  /** Ids of the file's lines. */
  readonly ids: Set<string>;
  /** The file's tags and number of lines once the first append has recounted them (then its owned keys are current). */
  private tags: Set<string> | undefined;
  private count = 0;

  constructor(readonly file: DayFile) {
    this.ids = observationIds(file);
  }

  /** appendObservations: throws, changing nothing, when the file would change but has a broken frontmatter. */
  append(observations: Observation[], path = 'day file'): number {
    // Each loop below is a function of its own: a job appends a few times to each of its day files,
    // thousands of lines at a time, so the loops are what gets optimised, one small function each.
    if (allKnown(this.ids, observations)) return 0;
    assertWritable(this.file, path);
    const fresh = observations.filter((o) => {
      if (this.ids.has(o.id)) return false;
      this.ids.add(o.id);
      return true;
    });
    insertInTimeOrder(this.file.segments, fresh, this.file.provenance?.segment, dayFileZone(this.file));
    // Added to the file's own map (not a copy of it: copying thousands of keys per append is slow).
    const block = provenanceBlock(this.file);
    if (addProvenance(block.map, fresh) > 0) block.dirty = true;
    this.updateOwnedFrontmatter(fresh.length, tagsOf(fresh));
    return fresh.length;
  }

  /**
   * The last `count` lines of `other` (an earlier state of this file, whose newest lines are not on disk)
   * that this file does not have, appended as they are there, with their provenance: for a file that
   * was edited on disk meanwhile. Returns how many.
   */
  appendLastLinesOf(other: DayFile, count: number, path = 'day file'): number {
    const lines = lastObservationSegments(other.segments, count).filter((s) => !this.ids.has(s.line.id!));
    if (lines.length === 0) return 0;
    assertWritable(this.file, path);
    const added: Segment[] = [];
    const from = provenanceMap(other);
    const block = provenanceBlock(this.file);
    const prov = block.map;
    let withProvenance = 0;
    for (const seg of lines) {
      const id = seg.line.id!;
      this.ids.add(id);
      added.push({ kind: 'raw', text: '\n' }, seg);
      if (from[id] !== undefined) {
        prov[id] = from[id];
        withProvenance++;
      }
    }
    insertSegments(this.file.segments, added, this.file.provenance?.segment);
    if (withProvenance > 0) block.dirty = true;
    const tags = new Set<string>();
    for (const seg of lines) for (const t of seg.line.tags) tags.add(t);
    this.updateOwnedFrontmatter(lines.length, tags);
    return lines.length;
  }

  /** The owned keys after `added` new lines with these tags. */
  private updateOwnedFrontmatter(added: number, newTags: Set<string>): void {
    const fm = this.file.frontmatter;
    if (this.tags === undefined) {
      // `ids` now holds exactly the ids of the file's lines.
      refreshOwnedFrontmatter(this.file, this.ids);
      this.tags = new Set(fm.data.tags as string[]);
      this.count = fm.data.observations as number;
      return;
    }
    // Since the recount every provenance key is a line's, and new lines only add keys: none goes.
    this.count += added;
    fm.data.observations = this.count;
    const before = this.tags.size;
    for (const t of newTags) this.tags.add(t);
    if (this.tags.size !== before) fm.data.tags = [...this.tags].sort();
    fm.dirty = true;
  }
}

function allKnown(ids: Set<string>, observations: Observation[]): boolean {
  return observations.every((o) => ids.has(o.id));
}

function tagsOf(observations: Observation[]): Set<string> {
  const tags = new Set<string>();
  for (const o of observations) for (const t of o.tags) tags.add(t);
  return tags;
}

/** The last `count` observation segments with an id, in file order. */
function lastObservationSegments(segments: readonly Segment[], count: number): Array<Segment & { kind: 'obs' }> {
  const out: Array<Segment & { kind: 'obs' }> = [];
  for (let i = segments.length - 1; i >= 0 && out.length < count; i--) {
    const seg = segments[i]!;
    if (seg.kind === 'obs' && seg.line.id) out.push(seg);
  }
  return out.reverse();
}

/** The ParsedObservation of an observation being appended (no continuation lines, no place yet). */
function appendedLine(o: Observation): ParsedObservation {
  return {
    priority: o.priority,
    done: o.done,
    time: o.time,
    category: o.category,
    text: o.text,
    tags: o.tags,
    id: o.id,
    ...(o.mark ? { mark: o.mark } : {}),
    extra: '',
    idInExtra: false,
    startLine: 0,
    endLine: 0,
  };
}

/**
 * An observation's line in a file whose times are in `fileZone`: a line in another zone says its UTC
 * offset after the time, so that it orders by absolute time after a time-zone change.
 */
function observationSegment(o: Observation, fileZone: string | undefined): Segment & { kind: 'obs' } {
  const offset = o.zone && fileZone && o.zone !== fileZone && o.time ? utcOffsetAt(o.date, o.time, o.zone) : undefined;
  const line = appendedLine(o);
  if (offset && offset !== utcOffsetAt(o.date, o.time, fileZone!))
    return { kind: 'obs', line: { ...line, offset }, raw: formatObservationLine(o, offset), dirty: false };
  return { kind: 'obs', line, raw: formatObservationLine(o), dirty: false };
}

/** A blank-line separator and the formatted line, for each observation. */
function observationSegments(observations: Observation[], fileZone: string | undefined): Segment[] {
  return observations.flatMap((o): Segment[] => [{ kind: 'raw', text: '\n' }, observationSegment(o, fileZone)]);
}

/** Are the file's timed observation lines in time order? */
function inTimeOrder(segments: readonly Segment[]): boolean {
  let previous = '';
  for (const seg of segments) {
    if (seg.kind !== 'obs' || !seg.line.time) continue;
    if (seg.line.time < previous) return false;
    previous = seg.line.time;
  }
  return true;
}

/** Earlier first; a line without a time after every line with one (stable otherwise). */
function byTime(a: { time: string }, b: { time: string }): number {
  if (!a.time || !b.time) return (a.time ? 0 : 1) - (b.time ? 0 : 1);
  return a.time < b.time ? -1 : a.time > b.time ? 1 : 0;
}

/**
 * Insert new observations so that the day reads in time order: each after the last line whose time
 * is not later than its own (before the first line when every line is later). Sources and sessions
 * are observed one after another, so a later batch may hold earlier messages (05:01 must not come
 * before 00:40). The usual case — everything new is later — is one append after the last line.
 */
function insertInTimeOrder(
  segments: Segment[],
  fresh: Observation[],
  provenanceSegment: Segment | undefined,
  fileZone: string | undefined,
): void {
  const sorted = [...fresh].sort(byTime);
  let last = segments.length - 1;
  while (last >= 0 && segments[last]!.kind !== 'obs') last--;
  const lastTime = last >= 0 ? (segments[last] as Segment & { kind: 'obs' }).line.time : '';
  // A file whose lines a user put in another order keeps it: new lines go after the last one.
  if (last < 0 || !lastTime || !sorted.some((o) => o.time && o.time < lastTime) || !inTimeOrder(segments)) {
    insertSegments(segments, observationSegments(sorted, fileZone), provenanceSegment);
    return;
  }
  // Lines earlier than the file's last one go in place; the rest (sorted, not earlier) after them.
  const early = sorted.filter((o) => o.time && o.time < lastTime);
  const late = sorted.filter((o) => !(o.time && o.time < lastTime));
  for (const o of early) {
    const seg: Segment = observationSegment(o, fileZone);
    let j = segments.length - 1;
    while (
      j >= 0 &&
      !(
        segments[j]!.kind === 'obs' &&
        (segments[j] as Segment & { kind: 'obs' }).line.time !== '' &&
        (segments[j] as Segment & { kind: 'obs' }).line.time <= o.time
      )
    )
      j--;
    if (j >= 0) {
      segments.splice(j + 1, 0, { kind: 'raw', text: '\n' }, seg);
    } else {
      let first = 0;
      while (segments[first]!.kind !== 'obs') first++;
      segments.splice(first, 0, seg, { kind: 'raw', text: '\n' });
    }
  }
  if (late.length > 0) insertSegments(segments, observationSegments(late, fileZone), provenanceSegment);
}

/**
 * Insert new observation segments (each after its separator) after the last observation, before
 * any trailing notes and the provenance block; the first observations go after the existing text, after a blank line.
 * The file then ends with a newline.
 */
function insertSegments(segments: Segment[], added: Segment[], provenanceSegment?: Segment): void {
  let lastObs = segments.length - 1;
  while (lastObs >= 0 && segments[lastObs]!.kind !== 'obs') lastObs--;
  const block = lastObs < 0 && provenanceSegment ? segments.indexOf(provenanceSegment) : -1;
  if (block !== -1) {
    // No observation yet, but a provenance block (of ids a user moved off their lines): the new lines go before it.
    const after = segments.splice(block);
    const body = formatSegments(segments);
    added[0] = { kind: 'raw', text: body === '' || body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n' };
    for (const seg of added) segments.push(seg);
    segments.push({ kind: 'raw', text: '\n\n' });
    for (const seg of after) segments.push(seg);
  } else if (lastObs >= 0) {
    // In place, without spreading the new segments as arguments (a long list would overflow the stack).
    const after = segments.splice(lastObs + 1);
    for (const seg of added) segments.push(seg);
    for (const seg of after) segments.push(seg);
  } else {
    const body = formatSegments(segments);
    const sep = body === '' ? '' : body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n';
    added[0] = { kind: 'raw', text: sep };
    for (const seg of added) segments.push(seg);
  }
  if (segments[segments.length - 1]!.kind === 'obs') segments.push({ kind: 'raw', text: '\n' });
}
