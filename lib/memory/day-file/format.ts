/**
 * Writing a day file: only what the program changed is re-formatted (appended or edited observation
 * lines, the frontmatter keys it owns, the provenance block); every other byte is written as read.
 */
import { formatObservationLine } from '../observation-line.js';
import { withSavedEncoding } from './encoding.js';
import type { DayFile, Segment } from './model.js';
import { formatFrontmatter } from './owned-frontmatter.js';
import { formatProvenanceBlock, provenanceBlock } from './provenance.js';

function formatSegment(seg: Segment): string {
  if (seg.kind === 'raw') return seg.text;
  if (!seg.dirty) return seg.raw;
  const { line } = seg;
  // An id on a line of its own stays there (in `extra`).
  const formatted = formatObservationLine({ ...line, id: line.idInExtra ? '' : (line.id ?? '') }, line.offset);
  if (line.lead === undefined) return formatted + line.extra;
  // Its own lead stays (a checkbox says whether it is done); the markers after it follow the line.
  const lead = line.lead.replace(/\[[ xX]\]([ \t]+)$/, (_m, space: string) => `[${line.done ? 'x' : ' '}]${space}`);
  return lead + formatted.slice(2) + line.extra;
}

/** The segments' text. */
export function formatSegments(segments: readonly Segment[]): string {
  return segments.map(formatSegment).join('');
}

/** Serialise a day file. For an unchanged parse, returns the input byte for byte. */
export function formatDayFile(file: DayFile): string {
  settleProvenance(file);
  return withSavedEncoding(formatFrontmatter(file.frontmatter) + formatSegments(file.segments), file.encoding);
}

/**
 * Before a write: a `provenance:` map found in the frontmatter's data goes to the block (union-repair
 * reads a merged older frontmatter into the data), a file still holding such a map in its frontmatter
 * loses it there as soon as either part changes, and a changed block gets its new text.
 */
function settleProvenance(file: DayFile): void {
  const fm = file.frontmatter;
  const stray = fm.data.provenance;
  if (stray !== undefined) {
    delete fm.data.provenance;
    fm.dirty = true;
    if (stray && typeof stray === 'object' && !Array.isArray(stray)) {
      const block = provenanceBlock(file);
      for (const [id, value] of Object.entries(stray)) if (!(id in block.map)) block.map[id] = value;
      block.dirty = true;
    }
  }
  const block = file.provenance;
  if (!block) return;
  if (block.inFrontmatter && (fm.dirty || block.dirty)) {
    fm.dirty = true;
    block.dirty = true;
  }
  if (!block.dirty) return;
  const text = formatProvenanceBlock(block.map);
  const seg = block.segment;
  if (!file.segments.includes(seg)) {
    if (text === '') return;
    // A new block: last in the file, after a blank line.
    const body = formatSegments(file.segments);
    const sep = body === '' || body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n';
    if (sep !== '') file.segments.push({ kind: 'raw', text: sep });
    file.segments.push(seg);
  }
  seg.text = text;
}
