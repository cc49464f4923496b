/**
 * Daily observation files: Markdown with YAML frontmatter (README "File formats"; docs/architecture.md).
 * The public API of this folder, one concept per module:
 *   model.ts              the day file in memory (frontmatter, segments, provenance block)
 *   parse.ts              text → DayFile; every byte that is not an observation line is kept as it is
 *   format.ts             DayFile → text; for an unchanged parse, the input byte for byte
 *   list-items.ts         where the observation lines are (fast path for the program's own bodies, else remark)
 *   owned-frontmatter.ts  the frontmatter read, and written back with only the program's keys changed
 *   provenance.ts         the provenance block at the end of the file (and the older frontmatter map)
 *   encoding.ts           a BOM and CRLF endings taken off and put back
 *   observations.ts       the observations of a parsed file, as the rest of the program reads them
 *   edit.ts               new file, remove, update, set a key, the writable check
 *   append.ts             appending in time order, and DayFileAppender, the append engine of a long job
 */
export type { DayFile, FileContext, Frontmatter, LocatedObservation, ParsedObservation, ProvenanceBlock, Segment } from './model.js';
export { conflictMarkerLine, parseDayFile } from './parse.js';
export { formatDayFile } from './format.js';
export { PLAIN_TEXT_CHARS, plainListItemRanges, readAsPlainText, remarkListItemRanges, simpleListItemRanges } from './list-items.js';
export { dateFromFileName, listObservations, observationIds } from './observations.js';
export {
  assertTextWritable,
  assertWritable,
  conflictError,
  createDayFile,
  refreshOwnedFrontmatter,
  removeObservations,
  setFrontmatter,
  updateObservation,
  updateObservations,
} from './edit.js';
export type { ObservationPatch } from './edit.js';
export { appendObservations, DayFileAppender } from './append.js';
export { decodeSavedBytes, encodeSavedBytes } from './encoding.js';
