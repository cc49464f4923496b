/**
 * What gets indexed: every memory file of every tier, turned into search
 * documents. Day files (hot memory/, warm archive/, cold vault) are parsed
 * only with lib/memory/day-file/; reflections (Markdown with frontmatter, format
 * owned by the Reflector) are read generically: each top-level list item or
 * paragraph is one document, category `reflection`, tier `hot`.
 */
import { createHash } from 'node:crypto';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import type { Root, RootContent } from 'mdast';
import { dateFromFileName, listObservations, parseDayFile } from '../memory/day-file/index.js';
import { readFrontmatterYaml, splitFrontmatter } from '../memory/frontmatter.js';
import { DEFAULT_AGENT } from '../platform/home.js';
import { PRIORITY_EMOJI, TAG_PATTERN } from '../memory/observation-line.js';
import type { Priority, Tier } from '../core/types.js';
import type { SearchDoc } from './types.js';

export { memoryRoots, displayPath, agentFromPath, type MemoryRoot, type SourceKind } from './roots.js';

/** Documents of one day file (any tier). */
export function dayFileDocuments(
  text: string,
  options: { path: string; tier: Tier; agent: string; fileName: string; onPlainText?: () => void },
): SearchDoc[] {
  const file = parseDayFile(text);
  if (file.readAsPlainText) options.onPlainText?.();
  const date = dateFromFileName(options.fileName);
  const observations = listObservations(file, { date, agent: options.agent, tier: options.tier });
  const lines = observations.some((o) => o.endLine > o.startLine) ? text.split(/\r?\n/) : [];
  return observations.map((o) => ({
    id: o.id,
    path: options.path,
    startLine: o.startLine,
    endLine: o.endLine,
    date: o.date,
    time: o.time,
    priority: o.priority,
    done: o.done,
    category: o.category,
    tier: options.tier,
    agent: o.agent,
    tags: o.tags,
    text: withNotes(o.text, lines, o.startLine, o.endLine),
    provenance: o.provenance,
    ...(o.mark ? { mark: o.mark } : {}),
  }));
}

/**
 * An observation's text with the notes a user wrote under it (its item's own lines after the first,
 * up to the next observation: `  - (me) we use Helm 3.14, not 4`, a continued paragraph), so that
 * search finds the item by its notes. List markers, quote marks and a lone `^o-…` block id are not
 * words of a note.
 */
function withNotes(text: string, lines: string[], startLine: number, endLine: number): string {
  if (endLine <= startLine) return text;
  const notes: string[] = [];
  for (const raw of lines.slice(startLine, endLine)) {
    const line = raw
      .replace(/^[\s>]*(?:[-*+]|\d+[.)])?\s*(?:\[[ xX]\]\s*)?/, '')
      .replace(BLOCK_ID, '')
      .trim();
    if (line !== '' && !/^\^[A-Za-z0-9-]+$/.test(line) && !line.startsWith('<!--')) notes.push(line);
  }
  return notes.length === 0 ? text : `${text}\n${notes.join('\n')}`;
}

const EMOJI_TO_PRIORITY = new Map<string, Priority>(Object.entries(PRIORITY_EMOJI).map(([p, e]) => [e, p as Priority]));
const DATE = /\d{4}-\d{2}-\d{2}/g;
const OBSERVATION_REF = /\bo-[0-9a-f]{6,}\b/g;
const BLOCK_ID = /\s+\^([A-Za-z0-9-]+)\s*$/;

function lastDate(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const text = value instanceof Date ? value.toISOString() : value;
  const all = text.match(DATE);
  return all ? all[all.length - 1] : undefined;
}

function sliceLines(lines: string[], start: number, end: number): string {
  return lines.slice(start - 1, end).join('\n');
}

/**
 * Documents of a reflection file: each top-level list item or paragraph.
 * The date is the end of the period the reflection covers (frontmatter `date`,
 * `period_end`, `end`, `until`, `to` or `period`), else the file name's date.
 */
export function reflectionDocuments(text: string, options: { path: string; fileName: string }): SearchDoc[] {
  let data: Record<string, unknown> = {};
  // Read as day files are (lib/memory/frontmatter.ts); a byte-order mark (Windows Notepad) is not part of the text.
  const fm = splitFrontmatter(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const body = fm ? fm.body : text;
  const offset = fm ? fm.lines : 0;
  if (fm) {
    try {
      data = readFrontmatterYaml(fm.yaml);
    } catch {
      /* a broken frontmatter still leaves the body searchable */
    }
  }
  const date =
    lastDate(data.date) ??
    lastDate(data.period_end) ??
    lastDate(data.end) ??
    lastDate(data.until) ??
    lastDate(data.to) ??
    lastDate(data.period) ??
    dateFromFileName(options.fileName) ??
    '';
  const agent = typeof data.agent === 'string' && data.agent ? data.agent : DEFAULT_AGENT;
  const fileTags = Array.isArray(data.tags) ? data.tags.filter((t): t is string => typeof t === 'string') : [];
  const tree = unified().use(remarkParse).parse(body) as Root;
  const lines = body.split('\n');
  const blocks: Array<{ start: number; end: number }> = [];
  const visit = (node: RootContent) => {
    if (node.type === 'list') {
      for (const item of node.children) if (item.position) blocks.push({ start: item.position.start.line, end: item.position.end.line });
    } else if ((node.type === 'paragraph' || node.type === 'blockquote') && node.position) {
      blocks.push({ start: node.position.start.line, end: node.position.end.line });
    }
  };
  for (const child of tree.children) visit(child);
  const docs: SearchDoc[] = [];
  const seen = new Set<string>();
  for (const block of blocks) {
    let raw = sliceLines(lines, block.start, block.end)
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
      .replace(/^>\s?/gm, '')
      .replace(/\s+/g, ' ')
      .trim();
    let priority: Priority = 'medium';
    let done = false;
    for (;;) {
      const m = /^(✅|🔴|🟡|🟢)\uFE0F?\s*/u.exec(raw);
      if (!m) break;
      if (m[1] === '✅') done = true;
      else priority = EMOJI_TO_PRIORITY.get(m[1]!) ?? priority;
      raw = raw.slice(m[0].length);
    }
    let id: string | undefined;
    const b = BLOCK_ID.exec(raw);
    if (b) {
      id = b[1];
      raw = raw.slice(0, b.index).trim();
    }
    if (!raw) continue;
    const tags = [...new Set([...fileTags, ...[...raw.matchAll(TAG_PATTERN)].map((m) => m[1]!)])];
    id ??= `r-${createHash('sha256').update(`${options.path}\u0000${raw}`).digest('hex').slice(0, 10)}`;
    if (seen.has(id)) continue;
    seen.add(id);
    docs.push({
      id,
      path: options.path,
      startLine: block.start + offset,
      endLine: block.end + offset,
      date,
      time: '',
      priority,
      done,
      category: 'reflection',
      tier: 'hot',
      agent,
      tags,
      text: raw,
      provenance: { source: 'reflection', agent, session: options.path, entryIds: [...new Set(raw.match(OBSERVATION_REF) ?? [])] },
    });
  }
  return docs;
}
