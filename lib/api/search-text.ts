/**
 * A search as a command line writes and reads it: the flags' text as
 * filters, a limit and a mode (search/filters.ts, each refusal with a hint),
 * and the answer as text for people or as JSON (search/format.ts,
 * search/format-json.ts) — for `ocm-run search` and `ocm-run get`. Pure
 * functions, no memory is read.
 */
export { filtersFromOptions, parseLimit, parseSearchMode } from '../search/filters.js';
export { getHuman, getJson, searchHuman } from '../search/format.js';
export { searchJson } from '../search/format-json.js';
