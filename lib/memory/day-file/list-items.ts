/**
 * The top-level list items of a Markdown body: where each observation line of a day file starts and ends.
 *
 * Kept for speed, beside the plain form it must equal: simpleListItemRanges reads the bodies the
 * program writes itself without remark (remark reads ~0.5 MB/s; a busy day file has 1000+ lines);
 * oracle: remarkListItemRanges, in test/search/search-day-file-speed.test.ts.
 */
import { createRequire } from 'node:module';
import type { List, Root, RootContent } from 'mdast';

/*
 * The Markdown libraries are most of a day file's loading time
 * (~200 ms), and a file the program wrote needs none of them: they load on first use.
 */
const require = createRequire(import.meta.url);

type MarkdownParse = (body: string) => Root;
function markdownParser(unified: typeof import('unified').unified, remarkParse: typeof import('remark-parse').default): MarkdownParse {
  return (body) => unified().use(remarkParse).parse(body) as Root;
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

/** Offsets of every list item in a Markdown body (see remarkListItemRanges): the fast path, else remark. */
export function listItemRanges(body: string): ItemRange[] {
  const fast = simpleListItemRanges(body);
  if (fast) return fast;
  return remarkListItemRanges(body);
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
          out.push({ start: body.lastIndexOf('\n', start - 1) + 1, end, line: item.position!.start.line, endLine: item.position!.end.line });
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
