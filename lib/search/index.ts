/**
 * Search over the memory files: the index (`updateIndex`), queries
 * (`searchMemory`) and `getMemory`. See the README, "Search".
 */
export { updateIndex, type IndexResult, type IndexOptions, type IndexConfig } from './indexer.js';
export { searchMemory, type SearchRequest, type SearchDeps, type SearchConfig } from './search.js';
export { getMemory, readLineRange, getObservation, parseTarget, type GetResult, type LineRange } from './get.js';
export type { SearchDoc, SearchFilters, SearchResponse, SearchResult, SearchMode } from './types.js';
