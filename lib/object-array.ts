/**
 * Empty arrays whose elements are of V8's "any value" kind from the start, as a
 * filled array of objects or strings. A `[]` starts as an array of small
 * integers (PACKED_SMI_ELEMENTS), and its literal's allocation site does not
 * always learn otherwise: it changes its map at the first push of an object or
 * string, and code optimised for arrays of objects deoptimises on that change,
 * again for every new `[]` a hot loop fills (observeMessage's drafts, the
 * reader's chunk messages, the worker wire's tables). Use this for arrays
 * created per call (or per file or batch) and filled in a hot loop.
 */
const SEED: readonly unknown[] = [{}];

/** An empty array whose elements kind already holds any value. */
export function objectArray<T>(): T[] {
  return SEED.slice(0, 0) as T[];
}
