/**
 * The OpenClaw plugin loads the names of OC-Memory's own tools from the
 * installed CLI's dist/lib/. They live in lib/core/injected-context.ts; a
 * plugin copied by `integrate openclaw` before they moved there still loads
 * this path, so it stays until such copies are gone.
 */
export * from '../core/injected-context.js';
