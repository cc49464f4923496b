/**
 * The `--json` form of search and get results (docs/architecture.md, "Errors, exit codes and --json"). Apart from the
 * human form (format.ts) so that `search --json` — the OpenClaw plugin's
 * call — loads nothing it does not print. Pure.
 */
import { escapeJsonControls } from '../core/control-chars.js';
import type { GetResult } from './get.js';
import type { SearchResponse } from './types.js';

/** `search --json`: exactly the fields the README documents ("Search") (plus `warnings` when there are any). */
export function searchJson(response: SearchResponse): string {
  return escapeJsonControls(
    JSON.stringify({
      results: response.results.map((r) => ({
        id: r.id,
        path: r.path,
        startLine: r.startLine,
        endLine: r.endLine,
        score: r.score,
        relevance: r.relevance,
        snippet: r.snippet,
        date: r.date,
        priority: r.priority,
        category: r.category,
        tier: r.tier,
        mark: r.mark,
        provenance: {
          source: r.provenance.source,
          agent: r.provenance.agent,
          session: r.provenance.session,
          entryIds: r.provenance.entryIds,
        },
      })),
      mode: response.mode,
      warnings: response.warnings.length ? response.warnings : undefined,
    }),
  );
}

/** `get --json`; DEL and C1 controls a hand-edited file holds are \u-escaped like the C0 ones (nothing acts on a terminal). */
export function getJson(result: GetResult): string {
  if (result.kind === 'lines')
    return escapeJsonControls(
      JSON.stringify({ path: result.path, from: result.from, lines: result.lines, totalLines: result.totalLines, text: result.text }),
    );
  return escapeJsonControls(
    JSON.stringify({
      id: result.id,
      path: result.path,
      startLine: result.startLine,
      endLine: result.endLine,
      date: result.date,
      time: result.time,
      priority: result.priority,
      done: result.done,
      mark: result.mark,
      category: result.category,
      tier: result.tier,
      agent: result.agent,
      tags: result.tags,
      text: result.text,
      provenance: result.provenance,
    }),
  );
}
