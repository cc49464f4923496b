/**
 * The top-level list items of a Markdown body: where each observation line of a day file starts and ends.
 *
 * Kept for speed, beside the plain form it must equal: simpleListItemRanges reads the bodies the
 * program writes itself without remark (remark reads ~0.5 MB/s; a busy day file has 1000+ lines);
 * oracle: remarkListItemRanges, in test/search/search-day-file-speed.test.ts.
 *
 * Bounded: remark parses block structure only (the inline constructs — emphasis, links, code spans —
 * are switched off: nothing here reads them, and emphasis is quadratic: 200 KB of `*emphasis*` took
 * ~10 s, 700 KB ~25 s), and only bodies up to PLAIN_TEXT_CHARS; a longer hand-edited body (a pasted
 * note of megabytes) is read line by line (plainListItemRanges) and the index says so. Measured by
 * `npm run bench -- markdown`.
 */
import { createRequire } from 'node:module';
import type { List, Root, RootContent } from 'mdast';

/*
 * The Markdown libraries are most of a day file's loading time
 * (~200 ms), and a file the program wrote needs none of them: they load on first use.
 */
const require = createRequire(import.meta.url);

type MarkdownParse = (body: string) => Root;
/** micromark's inline (text) constructs: off, so a paragraph is one text node whatever markup it holds. */
const BLOCKS_ONLY = {
  disable: {
    null: [
      'attention',
      'autolink',
      'characterEscape',
      'characterReference',
      'codeText',
      'hardBreakEscape',
      'htmlText',
      'labelStartImage',
      'labelStartLink',
      'labelEnd',
    ],
  },
};
function markdownParser(unified: typeof import('unified').unified, remarkParse: typeof import('remark-parse').default): MarkdownParse {
  const processor = unified().use(remarkParse).data('micromarkExtensions', [BLOCKS_ONLY]);
  return (body) => processor.parse(body) as Root;
}
/**
 * remark parses the bodies the fast path below does not take (hand-edited
 * files). It is ESM-only: Node >= 20.19 / 22.12 can require() it on first
 * use; older Node cannot, so there it is loaded with this module.
 */
let parseMarkdown: MarkdownParse | undefined = process.features.require_module
  ? undefined
  : await Promise.all([import('unified'), import('remark-parse')]).then(([u, r]) => markdownParser(u.unified, r.default));
function markdownTree(body: string): Root {
  parseMarkdown ??= markdownParser(
    (require('unified') as typeof import('unified')).unified,
    (require('remark-parse') as typeof import('remark-parse')).default,
  );
  return parseMarkdown(body);
}

/** An item's [start, end) offsets in the body and its first and last line (1-based). */
type ItemRange = { start: number; end: number; line: number; endLine: number };

