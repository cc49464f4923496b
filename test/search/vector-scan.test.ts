/**
 * The code scan of vector-scan.ts against the exact scan it replaces: the
 * same nearest documents with the same scores, on int8 vectors stored as the
 * index stores them (quantise of vectors.ts), clustered as sentence
 * embeddings are (topics), in more documents than are rescored exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantise } from '../../lib/search/vectors.js';
import { cosineAt, nearestByVector, RESCORED, type VectorSource } from '../../lib/search/vector-scan.js';
import type { SegmentVectors } from '../../lib/search/vector-file.js';

const DIMS = 512;

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function near(centre: Float32Array, noise: number, r: () => number): Float32Array {
  return unit(centre.map((x) => x + noise * normal(r)));
}

function vectorsOf(list: Float32Array[]): SegmentVectors {
  const scales = new Float32Array(list.length);
  const data = new Int8Array(list.length * DIMS);
  list.forEach((v, d) => {
    scales[d] = quantise(v, data, d * DIMS);
  });
  return { dims: DIMS, scales, data };
}

function exact(sources: VectorSource[], q: Float32Array, k: number, accept: (s: VectorSource, d: number) => boolean) {
  const all: Array<{ doc: number; score: number }> = [];
  for (const s of sources)
    for (let d = 0; d < s.vectors!.scales.length; d++) if (accept(s, d)) all.push({ doc: s.base + d, score: cosineAt(s.vectors!, d, q)! });
  return all.sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, k);
}

test("the code scan finds the exact scan's nearest documents, with the exact scores, beyond the rescored number", () => {
  const r = random(7);
  const centres = Array.from({ length: 60 }, () => unit(Float32Array.from({ length: DIMS }, () => normal(r))));
  const docs = Array.from({ length: 12_000 }, (_, i) => near(centres[i % centres.length]!, 0.06, r));
  assert.ok(docs.length > RESCORED * 2);
  // Two segments, as a pack and a file's own; every 7th document filtered out.
  const sources: VectorSource[] = [
    { vectors: vectorsOf(docs.slice(0, 9000)), base: 0 },
    { vectors: vectorsOf(docs.slice(9000)), base: 9000 },
  ];
  const accept = (s: VectorSource, d: number) => (s.base + d) % 7 !== 0;
  let found = 0;
  let asked = 0;
  for (let i = 0; i < 20; i++) {
    const q = near(centres[(i * 7) % centres.length]!, 0.05, r);
    const want = exact(sources, q, 50, accept);
    const got = nearestByVector(sources, q, 50, accept);
    assert.equal(got.length, 50);
    for (const g of got)
      assert.ok(accept(sources[g.doc < 9000 ? 0 : 1]!, g.doc - (g.doc < 9000 ? 0 : 9000)), 'a filtered-out document is never returned');
    const scores = new Map(want.map((w) => [w.doc, w.score]));
    for (const g of got) if (scores.has(g.doc)) assert.equal(g.score, scores.get(g.doc), 'the same score as the exact scan');
    found += got.filter((g) => scores.has(g.doc)).length;
    asked += want.length;
  }
  assert.ok(found / asked >= 0.98, `recall of the exact top 50: ${found} of ${asked}`);
});

test('fewer documents than are rescored: every one is scored exactly (the exact answer)', () => {
  const r = random(3);
  const docs = Array.from({ length: 500 }, () => unit(Float32Array.from({ length: DIMS }, () => normal(r))));
  const sources: VectorSource[] = [{ vectors: vectorsOf(docs), base: 0 }];
  const q = unit(Float32Array.from({ length: DIMS }, () => normal(r)));
  assert.deepEqual(
    nearestByVector(sources, q, 10, () => true),
    exact(sources, q, 10, () => true),
  );
});
