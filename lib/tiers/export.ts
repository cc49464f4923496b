/**
 * `export` — data portability: every observation of the chosen tiers with
 * its metadata and provenance, as JSON or CSV (csv-stringify / csv-parse:
 * quoting, embedded newlines and commas are handled by a tested library).
 * `parseExport` reads either format back, so an export round-trips.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import type { Config } from '../config/config-schema.js';
import { listObservations, parseDayFile } from '../memory/day-file/index.js';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Priority, Tier } from '../core/types.js';
import { auditPath } from './audit.js';
import { listAllTierFiles } from './locations.js';

export const EXPORT_FORMAT = 'oc-memory-export';
export const EXPORT_VERSION = 1;

/** The file formats an export is written in. */
export type ExportFormat = 'json' | 'csv';

export interface ExportRecord {
  id: string;
  date: string;
  time: string;
  tier: Tier;
  agent: string;
  priority: Priority;
  done: boolean;
  category: string;
  text: string;
  tags: string[];
  /** Where it lives: relative to the home, or absolute in the vault. */
  path: string;
  provenance?: { source: string; agent: string; session: string; entryIds: string[] };
}

export const CSV_COLUMNS = [
  'id',
  'date',
  'time',
  'tier',
  'agent',
  'priority',
  'done',
  'category',
  'text',
  'tags',
  'source',
  'source_agent',
  'session',
  'entry_ids',
  'path',
] as const;

const TIER_ORDER: Record<Tier, number> = { hot: 0, warm: 1, cold: 2 };

export async function collectExport(paths: HomePaths, config: Config, tiers: Tier[] = ['hot', 'warm', 'cold']): Promise<ExportRecord[]> {
  const out: ExportRecord[] = [];
  for (const f of await listAllTierFiles(paths, config.tiers.vault_path, tiers)) {
    let text: string;
    try {
      text = await readFile(f.path, 'utf8');
    } catch {
      continue;
    }
    for (const o of listObservations(parseDayFile(text), { date: f.date, agent: f.agent, tier: f.tier })) {
      out.push({
        id: o.id,
        date: o.date || f.date,
        time: o.time,
        tier: f.tier,
        agent: o.agent,
        priority: o.priority,
        done: o.done,
        category: o.category,
        text: o.text,
        tags: o.tags,
        path: auditPath(paths.root, f.path),
        ...(o.provenance ? { provenance: { ...o.provenance, source: String(o.provenance.source) } } : {}),
      });
    }
  }
  return out.sort(
    (a, b) =>
      a.date.localeCompare(b.date) || a.time.localeCompare(b.time) || TIER_ORDER[a.tier] - TIER_ORDER[b.tier] || a.id.localeCompare(b.id),
  );
}

export function formatExport(records: ExportRecord[], format: ExportFormat, exportedAt: Date): string {
  if (format === 'json') {
    return `${JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: exportedAt.toISOString(), count: records.length, observations: records }, null, 2)}\n`;
  }
  const rows = records.map((r) => [
    r.id,
    r.date,
    r.time,
    r.tier,
    r.agent,
    r.priority,
    r.done ? 'true' : 'false',
    r.category,
    r.text,
    r.tags.join(' '),
    r.provenance?.source ?? '',
    r.provenance?.agent ?? '',
    r.provenance?.session ?? '',
    r.provenance ? JSON.stringify(r.provenance.entryIds) : '',
    r.path,
  ]);
  return stringifyCsv(rows, { header: true, columns: [...CSV_COLUMNS], record_delimiter: '\n' });
}

function bad(message: string): OcmError {
  return new OcmError('BAD_INPUT', message, { hint: 'Pass a file written by `ocm-run export` (JSON or CSV).' });
}

/** Read an export back (JSON or CSV). */
export function parseExport(text: string, format: ExportFormat): ExportRecord[] {
  if (format === 'json') {
    const data = JSON.parse(text) as { format?: string; observations?: ExportRecord[] };
    if (data.format !== EXPORT_FORMAT || !Array.isArray(data.observations)) throw bad('Not an OC-Memory JSON export.');
    return data.observations;
  }
  const rows = parseCsv(text, { columns: true, skip_empty_lines: true, relax_column_count: false }) as Array<
    Record<(typeof CSV_COLUMNS)[number], string>
  >;
  return rows.map((r) => {
    if (r.id === undefined || r.text === undefined) throw bad('Not an OC-Memory CSV export (columns missing).');
    const rec: ExportRecord = {
      id: r.id,
      date: r.date,
      time: r.time,
      tier: r.tier as Tier,
      agent: r.agent,
      priority: r.priority as Priority,
      done: r.done === 'true',
      category: r.category,
      text: r.text,
      tags: r.tags ? r.tags.split(' ') : [],
      path: r.path,
    };
    if (r.source)
      rec.provenance = {
        source: r.source,
        agent: r.source_agent,
        session: r.session,
        entryIds: r.entry_ids ? (JSON.parse(r.entry_ids) as string[]) : [],
      };
    return rec;
  });
}
