/**
 * Printing search and get results: the human form (one block per result:
 * priority emoji, date and time, category, score, snippet with the match
 * highlighted, path:line); the `--json` form (README, "Search") is format-json.ts. Pure.
 * Memory text is printed with its control characters escaped (a hand-edited file may hold an escape sequence
 * that would clear the terminal or hide text): only this module's own colours reach the terminal.
 */
import { escapeControlChars as shown } from '../core/control-chars.js';
import { DONE_EMOJI, formatMark, PRIORITY_EMOJI } from '../memory/observation-line.js';
import { makeSnippet, markSnippet } from './snippet.js';
import type { GetResult } from './get.js';
import type { SearchResponse, SearchResult } from './types.js';

export { getJson, searchJson } from './format-json.js';

const BOLD_YELLOW = ['\u001b[1;33m', '\u001b[0m'] as const;
const DIM = ['\u001b[2m', '\u001b[0m'] as const;

function headerLine(r: SearchResult, color: boolean): string {
  const when = [r.date, r.time].filter(Boolean).join(' ') || 'undated';
  const parts = [
    `${r.done ? `${DONE_EMOJI} ` : ''}${PRIORITY_EMOJI[r.priority]} ${when}`,
    `[${r.category}]`,
    `score ${r.score.toFixed(2)}`,
  ];
  if (r.agent !== 'main') parts.push(`agent ${r.agent}`);
  if (r.tier !== 'hot') parts.push(r.tier);
  if (r.mark) parts.push(formatMark(r.mark));
  const line = parts.join('  ');
  return color ? line : line;
}

export function searchHuman(query: string, response: SearchResponse, options: { color: boolean; verbose?: boolean }): string {
  const [open, close] = options.color ? BOLD_YELLOW : (['**', '**'] as const);
  const [dimOpen, dimClose] = options.color ? DIM : (['', ''] as const);
  const lines: string[] = [];
  if (response.results.length === 0) {
    lines.push(`No results for "${shown(query)}" (${response.mode} search).`);
    return lines.join('\n');
  }
  response.results.forEach((r, i) => {
    if (i > 0) lines.push('');
    lines.push(headerLine(r, options.color));
    const snippet = makeSnippet(shown(r.text), response.terms);
    lines.push(`  ${markSnippet(snippet, open, close)}`);
    const tags = r.tags.length && !r.tags.every((t) => r.text.includes(`#${t}`)) ? `  ${r.tags.map((t) => `#${t}`).join(' ')}` : '';
    lines.push(`  ${dimOpen}${shown(`${r.path}:${r.startLine}  ^${r.id}${tags}`)}${dimClose}`);
    if (options.verbose) {
      lines.push(
        `  ${dimOpen}text ${r.scores.text.toFixed(3)} · vector ${r.scores.vector === null ? '–' : r.scores.vector.toFixed(3)} · ${shown(`${r.provenance.source} ${r.provenance.agent} ${r.provenance.session} ${r.provenance.entryIds.join(',')}`)}${dimClose}`,
      );
    }
  });
  const n = response.results.length;
  lines.push('');
  lines.push(`${dimOpen}${n} result${n === 1 ? '' : 's'} · ${response.mode} search${response.cached ? ' · cached' : ''}${dimClose}`);
  return lines.join('\n');
}

export function getHuman(result: GetResult): string {
  if (result.kind === 'lines') return shown(result.text);
  const p = result.provenance;
  return shown(
    [
      headerLine({ ...result, score: 1 } as SearchResult, false).replace(/ {2}score 1\.00/, ''),
      `  ${result.text}${result.tags.length ? `  ${result.tags.map((t) => `#${t}`).join(' ')}` : ''}`,
      `  ${result.path}:${result.startLine}  ^${result.id}`,
      `  from ${p.source} · agent ${p.agent}${p.session ? ` · session ${p.session}` : ''}${p.entryIds.length ? ` · entries ${p.entryIds.join(', ')}` : ''}`,
    ].join('\n'),
  );
}

export { makeSnippet };
