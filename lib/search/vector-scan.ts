/**
 * The documents nearest a query vector, without a full dot product per
 * document: each stored int8 vector also has a sign code (one bit per
 * dimension, 64 bytes for 512 dimensions), the query's code is compared with
 * every document's by Hamming distance (16 XOR + popcounts instead of 512
 * multiply-adds), and only the RESCORED nearest by code are scored exactly
 * (int8 × float cosine). Fewer documents than that are scored exactly, all
 * of them. The codes are written into each segment's vector sidecar when the
 * index is built (vector-file.ts); a sidecar of the first format gets them
 * from its vectors on first use.
 *
 * Kept for speed (a low-level module of its own): on a 100,000 × 512 index
 * the exact scan took ~225–415 ms a query on the loaded 2-core machine
 * (load average ~20; a plain loop, /tmp micro-bench), the code scan and
 * rescoring of 2,000 a fraction of it; `npm run bench -- mcp` measures
 * `search_memory` hybrid at 100k beside text. Oracle:
 * test/search/vector-scan.test.ts (the same nearest documents as the exact
 * scan on real model vectors).
 */
import type { SegmentVectors } from './vector-file.js';

/** Documents scored exactly after the code scan (at least; more when more are asked for). */
export const RESCORED = 2000;

const codesOf = new WeakMap<Int8Array, Uint32Array>();

/** The sign codes of int8 vectors: one bit per dimension (1: positive), 32 dimensions a word, per document. */
export function computeSignCodes(dims: number, count: number, data: Int8Array): Uint32Array {
  const words = Math.ceil(dims / 32);
  const codes = new Uint32Array(count * words);
  for (let d = 0; d < count; d++) {
    const base = d * dims;
    for (let w = 0; w < words; w++) {
      let bits = 0;
      const from = base + w * 32;
      const end = Math.min(32, dims - w * 32);
      // -x >>> 31 is 1 exactly for x > 0.
      for (let b = 0; b < end; b++) bits |= (-data[from + b]! >>> 31) << b;
      codes[d * words + w] = bits >>> 0;
    }
  }
  return codes;
}

/** A segment's sign codes: stored in its sidecar (vector-file.ts), else made from its vectors once and kept. */
export function signCodes(v: SegmentVectors): Uint32Array {
  if (v.codes) return v.codes;
  let codes = codesOf.get(v.data);
  if (!codes) {
    codes = computeSignCodes(v.dims, v.scales.length, v.data);
    codesOf.set(v.data, codes);
  }
  return codes;
}

function queryCode(q: Float32Array): Uint32Array {
  const words = Math.ceil(q.length / 32);
  const code = new Uint32Array(words);
  for (let i = 0; i < q.length; i++) if (q[i]! > 0) code[i >>> 5]! |= 1 << (i & 31);
  return code;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The cosine of document `d` with `q` (both L2-normalised; the stored vector int8 with its scale); null without a vector. */
export function cosineAt(v: SegmentVectors, d: number, q: Float32Array): number | null {
  if (v.dims !== q.length) return null;
  const scale = v.scales[d]!;
  if (scale === 0) return null;
  let dot = 0;
  const base = d * v.dims;
  for (let i = 0; i < v.dims; i++) dot += q[i]! * v.data[base + i]!;
  return dot * scale;
}

export interface VectorSource {
  vectors?: SegmentVectors;
  /** Global number of the source's first document. */
  base: number;
}

/**
 * The `k` documents (global numbers) with the highest cosine to `q`, best
 * first, among those `accept(source, d)` lets through.
 */
export function nearestByVector(
  sources: readonly VectorSource[],
  q: Float32Array,
  k: number,
  accept: (s: VectorSource, d: number) => boolean,
): Array<{ doc: number; score: number }> {
  const pool: Array<{ s: VectorSource; d: number }> = [];
  let total = 0;
  for (const s of sources) if (s.vectors && s.vectors.dims === q.length) total += s.vectors.scales.length;
  const rescored = Math.max(RESCORED, k * 20);
  if (total <= rescored) {
    for (const s of sources) {
      const v = s.vectors;
      if (!v || v.dims !== q.length) continue;
      for (let d = 0; d < v.scales.length; d++) if (v.scales[d]! > 0 && accept(s, d)) pool.push({ s, d });
    }
  } else {
    // Hamming distance of every accepted document's code to the query's, then the `rescored` nearest.
    const qc = queryCode(q);
    const words = qc.length;
    const counts = new Uint32Array(words * 32 + 2);
    const distances: Array<Uint16Array> = [];
    for (const s of sources) {
      const v = s.vectors;
      if (!v || v.dims !== q.length) {
        distances.push(new Uint16Array(0));
        continue;
      }
      const codes = signCodes(v);
      const dist = new Uint16Array(v.scales.length).fill(0xffff);
      for (let d = 0; d < v.scales.length; d++) {
        if (v.scales[d] === 0 || !accept(s, d)) continue;
        let h = 0;
        const at = d * words;
        for (let w = 0; w < words; w++) h += popcount((codes[at + w]! ^ qc[w]!) >>> 0);
        dist[d] = h;
        counts[h]!++;
      }
      distances.push(dist);
    }
    let threshold = 0;
    for (let seen = 0; threshold < counts.length - 1 && seen + counts[threshold]! < rescored; threshold++) seen += counts[threshold]!;
    sources.forEach((s, i) => {
      const dist = distances[i]!;
      for (let d = 0; d < dist.length; d++) if (dist[d]! <= threshold) pool.push({ s, d });
    });
  }
  const scored: Array<{ doc: number; score: number }> = [];
  for (const { s, d } of pool) {
    const c = cosineAt(s.vectors!, d, q);
    if (c !== null) scored.push({ doc: s.base + d, score: c });
  }
  scored.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return scored.slice(0, k);
}
