/**
 * How a day file was saved, when not as the program writes it (UTF-8, no BOM, LF): taken off before
 * parsing, put back on writing (README "File formats"); bytes that are not UTF-8, kept as they are.
 */
import { isUtf8 } from 'node:buffer';
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

/**
 * A day file's bytes as text. Bytes that are not UTF-8 (a note saved as Latin-1 or Windows-1252) become
 * lone low surrogates U+DC80–U+DCFF, one per byte, as Python's `surrogateescape` does — never U+FFFD —
 * so that encodeSavedBytes writes them back byte for byte. A file that is UTF-8 is decoded as usual.
 */
export function decodeSavedBytes(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buf)) return buf.toString('utf8');
  let out = '';
  let run = 0;
  let i = 0;
  while (i < buf.length) {
    const n = utf8SequenceLength(buf, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += buf.toString('utf8', run, i) + String.fromCharCode(0xdc00 + buf[i]!);
    i++;
    run = i;
  }
  return out + buf.toString('utf8', run, buf.length);
}

/** Bytes escaped by decodeSavedBytes: a low surrogate of U+DC80–U+DCFF that is not the second half of a pair. */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;

/** The bytes of a day file's text: UTF-8, with the bytes decodeSavedBytes escaped put back as they were. */
export function encodeSavedBytes(text: string): Buffer {
  ESCAPED_BYTE.lastIndex = 0;
  if (!ESCAPED_BYTE.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  ESCAPED_BYTE.lastIndex = 0;
  for (let m = ESCAPED_BYTE.exec(text); m; m = ESCAPED_BYTE.exec(text)) {
    parts.push(Buffer.from(text.slice(from, m.index), 'utf8'), Buffer.of(text.charCodeAt(m.index) - 0xdc00));
    from = m.index + 1;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function utf8SequenceLength(buf: Buffer, i: number): number {
  const b = buf[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < buf.length && buf[i + k]! >= lo && buf[i + k]! <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) return cont(1, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf) && cont(2) ? 3 : 0;
  if (b >= 0xf0 && b <= 0xf4) return cont(1, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
