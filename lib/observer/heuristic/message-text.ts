/**
 * The part of a message that is read: a paste beyond MAX_MESSAGE_CHARS (a log,
 * a file) counts only up to its first paragraph.
 */

const MAX_MESSAGE_CHARS = 20_000;

/**
 * The part of a message that is read. A message over MAX_MESSAGE_CHARS is a paste (a log, a file, a
 * document): only what is written before it — its first paragraph — counts, cut at a sentence end
 * or between words, never inside a word ("We decided the launc." was a message cut at the cap).
 */
export function readableStart(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  let head = text.slice(0, MAX_MESSAGE_CHARS);
  const paragraph = head.search(/\n\s*\n/);
  if (paragraph > 0) return head.slice(0, paragraph);
  const sentenceEnd = Math.max(
    head.lastIndexOf('. '),
    head.lastIndexOf('! '),
    head.lastIndexOf('? '),
    head.lastIndexOf('\n'),
    head.lastIndexOf('。'),
  );
  if (sentenceEnd > MAX_MESSAGE_CHARS / 2) return head.slice(0, sentenceEnd + 1);
  const space = head.search(/\s\S*$/);
  if (space > 0) head = head.slice(0, space);
  return `${head}…`;
}
