/**
 * Which of many keywords a text holds, case-insensitively (ASCII letters), in
 * one pass: an Aho–Corasick automaton (overlapping and nested keywords are
 * all found). The same pass measures what the keyword-less rules need: the
 * longest run of token characters holding a digit and a letter (a random key)
 * and the longest sequence of digits (a card number), so a text without them
 * skips those rules' regexes.
 */

/** Token characters: [A-Za-z0-9+/=_~-]; bit 1 = letter, bit 2 = digit, bit 4 = other token character. */
const TOKEN = new Uint8Array(128);
for (let c = 65; c <= 90; c++) TOKEN[c] = 1;
for (let c = 97; c <= 122; c++) TOKEN[c] = 1;
for (let c = 48; c <= 57; c++) TOKEN[c] = 2;
for (const c of '+/=_~-') TOKEN[c.charCodeAt(0)] = 4;

export interface TextShape {
  /** Length of the longest run of token characters that holds a digit and a letter. */
  keyRun: number;
  /** Most digits in one sequence of digits with single spaces or dashes between them. */
  digits: number;
}

const ROOT = 0;
const ASCII = 128;

export class KeywordAutomaton {
  /** Trie edges per state (keyword characters, lower case). */
  private readonly edges: Array<Map<number, number>>;
  private readonly fail: Int32Array;
  /** Transitions for ASCII characters, filled on first use (-1: not yet): next = ascii[state * 128 + code]. */
  private readonly ascii: Int32Array;
  /** Keyword indices that end at a state, including those of its failure chain. */
  private readonly outputs: Array<readonly number[]>;

  constructor(keywords: readonly string[]) {
    const edges: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    keywords.forEach((keyword, index) => {
      let state = ROOT;
      for (const char of keyword.toLowerCase()) {
        const code = char.codePointAt(0)!;
        let next = edges[state]!.get(code);
        if (next === undefined) {
          next = edges.length;
          edges.push(new Map());
          ends.push([]);
          edges[state]!.set(code, next);
        }
        state = next;
      }
      ends[state]!.push(index);
    });
    this.edges = edges;
    const count = edges.length;
    this.fail = new Int32Array(count);
    this.ascii = new Int32Array(count * ASCII).fill(-1);
    this.outputs = new Array<readonly number[]>(count);
    this.outputs[ROOT] = ends[ROOT]!;
    // Breadth-first: a state's failure target is complete before its children need it.
    const order: number[] = [ROOT];
    for (let head = 0; head < order.length; head++) {
      const state = order[head]!;
      for (const [code, child] of edges[state]!) {
        this.fail[child] = state === ROOT ? ROOT : this.step(this.fail[state]!, code);
        const own = ends[child]!;
        const inherited = this.outputs[this.fail[child]!]!;
        this.outputs[child] = inherited.length === 0 ? own : [...own, ...inherited];
        order.push(child);
      }
    }
  }

  /** The automaton's move from `state` on `code` (computed by the failure chain; cached for ASCII). */
  private step(state: number, code: number): number {
    if (code < ASCII) {
      const cached = this.ascii[state * ASCII + code]!;
      if (cached >= 0) return cached;
    }
    let next = ROOT;
    for (let s = state; ; s = this.fail[s]!) {
      const edge = this.edges[s]!.get(code);
      if (edge !== undefined) {
        next = edge;
        break;
      }
      if (s === ROOT) break;
    }
    if (code < ASCII) this.ascii[state * ASCII + code] = next;
    return next;
  }

  /**
   * Calls `found(keywordIndex)` for every keyword occurrence in `text` (ASCII letters compared without
   * case), and fills `shape`.
   */
  scan(text: string, found: (keyword: number) => void, shape: TextShape): void {
    const ascii = this.ascii;
    const outputs = this.outputs;
    let state = ROOT;
    let run = 0;
    let runKinds = 0; // bit 1: a letter, bit 2: a digit, bit 4: other
    let keyRun = 0;
    let digits = 0;
    let maxDigits = 0;
    let previousDigit = false;
    let separator = false;
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      if (code < ASCII) {
        const kind = TOKEN[code]!;
        if (kind !== 0) {
          run += 1;
          runKinds |= kind;
        } else {
          if ((runKinds & 3) === 3 && run > keyRun) keyRun = run;
          run = 0;
          runKinds = 0;
        }
        if (kind === 2) {
          digits = separator || previousDigit ? digits + 1 : 1;
          if (digits > maxDigits) maxDigits = digits;
          previousDigit = true;
          separator = false;
        } else {
          separator = previousDigit && (code === 32 || code === 45);
          if (!separator) digits = 0;
          previousDigit = false;
        }
        if (code >= 65 && code <= 90) code += 32;
        const next = ascii[state * ASCII + code]!;
        state = next >= 0 ? next : this.step(state, code);
      } else {
        if ((runKinds & 3) === 3 && run > keyRun) keyRun = run;
        run = 0;
        runKinds = 0;
        digits = 0;
        previousDigit = false;
        separator = false;
        state = this.step(state, code);
      }
      const out = outputs[state]!;
      if (out.length !== 0) for (let k = 0; k < out.length; k++) found(out[k]!);
    }
    if ((runKinds & 3) === 3 && run > keyRun) keyRun = run;
    shape.keyRun = keyRun;
    shape.digits = maxDigits;
  }
}
