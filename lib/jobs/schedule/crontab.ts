/**
 * Editing a user's crontab text: our block lives between two marker comments
 * naming the home, is replaced in place when installed again, and removed
 * without touching any other line. Pure string functions.
 */
import { CRON_BEGIN, CRON_END } from './render.js';

interface BlockSpan {
  start: number;
  end: number;
}

function isBegin(line: string, home: string): boolean {
  return line.startsWith(`${CRON_BEGIN} ${home} >>>`);
}

function isEnd(line: string, home: string): boolean {
  return line.startsWith(`${CRON_END} ${home} <<<`);
}

/** Line spans [start, end] (inclusive) of every block for this home. */
function findBlocks(lines: string[], home: string): BlockSpan[] {
  const spans: BlockSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!isBegin(lines[i]!, home)) continue;
    let j = i + 1;
    while (j < lines.length && !isEnd(lines[j]!, home)) j++;
    // An unterminated block (hand-edited) ends at the begin marker's next line only.
    spans.push({ start: i, end: j < lines.length ? j : Math.min(i + 1, lines.length - 1) });
    i = j;
  }
  return spans;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

function joinLines(lines: string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The block for this home, or undefined. */
export function findCronBlock(crontab: string, home: string): string | undefined {
  const lines = splitLines(crontab);
  const span = findBlocks(lines, home)[0];
  return span ? lines.slice(span.start, span.end + 1).join('\n') : undefined;
}

/** Put the block in (replacing an earlier one for the same home in place); other lines untouched. */
export function upsertCronBlock(crontab: string, home: string, block: string): string {
  const lines = splitLines(crontab);
  const spans = findBlocks(lines, home);
  const blockLines = block.split('\n');
  if (spans.length === 0) return joinLines([...lines, ...blockLines]);
  const out: string[] = [];
  let cursor = 0;
  spans.forEach((span, index) => {
    out.push(...lines.slice(cursor, span.start));
    if (index === 0) out.push(...blockLines);
    cursor = span.end + 1;
  });
  out.push(...lines.slice(cursor));
  return joinLines(out);
}

/** Take every block for this home out; other lines untouched. */
export function removeCronBlock(crontab: string, home: string): string {
  const lines = splitLines(crontab);
  const spans = findBlocks(lines, home);
  if (spans.length === 0) return crontab;
  const out: string[] = [];
  let cursor = 0;
  for (const span of spans) {
    out.push(...lines.slice(cursor, span.start));
    cursor = span.end + 1;
  }
  out.push(...lines.slice(cursor));
  return joinLines(out);
}
