/**
 * `import` — the way back from `export`, and a way in for notes kept elsewhere:
 *
 * - an OC-Memory export (JSON or CSV, as lib/tiers/export.ts writes it): every
 *   record with its id, date, time, priority, category, tags, mark and
 *   provenance; a record whose id is already in any tier of the home is left
 *   alone, so importing the same export twice adds nothing;
 * - a folder of Markdown notes (an Obsidian vault, a basic-memory folder):
 *   each list item or paragraph of each note is one observation (headings,
 *   code, the frontmatter and Obsidian's own folders are not), dated by the
 *   note's frontmatter `date`, else a date in its file name, else its
 *   modification day; tagged with its `#tags` and the note's `tags`; its
 *   provenance is the file (`markdown <agent> file:<path in the folder>`).
 *   Ids come from the content and the file, so a second import of the same
 *   folder adds only what is new. A note that is an OC-Memory day file (the
 *   vault's own cold notes, a copied memory folder) gives its observations
 *   with their ids, so they are never imported a second time as notes.
 *
 * Everything imported is untrusted text: it is masked as transcripts are
 * before it is written. New observations go into the hot tier's day files
 * through the same buffer the observe job writes with (merged with edits on
 * disk, atomic writes); the next tier step moves old days on by age.
 *
 * `importExportText` is the entry point for text that is an export already in
 * hand (a decrypted backup or export, for instance).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { Config } from '../config/config-schema.js';
import type { Category, Observation, ObservationMark, Priority } from '../core/types.js';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import { filesUnder } from '../platform/files-under.js';
import { collectExport, parseExport, type ExportRecord } from './export.js';

export interface ImportResult {
  /** Records read from the export or observations found in the notes. */
  read: number;
  added: number;
  /** Already in the home (same id): left as they are. */
  present: number;
  /** Day files written. */
  days: number;
}

export interface ImportOptions {
  paths: HomePaths;
  config: Config;
  /** Count only; write nothing. */
  dryRun?: boolean;
}

const PRIORITIES = new Set<Priority>(['high', 'medium', 'low']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An export's text, JSON or CSV (told apart by its first character). */
export function parseExportText(text: string): ExportRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  const json = body.trimStart().startsWith('{');
  if (!json && !/^"?id"?,/.test(body)) {
    throw new OcmError('BAD_INPUT', 'Not an OC-Memory export: neither its JSON nor its CSV (with the header id,date,…).', {
      hint: 'Import a file written by `ocm-run export`, or a folder of Markdown notes.',
    });
  }
  try {
    return parseExport(body, json ? 'json' : 'csv');
  } catch (error) {
    if (error instanceof OcmError) throw error;
    throw new OcmError('BAD_INPUT', `Not an OC-Memory export: ${(error as Error).message.slice(0, 200)}.`, {
      hint: 'Import a file written by `ocm-run export`, or a folder of Markdown notes.',
      cause: error,
    });
  }
}

/** Import an OC-Memory export already read (a decrypted backup or export, for instance). */
export async function importExportText(options: ImportOptions & { text: string }): Promise<ImportResult> {
  return importRecords({ ...options, records: parseExportText(options.text) });
}

/** Write the records the home does not hold yet (by id) into the hot tier's day files. */
export async function importRecords(options: ImportOptions & { records: ExportRecord[] }): Promise<ImportResult> {
  const { maskedText } = await import('../masking/masking.js');
  const { maskingOptions } = await import('../sources/registry.js');
  const masking = maskingOptions(options.config);
  const known = new Set((await collectExport(options.paths, options.config)).map((r) => r.id));
  const fresh: Observation[] = [];
  let present = 0;
  for (const r of options.records) {
    if (known.has(r.id)) {
      present++;
      continue;
    }
    known.add(r.id);
    fresh.push(toObservation(r, (text) => maskedText(text, masking)));
  }
  if (options.dryRun || fresh.length === 0)
    return { read: options.records.length, added: fresh.length, present, days: new Set(fresh.map((o) => `${o.agent}/${o.date}`)).size };
  const { DayFileBuffer } = await import('../memory/day-file-buffer.js');
  const buffer = new DayFileBuffer(options.paths, options.config.timezone || undefined);
  const added = await buffer.add(fresh);
  await buffer.flush();
  return {
    read: options.records.length,
    added,
    present: present + (fresh.length - added),
    days: new Set(fresh.map((o) => `${o.agent}/${o.date}`)).size,
  };
}

