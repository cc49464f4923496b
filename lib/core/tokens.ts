/**
 * Token counts with js-tiktoken (o200k_base, the encoding of current OpenAI
 * models; a fair estimate for others). The rank table (a few MB) is loaded on
 * first use, so jobs that count nothing start fast.
 */
import { createRequire } from 'node:module';
import type { Tiktoken as TiktokenType } from 'js-tiktoken/lite';

const require = createRequire(import.meta.url);
let encoder: TiktokenType | undefined;

function getEncoder(): TiktokenType {
  if (!encoder) {
    const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown };
    encoder = new Tiktoken((ranks.default ?? ranks) as ConstructorParameters<typeof Tiktoken>[0]);
  }
  return encoder;
}

/**
 * Runs of non-space characters longer than this are counted in pieces of this
 * length. BPE merges a pre-tokenizer piece in time quadratic in its length
 * (js-tiktoken's bytePairMerge), and a pasted key, base64 blob or minified
 * line without spaces is one piece: 16 KB of it took reflect 2 min. Words
 * this long are rare in prose, and splitting a run changes its count by at
 * most a token per cut.
 */
const LONGEST_PIECE = 32;
const LONG_RUN = new RegExp(`\\S{${LONGEST_PIECE + 1},}`, 'g');
const HAS_LONG_RUN = new RegExp(`\\S{${LONGEST_PIECE + 1}}`);

/**
 * Token count of `text`: exact, except that very long runs without spaces are
 * counted piecewise (linear time). Special-token text such as
 * "<|endoftext|>" in a message is counted as ordinary text, not refused.
 */
export function countTokens(text: string): number {
  if (!text) return 0;
  const encoder = getEncoder();
  if (!HAS_LONG_RUN.test(text)) return encoder.encode(text, [], []).length;
  let count = 0;
  let rest = '';
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    rest += text.slice(last, match.index);
    last = match.index + match[0].length;
    for (let i = 0; i < match[0].length; i += LONGEST_PIECE) count += encoder.encode(match[0].slice(i, i + LONGEST_PIECE), [], []).length;
  }
  rest += text.slice(last);
  return count + (rest ? encoder.encode(rest, [], []).length : 0);
}

/** A UTF-16 code unit from U+1100 up (Hangul, CJK, surrogates): counted as one token each. */
const WIDE_CHAR = /[\u1100-\uffff]/;

/**
 * A fast estimate for volume statistics (transcript tokens read, batching
 * thresholds): exact BPE is ~1 MB/s in pure JS, far too slow for the observe
 * hot path. About one token per 4 Latin characters and one per CJK/Hangul
 * character (o200k averages ~1.0–1.3 for Hangul syllables).
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  // Most text has no wide character: one regex test instead of a loop over every code unit.
  if (!WIDE_CHAR.test(text)) return Math.ceil(text.length / 4);
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x1100) wide++;
  }
  return Math.ceil((text.length - wide) / 4 + wide);
}
