/**
 * How a day file was saved, when not as the program writes it (UTF-8, no BOM, LF): taken off before
 * parsing, put back on writing (README "File formats").
 */
import type { DayFile } from './model.js';

const BOM = '\uFEFF';

/** The text without a leading BOM and, when every line ends in CRLF, with LF endings; and what was taken off. */
export function withoutSavedEncoding(text: string): { text: string; encoding?: DayFile['encoding'] } {
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  // Only a file whose every newline is CRLF is normalised, so that writing LF back as CRLF gives the same bytes.
  const crlf = text.includes('\r\n') && !/(?:^|[^\r])\n/.test(text);
  if (crlf) text = text.replace(/\r\n/g, '\n');
  return bom || crlf ? { text, encoding: { bom, crlf } } : { text };
}

/** The text as the file was saved: its BOM and CRLF line endings put back. */
export function withSavedEncoding(text: string, encoding: DayFile['encoding']): string {
  if (!encoding) return text;
  return (encoding.bom ? BOM : '') + (encoding.crlf ? text.replace(/\n/g, '\r\n') : text);
}
