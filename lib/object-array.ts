/**
 * Empty arrays made to hold objects. A `[]` starts as an array of small
 * integers (V8's PACKED_SMI_ELEMENTS) and changes its map at the first push
 * of an object; code optimised for arrays of objects deoptimises on that
 * change, and again for every new `[]` a hot loop fills. Use this for arrays
 * created per call (or per file) and filled with objects in a hot loop.
 */
const SEED: readonly object[] = [{}];

/** An empty array whose elements are objects from the start. */
export function objectArray<T extends object>(): T[] {
  return SEED.slice(0, 0) as T[];
}
