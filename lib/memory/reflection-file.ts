/**
 * Reflection files in `<home>/reflections/` (agent `main`) or
 * `reflections/<agent>/`: Markdown with YAML frontmatter, one per period,
 * named `<period_start>_<period_end>.md`:
 *
 *   ---
 *   period_start: 2026-01-01
 *   period_end: 2026-01-31
 *   agent: main
 *   reflector: heuristic
 *   created: 2026-02-12T10:00:00.000Z
 *   tokens_before: 12040
 *   tokens_after: 2310
 *   compression_ratio: 5.21
 *   keyword_preservation: 0.91
 *   source_observations: [o-7f3a9c21e0, …]
 *   ---
 *   # Reflection · 2026-01-01 → 2026-01-31
 *
 *   ## 2026-01-05
 *   - 🔴 [decision] PostgreSQL is the main database (was: MySQL).
 *
 * Lines use the observation line format (no block ids), so every tool that
 * reads day files reads these too. The source observations stay in the day
 * files (audit, recovery); `source_observations` says which ones a
 * reflection stands in for.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatYaml, readFrontmatterYaml, splitFrontmatter } from './frontmatter.js';
import { agentSlug, DEFAULT_AGENT, type HomePaths } from '../platform/home.js';
import { parseObservationContent } from './observation-line.js';
import { renderReflectionLines, type ReflectionLine } from './reflection-text.js';
import { isNotFound } from '../core/errors.js';

export interface ReflectionMeta {
  periodStart: string;
  periodEnd: string;
  agent: string;
  reflector: string;
  created: string;
  tokensBefore: number;
  tokensAfter: number;
  compressionRatio: number;
  keywordPreservation: number;
  sourceObservations: string[];
}

export interface ReflectionFile {
  path: string;
  meta: ReflectionMeta;
  lines: ReflectionLine[];
}

export function reflectionsDir(paths: HomePaths, agent: string): string {
  return agent === DEFAULT_AGENT ? paths.reflections : join(paths.reflections, agentSlug(agent));
}

export function reflectionFileName(periodStart: string, periodEnd: string, n = 1): string {
  return `${periodStart}_${periodEnd}${n > 1 ? `-${n}` : ''}.md`;
}

export function formatReflectionFile(meta: ReflectionMeta, lines: ReflectionLine[]): string {
  const data = {
    period_start: meta.periodStart,
    period_end: meta.periodEnd,
    agent: meta.agent,
    reflector: meta.reflector,
    created: meta.created,
    tokens_before: meta.tokensBefore,
    tokens_after: meta.tokensAfter,
    compression_ratio: meta.compressionRatio,
    keyword_preservation: meta.keywordPreservation,
    source_observations: meta.sourceObservations,
  };
  const yaml = formatYaml(data, { lineWidth: 0 }).replace(/^source_observations:\n((?:\s+- .*\n)+)/m, (_m, items: string) => {
    const ids = items
      .trim()
      .split('\n')
      .map((l) => l.replace(/^\s*-\s*/, '').trim());
    return `source_observations: [${ids.join(', ')}]\n`;
  });
  const body = renderReflectionLines(lines);
  return `---\n${yaml}---\n# Reflection · ${meta.periodStart} → ${meta.periodEnd}\n\n${body || '_Nothing lasting in this period._\n'}`;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v instanceof Date ? v.toISOString().slice(0, 10) : v === undefined || v === null ? '' : String(v);
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0;
}

/** Parse a reflection file; undefined when it is not one (no period in the frontmatter). */
export function parseReflectionFile(text: string, path: string): ReflectionFile | undefined {
  // Read as day files are (lib/memory/frontmatter.ts), past a byte-order mark a Windows editor may have saved.
  const fm = splitFrontmatter(text.startsWith('\uFEFF') ? text.slice(1) : text);
  if (!fm) return undefined;
  let data: Record<string, unknown>;
  try {
    data = readFrontmatterYaml(fm.yaml);
  } catch {
    return undefined;
  }
  const periodStart = str(data.period_start);
  const periodEnd = str(data.period_end);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(periodStart) || !/^\d{4}-\d{2}-\d{2}$/.test(periodEnd)) return undefined;
  const lines: ReflectionLine[] = [];
  let date = periodStart;
  for (const raw of fm.body.split(/\r?\n/)) {
    const header = /^##\s+(\d{4}-\d{2}-\d{2})/.exec(raw);
    if (header) {
      date = header[1]!;
      continue;
    }
    const bullet = /^[-*+]\s+(.*)$/.exec(raw);
    if (!bullet) continue;
    const parsed = parseObservationContent(bullet[1]!);
    if (!parsed) continue;
    lines.push({ date, priority: parsed.priority, done: parsed.done, category: parsed.category, text: parsed.text, tags: parsed.tags });
  }
  return {
    path,
    meta: {
      periodStart,
      periodEnd,
      agent: str(data.agent) || DEFAULT_AGENT,
      reflector: str(data.reflector),
      created: str(data.created),
      tokensBefore: num(data.tokens_before),
      tokensAfter: num(data.tokens_after),
      compressionRatio: num(data.compression_ratio),
      keywordPreservation: num(data.keyword_preservation),
      sourceObservations: Array.isArray(data.source_observations) ? data.source_observations.map(str).filter(Boolean) : [],
    },
    lines,
  };
}

/** Every reflection of an agent, oldest period first. Files that are not reflections are skipped. */
export async function listReflections(paths: HomePaths, agent: string): Promise<ReflectionFile[]> {
  const dir = reflectionsDir(paths, agent);
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => e.name);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const out: ReflectionFile[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    try {
      const parsed = parseReflectionFile(await readFile(path, 'utf8'), path);
      if (parsed) out.push(parsed);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return out.sort((a, b) => a.meta.periodStart.localeCompare(b.meta.periodStart) || a.path.localeCompare(b.path));
}
