import { defineCommand } from '../cli-context.js';
import type { Flags, FlagValues } from '../flags.js';
import type { Config, SearchRequest } from '../../lib/api/index.js';
import { memoryHome } from '../memory-home.js';

const SEARCH_FLAGS = {
  also: {
    value: '<query>',
    multiple: true,
    description: 'Another rendering of the same question (other words, another language), fused into one ranking; repeatable',
  },
  limit: { value: '<n>', description: 'Maximum number of results (default: search.default_limit, 10)' },
  priority: { value: '<p>', multiple: true, description: 'Only these priorities: high, medium, low (comma-separated)' },
  category: { value: '<c>', multiple: true, description: 'Only these categories (decision, preference, task, reflection, …)' },
  since: { value: '<date>', description: 'From this date: YYYY-MM-DD, or 7d / 2w / 3m / 1y back from today' },
  until: { value: '<date>', description: 'Up to this date (inclusive)' },
  tier: { value: '<t>', multiple: true, description: 'Only these tiers: hot, warm, cold (a hot-only search never reads warm/cold)' },
  agent: { value: '<a>', multiple: true, description: 'Only observations of these agents' },
  tag: { value: '<t>', multiple: true, description: 'Only observations carrying all these tags' },
  current: { description: 'Only what is current: leave out superseded items and done tasks' },
  mode: { value: '<m>', description: 'text: full text only; hybrid: with embeddings when configured (the default)' },
  cache: { negated: true, description: 'Do not use the repeated-query cache' },
} as const satisfies Flags;

/** The command line as the library's search request (checked: dates, limit, mode, priorities, tiers). */
async function searchOptions(query: string, flags: FlagValues<typeof SEARCH_FLAGS>, config: Config, now: Date): Promise<SearchRequest> {
  const { filtersFromOptions, parseLimit, parseSearchMode } = await import('../../lib/api/search-text.js');
  // Checked in this order: the filters, the limit, the mode.
  const filters = filtersFromOptions(flags, now, config.timezone);
  const limit = parseLimit(flags.limit, config.search.default_limit);
  return { query, also: flags.also.filter((a) => a.trim()), limit, filters, cache: flags.cache, mode: parseSearchMode(flags.mode) };
}

export const command = defineCommand({
  name: 'search <query>',
  description: 'Search the memory (hybrid full text + embeddings when configured, else full text)',
  homeMustExist: true,
  shortLived: true,
  examples: [
    'ocm-run search "postgres migration"',
    'ocm-run search 데이터베이스 --since 30d --priority high',
    'ocm-run search POSTGRES_URL --tier hot,warm --json',
    'ocm-run search "API 인증 문제" --also "API authentication problems"',
  ],
  flags: SEARCH_FLAGS,
  async run(ctx, args, flags) {
    const { query } = args;
    const { config } = await ctx.config();
    const request = await searchOptions(query, flags, config, ctx.now());
    const { searchOnce } = await import('../../lib/api/one-off-search.js');
    const response = await searchOnce(await memoryHome(ctx, 'search'), request);
    if (ctx.json) {
      const { searchJson } = await import('../../lib/api/search-text.js');
      ctx.out(searchJson(response));
    } else {
      const { searchHuman } = await import('../../lib/api/search-text.js');
      for (const w of response.warnings) ctx.err(`ocm-run: ${w}`);
      ctx.out(searchHuman(query, response, { color: ctx.color, verbose: ctx.verbose }));
    }
  },
});