function toObservation(r: ExportRecord, mask: (text: string) => string): Observation {
  if (typeof r.id !== 'string' || !/^o-[0-9a-f]{6,}$/.test(r.id) || typeof r.text !== 'string' || !DATE.test(String(r.date))) {
    throw new OcmError('BAD_INPUT', `Not an observation record: ${JSON.stringify(r).slice(0, 120)}.`, {
      hint: 'Import a file written by `ocm-run export`, or a folder of Markdown notes.',
    });
  }
  const o: Observation = {
    id: r.id,
    date: r.date,
    time: /^\d{2}:\d{2}$/.test(r.time ?? '') ? r.time : '00:00',
    priority: PRIORITIES.has(r.priority) ? r.priority : 'medium',
    done: r.done === true,
    category: (r.category || 'fact') as Category,
    text: mask(r.text.replace(/\s+/g, ' ').trim()),
    tags: Array.isArray(r.tags) ? r.tags.filter((t) => typeof t === 'string' && t !== '') : [],
    agent: r.agent || 'main',
  };
  if (r.provenance) o.provenance = { ...r.provenance, session: r.provenance.session || 'import' };
  const mark = (r as ExportRecord & { mark?: ObservationMark }).mark;
  if (mark) o.mark = mark;
  return o;
}

/** One observation per list item or paragraph of every Markdown note under `dir`. */
export async function markdownFolderRecords(dir: string, options: { agent: string; category?: string }): Promise<ExportRecord[]> {
  const { listObservations, parseDayFile } = await import('../memory/day-file/index.js');
  const [{ observationId }, { unified }, { default: remarkParse }, { readFrontmatterYaml, splitFrontmatter }] = await Promise.all([
    import('../memory/observation-line.js'),
    import('unified'),
    import('remark-parse'),
    import('../memory/frontmatter.js'),
  ]);
  const markdownTree = (text: string) => unified().use(remarkParse).parse(text);
  let files: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
    files = (await filesUnder(dir, { suffix: '.md', skipDotFolders: true })).sort();
  } catch (error) {
    throw new OcmError('NOT_FOUND', `Cannot read the notes folder ${dir}: ${(error as Error).message}.`, {
      hint: 'Name a folder of Markdown notes (an Obsidian vault, a basic-memory folder) or an export file.',
    });
  }
  const out: ExportRecord[] = [];
  for (const path of files) {
    const rel = relative(dir, path).split(sep).join('/');
    const raw = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    // An OC-Memory day file (a cold note in the vault, a copied memory folder): its observations, ids kept.
    const own = listObservations(parseDayFile(raw), {
      date: /(\d{4}-\d{2}-\d{2})/.exec(basename(path))?.[1] ?? '',
      agent: options.agent,
      tier: 'hot',
    });
    if (own.length > 0 && own.every((o) => DATE.test(o.date))) {
      for (const o of own) out.push({ ...o, tier: 'hot', path, ...(o.provenance ? { provenance: o.provenance } : {}) });
      continue;
    }
    const fm = splitFrontmatter(raw);
    let data: Record<string, unknown> = {};
    try {
      data = fm ? readFrontmatterYaml(fm.yaml) : {};
    } catch {
      /* a broken frontmatter: the body is still notes */
    }
    const date =
      dateOf(data.date) ??
      dateOf(data.created) ??
      /(\d{4}-\d{2}-\d{2})/.exec(basename(path))?.[1] ??
      (await stat(path)).mtime.toISOString().slice(0, 10);
    const noteTags = (Array.isArray(data.tags) ? data.tags : typeof data.tags === 'string' ? data.tags.split(/[\s,]+/) : [])
      .map((t) => String(t).replace(/^#/, ''))
      .filter(Boolean);
    const body = fm ? fm.body : raw;
    for (const text of noteBlocks(markdownTree(body) as unknown as MdNode, body)) {
      const tags = [...new Set([...noteTags, ...[...text.matchAll(/(?:^|\s)#([\p{L}\p{N}_/-]+)/gu)].map((m) => m[1]!)])];
      const category = options.category ?? 'fact';
      const session = `file:${encodeURI(rel)}`;
      out.push({
        id: observationId({ agent: options.agent, session, category, text }),
        date,
        time: '00:00',
        tier: 'hot',
        agent: options.agent,
        priority: 'medium',
        done: /^\[[xX]\]\s/.test(text),
        category,
        text: text.replace(/^\[[ xX]\]\s+/, ''),
        tags,
        path: join(dir, rel),
        provenance: { source: 'markdown', agent: options.agent, session, entryIds: [] },
      });
    }
  }
  return out;
}

interface MdNode {
  type: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/** The text of each list item (its own paragraph, nested items on their own) and each top-level paragraph. */
function noteBlocks(root: MdNode, body: string): string[] {
  const out: string[] = [];
  const textOf = (node: MdNode) => {
    const s = node.position?.start.offset;
    const e = node.position?.end.offset;
    return s === undefined || e === undefined ? '' : body.slice(s, e).replace(/\s+/g, ' ').trim();
  };
  const visit = (nodes: MdNode[] | undefined, inItem: boolean) => {
    for (const node of nodes ?? []) {
      if (node.type === 'list') for (const item of node.children ?? []) visit(item.children, true);
      else if (node.type === 'paragraph') {
        const text = textOf(node);
        if (text !== '' && !/^\^[\w-]+$/.test(text)) out.push(text);
      } else if (node.type === 'blockquote' && !inItem) visit(node.children, false);
    }
  };
  visit(root.children, false);
  return out;
}

function dateOf(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return undefined;
  return /^(\d{4}-\d{2}-\d{2})/.exec(value.trim())?.[1];
}
