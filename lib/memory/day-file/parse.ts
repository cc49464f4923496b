/**
 * Reading a day file (README "File formats"). The body's list items are found by list-items.ts; every
 * byte that is not an observation line (headings, notes a user added, blank lines) is kept as raw
 * text, so `formatDayFile(parseDayFile(text)) === text` for any file, hand-edited or not.
 */
import { parseObservationContent } from '../observation-line.js';
import { withoutSavedEncoding } from './encoding.js';
import { listItemRanges, readAsPlainText } from './list-items.js';
import type { DayFile, ParsedObservation, Segment } from './model.js';
import { parseFrontmatter } from './owned-frontmatter.js';
import { findProvenanceBlock, hasSeveralProvenanceBlocks, joinProvenanceBlocks } from './provenance.js';

/** Parse a day file. Never throws on content: broken frontmatter is kept and flagged. */
export function parseDayFile(saved: string): DayFile {
  const { text, encoding } = withoutSavedEncoding(saved);
  const { fm, body: saidBody, bodyLineOffset, provenance: inFrontmatter } = parseFrontmatter(text);
  const body = hasSeveralProvenanceBlocks(saidBody) ? joinProvenanceBlocks(saidBody) : saidBody;
  const segments: Segment[] = [];
  const found = findProvenanceBlock(body);
  let blockSegment: (Segment & { kind: 'raw' }) | undefined;
  if (!found) {
    pushBodySegments(segments, body, bodyLineOffset);
  } else {
    // The block is one raw segment; what a user wrote after it is read as usual.
    pushBodySegments(segments, body.slice(0, found.start), bodyLineOffset);
    blockSegment = { kind: 'raw', text: body.slice(found.start, found.end) };
    segments.push(blockSegment);
    if (found.end < body.length) {
      const before = body.slice(0, found.end);
      let lines = 0;
      for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) lines++;
      pushBodySegments(segments, body.slice(found.end), bodyLineOffset + lines);
    }
  }
  const file: DayFile = encoding ? { frontmatter: fm, segments, encoding } : { frontmatter: fm, segments };
  const conflict = conflictMarkerLine(text);
  if (conflict !== undefined) file.conflict = conflict;
  if (readAsPlainText(found ? body.slice(0, found.start) : body) || (found !== undefined && readAsPlainText(body.slice(found.end))))
    file.readAsPlainText = true;
  if (found || inFrontmatter) {
    let map = found?.map ?? (Object.create(null) as Record<string, unknown>);
    if (inFrontmatter) {
      // Both (a file written before the block, then merged or edited): the block's lines win.
      map = Object.assign(Object.create(null) as Record<string, unknown>, inFrontmatter, found?.map);
    }
    file.provenance = { map, segment: blockSegment ?? { kind: 'raw', text: '' }, dirty: false, inFrontmatter: inFrontmatter !== undefined };
  }
  return file;
}

/** The segments of a Markdown body whose first line is line `lineOffset + 1` of the file. */
function pushBodySegments(segments: Segment[], body: string, lineOffset: number): void {
  let cursor = 0;
  const items = observationItems(body);
  for (let k = 0; k < items.length; k++) {
    const { range, lead, parsed } = items[k]!;
    // An observation nested inside this one ends this one's segment at its line; the rest of this item after it is raw text.
    const next = items[k + 1];
    const end = next && next.range.start < range.end ? next.range.start - 1 : range.end;
    const raw = body.slice(range.start, end);
    if (range.start > cursor) segments.push({ kind: 'raw', text: body.slice(cursor, range.start) });
    const firstNewline = raw.indexOf('\n');
    const extra = firstNewline === -1 ? '' : raw.slice(firstNewline);
    // An id a user moved onto a line of its own under the item (Obsidian's style for a block id), or that
    // ends the item's last line after the user wrapped a long text, is still its id.
    const ownLineId = parsed.id === undefined && extra !== '' ? (OWN_LINE_ID.exec(extra) ?? WRAPPED_ID.exec(extra))?.[1] : undefined;
    const line: ParsedObservation = {
      // Spelled out, not `...parsed`: a spread plus three keys is several times slower per line.
      priority: parsed.priority,
      done: parsed.done || CHECKED.test(lead),
      time: parsed.time,
      offset: parsed.offset,
      category: parsed.category,
      text: parsed.text,
      tags: parsed.tags,
      id: ownLineId ?? parsed.id,
      extra,
      idInExtra: ownLineId !== undefined,
      startLine: range.line + lineOffset,
      endLine: (next && next.range.start < range.end ? next.range.line - 1 : range.endLine) + lineOffset,
    };
    if (parsed.mark) line.mark = parsed.mark;
    if (lead !== '- ') line.lead = lead;
    segments.push({ kind: 'obs', raw, dirty: false, line });
    cursor = end;
  }
  if (cursor < body.length) segments.push({ kind: 'raw', text: body.slice(cursor) });
}

/**
 * The list items that are observations: whatever their bullet (`-`, `*`, `+`, `1.`), an Obsidian
 * checkbox after it (`- [ ]`, `- [x]`), nested under another item or inside a block quote. `lead` is
 * the first line up to the observation's markers.
 */
function observationItems(body: string): Array<{
  range: ReturnType<typeof listItemRanges>[number];
  lead: string;
  parsed: NonNullable<ReturnType<typeof parseObservationContent>>;
}> {
  const out: Array<{
    range: ReturnType<typeof listItemRanges>[number];
    lead: string;
    parsed: NonNullable<ReturnType<typeof parseObservationContent>>;
  }> = [];
  for (const range of listItemRanges(body)) {
    const lineEnd = body.indexOf('\n', range.start);
    const firstLine = body.slice(range.start, lineEnd === -1 || lineEnd > range.end ? range.end : lineEnd);
    const lead = LEAD.exec(firstLine);
    const parsed = lead ? parseObservationContent(firstLine.slice(lead[0].length)) : undefined;
    if (parsed) out.push({ range, lead: lead![0], parsed });
  }
  return out;
}

/** What comes before an observation's markers on its line: indentation and `>` of a quote, the bullet, a checkbox. */
const LEAD = /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;
/** A lead whose checkbox is ticked: the observation is done. */
const CHECKED = /\[[xX]\][ \t]+$/;

/**
 * The line (1-based) of the first Git conflict marker (`<<<<<<< ours` … `=======` … `>>>>>>> theirs`) of
 * a merge left unresolved, when the text holds one: an opening marker followed by a separator or a
 * closing one. Undefined when there is none (a lone `=======` is a heading's underline).
 */
export function conflictMarkerLine(text: string): number | undefined {
  const open = CONFLICT_OPEN.exec(text);
  if (!open) return undefined;
  CONFLICT_REST.lastIndex = open.index + open[0].length;
  if (!CONFLICT_REST.test(text)) return undefined;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < open.index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
const CONFLICT_OPEN = /^<{7}(?:[ \t].*)?\r?$/m;
const CONFLICT_REST = /^(?:={7}|>{7}(?:[ \t].*)?)\r?$/gm;

/** A continuation line that is only a block id. */
const OWN_LINE_ID = /\n[ \t]*\^(o-[0-9a-f]{6,})[ \t]*(?:\n|$)/;
/** The block id at the end of the item's last continuation line ("  …wrapped text ^o-7f3a9c21e0"). */
const WRAPPED_ID = /\n[ \t]+\S[^\n]*?[ \t]\^(o-[0-9a-f]{6,})[ \t]*\n?$/;
