/**
 * A segment's vector sidecar file: int8 vectors of its documents in document
 * order, one scale per vector. Read by search; written by the indexer.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { computeSignCodes } from './vector-scan.js';

/** 01: scales and int8 vectors; 02: then the vectors' sign codes (vector-scan.ts), 4-byte words. */
const VEC_MAGIC = Buffer.from('OCMVEC02', 'latin1');
const VEC_MAGIC_01 = Buffer.from('OCMVEC01', 'latin1');

/** The vectors of one segment, as read by search. */
export interface SegmentVectors {
  dims: number;
  /** Per document; 0 = no vector. */
  scales: Float32Array;
  data: Int8Array;
  /** The sign codes of the vectors (vector-scan.ts), when the sidecar holds them. */
  codes?: Uint32Array;
}

export function vectorFileName(segment: string, modelKey: string): string {
  return `${segment.replace(/\.seg$/, '')}.${modelKey}.vec`;
}

export function buildVectorFile(meta: { model: string; dims: number; segment: string }, scales: Float32Array, data: Int8Array): Buffer {
  const header = Buffer.from(JSON.stringify({ ...meta, count: scales.length }), 'utf8');
  const start = (12 + header.length + 7) & ~7;
  const codes = computeSignCodes(meta.dims, scales.length, data);
  const codesAt = (start + scales.byteLength + data.byteLength + 3) & ~3;
  const out = Buffer.alloc(codesAt + codes.byteLength);
  VEC_MAGIC.copy(out, 0);
  out.writeUInt32LE(header.length, 8);
  header.copy(out, 12);
  Buffer.from(scales.buffer, scales.byteOffset, scales.byteLength).copy(out, start);
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, start + scales.byteLength);
  Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).copy(out, codesAt);
  return out;
}

/** Read a segment's vector sidecar; undefined when missing or not matching (search then treats it as text-only). */
export function loadVectorFile(path: string, expect: { model: string; docCount: number }): SegmentVectors | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.from(new ArrayBuffer(size));
    readSync(fd, bytes, 0, size, 0);
    const withCodes = size >= 12 && bytes.subarray(0, 8).equals(VEC_MAGIC);
    if (!withCodes && !(size >= 12 && bytes.subarray(0, 8).equals(VEC_MAGIC_01))) return undefined;
    const headerLength = bytes.readUInt32LE(8);
    const meta = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as { model: string; dims: number; count: number };
    if (meta.model !== expect.model || meta.count !== expect.docCount || !(meta.dims > 0)) return undefined;
    const start = (12 + headerLength + 7) & ~7;
    const end = start + meta.count * 4 + meta.count * meta.dims;
    const codesAt = (end + 3) & ~3;
    const words = Math.ceil(meta.dims / 32) * meta.count;
    if (withCodes ? codesAt + words * 4 !== size : end !== size) return undefined;
    return {
      dims: meta.dims,
      scales: new Float32Array(bytes.buffer, start, meta.count),
      data: new Int8Array(bytes.buffer, start + meta.count * 4, meta.count * meta.dims),
      ...(withCodes ? { codes: new Uint32Array(bytes.buffer, codesAt, words) } : {}),
    };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
