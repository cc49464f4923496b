/**
 * Reading a day file (README "File formats"). The body's list items are found by list-items.ts; every
 * byte that is not an observation line (headings, notes a user added, blank lines) is kept as raw
 * text, so `formatDayFile(parseDayFile(text)) === text` for any file, hand-edited or not.
 */
import { parseObservationContent } from '../observation-line.js';
import { withoutSavedEncoding } from './encoding.js';
import { listItemRanges } from './list-items.js';
import type { DayFile, Segment } from './model.js';
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
  for (const range of listItemRanges(body)) {
    const raw = body.slice(range.start, range.end);
    const firstNewline = raw.indexOf('\n');
    const firstLine = firstNewline === -1 ? raw : raw.slice(0, firstNewline);
    const bullet = /^[-*+][ \t]+/.exec(firstLine);
    const parsed = bullet ? parseObservationContent(firstLine.slice(bullet[0].length)) : undefined;
    if (!parsed) continue;
    if (range.start > cursor) segments.push({ kind: 'raw', text: body.slice(cursor, range.start) });
    const extra = firstNewline === -1 ? '' : raw.slice(firstNewline);
    // An id a user moved onto a line of its own under the item (Obsidian's style for a block id), or that
    // ends the item's last line after the user wrapped a long text, is still its id.
    const ownLineId = parsed.id === undefined && extra !== '' ? (OWN_LINE_ID.exec(extra) ?? WRAPPED_ID.exec(extra))?.[1] : undefined;
    segments.push({
      kind: 'obs',
      raw,
      dirty: false,
      // Spelled out, not `...parsed`: a spread plus three keys is several times slower per line.
      line: {
        priority: parsed.priority,
        done: parsed.done,
        time: parsed.time,
        offset: parsed.offset,
        category: parsed.category,
        text: parsed.text,
        tags: parsed.tags,
        id: ownLineId ?? parsed.id,
        ...(parsed.mark ? { mark: parsed.mark } : {}),
        extra,
        idInExtra: ownLineId !== undefined,
        startLine: range.line + lineOffset,
        endLine: range.endLine + lineOffset,
      },
    });
    cursor = range.end;
  }
  if (cursor < body.length) segments.push({ kind: 'raw', text: body.slice(cursor) });
}

/** A continuation line that is only a block id. */
const OWN_LINE_ID = /\n[ \t]*\^(o-[0-9a-f]{6,})[ \t]*(?:\n|$)/;
/** The block id at the end of the item's last continuation line ("  …wrapped text ^o-7f3a9c21e0"). */
const WRAPPED_ID = /\n[ \t]+\S[^\n]*?[ \t]\^(o-[0-9a-f]{6,})[ \t]*\n?$/;