const SIMPLE_HEADING = /^#{1,6}(?:[ \t]|$)/;
const SIMPLE_ITEM = /^- [^\s\-*+#>`~<|\d[]/u;

/**
 * Fast path (remark reads ~0.5 MB/s; a busy day file has 1000+ lines): a body
 * made only of blank lines, ATX headings and single-line "- " items — what the
 * program itself writes — has exactly one list item per item line. Anything
 * else (notes, nested or continued items, code, HTML, setext headings, CRLF,
 * trailing spaces…) returns undefined and goes through remark. Checked against
 * remark by test/search/search-day-file-speed.test.ts.
 */
export function simpleListItemRanges(body: string): ItemRange[] | undefined {
  if (body.includes('\r') || body.includes('\0')) return undefined;
  const out: ItemRange[] = [];
  let offset = 0;
  let lineNo = 1;
  for (const line of body.split('\n')) {
    if (line === '' || SIMPLE_HEADING.test(line)) {
      // blank or heading
    } else if (SIMPLE_ITEM.test(line) && !/\s$/.test(line)) {
      out.push({ start: offset, end: offset + line.length, line: lineNo, endLine: lineNo });
    } else {
      return undefined;
    }
    offset += line.length + 1;
    lineNo++;
  }
  return out;
}

/**
 * The longest hand-edited body remark parses (its block parsing is linear but slow: ~0.3–1 MB/s, and
 * seconds for some nestings); a longer one is read line by line. 256 K characters is about 1,700
 * observation lines, and a body the program wrote itself takes the fast path at any size.
 */
export const PLAIN_TEXT_CHARS = 256 * 1024;

/** Offsets of every list item in a Markdown body (see remarkListItemRanges): the fast path, else remark, else (too long) lines. */
export function listItemRanges(body: string): ItemRange[] {
  const fast = simpleListItemRanges(body);
  if (fast) return fast;
  if (body.length > PLAIN_TEXT_CHARS) return plainListItemRanges(body);
  return remarkListItemRanges(body);
}

/** Whether listItemRanges reads this body line by line rather than as Markdown (a long hand-edited body). */
export function readAsPlainText(body: string): boolean {
  return body.length > PLAIN_TEXT_CHARS && simpleListItemRanges(body) === undefined;
}

/** A list item's line: block-quote markers, indentation, a bullet or number, then a space or the line's end. */
const PLAIN_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const THEMATIC_BREAK = /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** Block-quote markers at the start of a line (each after at most 3 spaces). */
const QUOTES = /^(?:[ \t]{0,3}>[ \t]?)*/;
/** A line that starts another block (and so is no lazy continuation of an item's paragraph). */
const BLOCK_START = /^[ \t]*(?:#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|<)/;
const FENCE = /^([ \t]*)(`{3,}|~{3,})/;

/**
 * The items remarkListItemRanges finds, read line by line in linear time, for a body too long for remark:
 * an item starts at a line whose first mark (after `>` and indentation) is a bullet or a number, and
 * runs over the lines after it that are indented deeper than its bullet, or that continue its paragraph
 * with no blank line before them (in the same block quote); items nested deeper lie inside it. A fenced
 * code block starts no item. CommonMark's finer rules (a bullet's content column, HTML blocks, setext
 * headings) are not followed: this is the fallback for pasted megabytes, not the reader of ordinary files.
 */
export function plainListItemRanges(body: string): ItemRange[] {
  const out: ItemRange[] = [];
  const open: Array<{ at: number; quotes: number; indent: number }> = [];
  let lastEnd = 0;
  let lastLine = 0;
  /** Ends the innermost open items while `stays` is false for them. */
  const close = (stays: (item: { quotes: number; indent: number }) => boolean) => {
    while (open.length > 0 && !stays(open[open.length - 1]!)) {
      const item = out[open.pop()!.at]!;
      item.end = lastEnd;
      item.endLine = lastLine;
    }
  };
  const belongs = (next: number, lineNo: number) => {
    if (open.length === 0) return;
    lastEnd = next;
    lastLine = lineNo;
  };
  let fence: string | undefined;
  let blankBefore = false;
  let offset = 0;
  let lineNo = 0;
  while (offset <= body.length) {
    let next = body.indexOf('\n', offset);
    if (next === -1) next = body.length;
    const line = body.slice(offset, next);
    lineNo++;
    const quoteMarks = QUOTES.exec(line)![0];
    const quotes = quoteMarks.split('>').length - 1;
    const rest = line.slice(quoteMarks.length);
    const indent = rest.length - rest.trimStart().length;
    // In another block quote than the item (and not indented into it): the item has ended.
    const sameQuote = (item: { quotes: number; indent: number }) =>
      item.quotes === quotes || (quotes > item.quotes && line.indexOf('>') > item.indent);
    const fenceMark = FENCE.exec(rest);
    if (fence !== undefined) {
      if (fenceMark && fenceMark[2]![0] === fence[0] && fenceMark[2]!.length >= fence.length && rest.trim() === fenceMark[2])
        fence = undefined;
      belongs(next, lineNo);
    } else if (rest.trim() === '') {
      blankBefore = true;
    } else {
      const item = THEMATIC_BREAK.test(rest) ? null : PLAIN_ITEM.exec(rest);
      if (item) {
        const at = item[1]!.length;
        close((o) => sameQuote(o) && o.indent < at);
        open.push({ at: out.length, quotes, indent: at });
        out.push({ start: offset, end: next, line: lineNo, endLine: lineNo });
        lastEnd = next;
        lastLine = lineNo;
      } else {
        // Deeper than the bullet: its content; as deep or less: a lazy continuation only right after it and not a new block.
        const lazy = !blankBefore && !BLOCK_START.test(rest) && !THEMATIC_BREAK.test(rest);
        close((o) => sameQuote(o) && (o.indent < indent || lazy));
        if (fenceMark) fence = fenceMark[2];
        belongs(next, lineNo);
      }
      blankBefore = false;
    }
    offset = next + 1;
  }
  close(() => false);
  return out;
}

/**
 * Every list item of a Markdown body, in document order: top-level ones, items nested in another item,
 * items inside a block quote. Each starts at the start of its line (the indentation and `>` before
 * its bullet are part of it), so that an item removed takes its whole line. A nested item lies inside
 * its parent's range (parse.ts ends the parent's observation before it).
 */
export function remarkListItemRanges(body: string): ItemRange[] {
  const out: ItemRange[] = [];
  const visit = (nodes: readonly RootContent[]): void => {
    for (const node of nodes) {
      if (node.type === 'list') {
        for (const item of (node as List).children) {
          const start = item.position?.start.offset;
          const end = item.position?.end.offset;
          if (start === undefined || end === undefined) continue;
          out.push({
            start: body.lastIndexOf('\n', start - 1) + 1,
            end,
            line: item.position!.start.line,
            endLine: item.position!.end.line,
          });
          visit(item.children);
        }
      } else if (node.type === 'blockquote') {
        visit(node.children);
      }
    }
  };
  visit(markdownTree(body).children);
  return out;
}
