/**
 * A day file in memory (README "File formats"): its frontmatter, its body as segments — raw text kept
 * byte for byte, and the observation lines — and its provenance block. parse.ts builds one,
 * format.ts writes it back, edit.ts and append.ts change it.
 */
import type { Observation, Tier } from '../../core/types.js';
import type { ParsedLine } from '../observation-line.js';

export interface Frontmatter {
  /** Parsed data (empty when there is none or it is broken). */
  data: Record<string, unknown>;
  /** The exact frontmatter block including the `---` lines and final newline; '' when absent. */
  raw: string;
  /** The YAML error when the block is broken. */
  error?: string;
  /** Program changed the data: regenerate on format. */
  dirty: boolean;
  /**
   * The data as read, before the program changed anything: a changed block is edited key by key
   * against it (comments and the user's layout stay). Absent for a new block.
   */
  original?: Record<string, unknown>;
  /** Whether `raw` is exactly what the program writes for `original` (then it is written anew, fast). Decided on first write. */
  canonical?: boolean;
}

export type Segment = { kind: 'raw'; text: string } | { kind: 'obs'; line: ParsedObservation; raw: string; dirty: boolean };

/** An observation line as read (its `id` is undefined for a hand-written line without a block id), and its place. */
export interface ParsedObservation extends ParsedLine {
  /** Continuation lines (nested notes) under the item, kept verbatim. */
  extra: string;
  /** The id was written on a line of its own under the item (`  ^o-…`), not at the end of its first line. */
  idInExtra: boolean;
  /**
   * What comes before the markers on the item's first line when it is not `- ` (indentation, a quote's
   * `>`, a number, an Obsidian checkbox): kept when the line is written again.
   */
  lead?: string;
  /** 1-based line of the item in the file. */
  startLine: number;
  endLine: number;
}

export interface DayFile {
  frontmatter: Frontmatter;
  segments: Segment[];
  /**
   * How the file was saved, when not as the program writes it (UTF-8, no BOM, LF): a byte-order
   * mark (Windows Notepad), CRLF line endings throughout. Parsed without them, written back with them,
   * new lines included (see README "File formats").
   */
  encoding?: { bom: boolean; crlf: boolean };
  /** Provenance by observation id: the block at the end of the file (and a `provenance:` map of an older frontmatter). */
  provenance?: ProvenanceBlock;
  /** The line of the first marker of a Git conflict left unresolved in the file: the program does not rewrite it (edit.ts assertWritable). */
  conflict?: number;
  /** Set when the body was too long to read as Markdown and its items were read line by line (list-items.ts PLAIN_TEXT_CHARS). */
  readAsPlainText?: boolean;
}

export interface ProvenanceBlock {
  /** id → `source agent session entries` (see provenance.ts). */
  map: Record<string, unknown>;
  /** The segment that holds the block's text, in the file's segments (its text is '' while the file has no block). */
  segment: Segment & { kind: 'raw' };
  /** The map changed: the block is written anew. */
  dirty: boolean;
  /** The frontmatter still holds a `provenance:` map (a file written before the block): it goes on the next write. */
  inFrontmatter: boolean;
}

export interface FileContext {
  /** Date from the file name, used when frontmatter has none. */
  date?: string;
  agent?: string;
  tier?: Tier;
}

export interface LocatedObservation extends Observation {
  startLine: number;
  endLine: number;
}
