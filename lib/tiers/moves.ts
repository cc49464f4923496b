/**
 * Turning planned moves into file changes: the new content of every
 * destination (whole file, merged day, or dressed cold note) and of every
 * source (removed, or rewritten without the observations that left). Nothing
 * is written here; lib/tiers/ops.ts applies the changes safely.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  appendObservations,
  conflictMarkerLine,
  createDayFile,
  formatDayFile,
  listObservations,
  parseDayFile,
  removeObservations,
  setFrontmatter,
  type DayFile,
  type Segment,
} from '../memory/day-file/index.js';
import type { HomePaths } from '../platform/home.js';
import type { Tier } from '../core/types.js';
import { listReflectionPeriods, reflectionCopyPath, toColdNote, type ReflectionCover } from './vault.js';
import { readBytesIfExists, sha256 } from './files.js';
import { coldRoot, listAllTierFiles, tierFilePath, type TierFile } from './locations.js';
import type { PlannedChange } from './ops.js';
import type { FileFacts, Move } from './plan.js';
import { isNotFound } from '../core/errors.js';

/** Parsed day files from planning, reused by buildMoves when the file has not changed since. */
export type ParsedCache = Map<string, { text: string; day: DayFile }>;

/** Read and parse tier files into the facts planning needs (a few files at a time). */
export async function readFacts(files: TierFile[], cache?: ParsedCache): Promise<FileFacts[]> {
  const out: Array<FileFacts | undefined> = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const file = files[i]!;
      let text: string;
      try {
        text = await readFile(file.path, 'utf8');
      } catch (error) {
        if (isNotFound(error)) continue;
        throw error;
      }
      const day = parseDayFile(text);
      const observations = [];
      for (const seg of day.segments) {
        if (seg.kind !== 'obs') continue;
        observations.push({
          id: seg.line.id,
          priority: seg.line.priority,
          tags: seg.line.tags,
          text: seg.line.text,
          bytes: Buffer.byteLength(seg.raw) + 1,
        });
      }
      const pin = day.frontmatter.data.pin;
      out[i] = { file, observations, pinnedDay: pin === true || pin === 'true', bytes: Buffer.byteLength(text) };
      cache?.set(file.path, { text, day });
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, files.length) }, worker));
  return out.filter((f): f is FileFacts => f !== undefined);
}

export interface MoveContext {
  paths: HomePaths;
  vaultPath: string;
  /** templates/cold-note.md (or the user's copy). */
  coldTemplate: string;
  /** Files parsed while planning (used when unchanged since). */
  parsed?: ParsedCache;
}

export interface BuiltMoves {
  changes: PlannedChange[];
  observations: number;
  bytes: number;
  /** Moves left out, with why (a broken frontmatter cannot be split or merged). */
  skipped: Array<{ path: string; reason: string }>;
  destinations: string[];
}

/** Everything in a day file that is not an observation with an id: the user's notes, hand-written lines. */
function leftoverText(file: DayFile): string {
  let text = '';
  for (const seg of file.segments) {
    if (seg.kind === 'raw') text += seg.text;
    else if (!seg.line.id) text += seg.raw;
    else text += '\n';
  }
  const lines = text.split('\n');
  const heading = lines.findIndex((l) => l.trim() !== '');
  if (heading !== -1 && /^#\s+\d{4}-\d{2}-\d{2}\s*$/.test(lines[heading]!)) lines.splice(heading, 1);
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Append observations (with provenance and nested notes) from one day file to another. */
function mergeInto(dest: DayFile, source: DayFile, ids: Set<string> | 'all', context: { date: string; agent: string }): number {
  const extras = new Map<string, string>();
  for (const seg of source.segments) if (seg.kind === 'obs' && seg.line.id && seg.line.extra) extras.set(seg.line.id, seg.line.extra);
  const real = new Set<string>();
  for (const seg of source.segments) if (seg.kind === 'obs' && seg.line.id) real.add(seg.line.id);
  const chosen = listObservations(source, context)
    .filter((o) => real.has(o.id) && (ids === 'all' || ids.has(o.id)))
    .map(({ startLine: _s, endLine: _e, ...o }) => o);
  const added = appendObservations(dest, chosen);
  for (const seg of dest.segments) {
    if (seg.kind !== 'obs' || !seg.line.id) continue;
    const extra = extras.get(seg.line.id);
    if (extra && !seg.line.extra && !seg.dirty) {
      seg.line.extra = extra;
      seg.raw += extra;
    }
  }
  return added;
}

function appendNotes(dest: DayFile, notes: string): void {
  if (!notes) return;
  const body = dest.segments.map((s: Segment) => (s.kind === 'raw' ? s.text : s.raw)).join('');
  const sep = body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n';
  dest.segments.push({ kind: 'raw', text: `${sep}${notes}\n` });
}

/** Not a day file: empty, or a note without a `date` in its frontmatter and without observations. */
function isPlaceholderNote(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return true;
  const file = parseDayFile(text);
  if (file.frontmatter.error || file.conflict !== undefined) return false;
  return file.frontmatter.data.date === undefined && listObservations(file).length === 0;
}

function fillFrontmatter(file: DayFile, tier: Tier, date: string, agent: string): void {
  if (typeof file.frontmatter.data.date !== 'string') setFrontmatter(file, 'date', date);
  setFrontmatter(file, 'tier', tier);
  if (typeof file.frontmatter.data.agent !== 'string') setFrontmatter(file, 'agent', agent);
}

/** Previous / next day of the same agent, across every tier, by date. */
function neighbours(dates: string[], date: string): { prev?: string; next?: string } {
  let prev: string | undefined;
  let next: string | undefined;
  for (const d of dates) {
    if (d < date && (!prev || d > prev)) prev = d;
    if (d > date && (!next || d < next)) next = d;
  }
  return { prev, next };
}

/** Build the file changes of a batch of moves that all go to the same tier. */
export async function buildMoves(ctx: MoveContext, moves: Move[]): Promise<BuiltMoves> {
  const out: BuiltMoves = { changes: [], observations: 0, bytes: 0, skipped: [], destinations: [] };
  if (moves.length === 0) return out;
  const to = moves[0]!.to;
  let datesByAgent = new Map<string, string[]>();
  let reflections: ReflectionCover[] = [];
  const root = to === 'cold' ? coldRoot(ctx.vaultPath) : undefined;
  if (to === 'cold') {
    if (!root) throw new Error('buildMoves: cold moves need tiers.vault_path');
    datesByAgent = new Map();
    for (const f of await listAllTierFiles(ctx.paths, ctx.vaultPath)) {
      const list = datesByAgent.get(f.agent) ?? [];
      list.push(f.date);
      datesByAgent.set(f.agent, list);
    }
    reflections = await listReflectionPeriods(ctx.paths);
  }
  const vaultRoot = root ? dirname(root) : '';
  const aux = new Map<string, PlannedChange>();

  for (const move of moves) {
    const { source } = move;
    const srcBytes = await readBytesIfExists(source.path);
    if (srcBytes === undefined) {
      out.skipped.push({ path: source.path, reason: 'gone since planning' });
      continue;
    }
    const srcHash = sha256(srcBytes);
    const srcText = srcBytes.toString('utf8');
    const cached = ctx.parsed?.get(source.path);
    const src = cached && cached.text === srcText ? cached.day : parseDayFile(srcText);
    ctx.parsed?.delete(source.path);
    const destPath = tierFilePath(ctx.paths, ctx.vaultPath, to, source.agent, source.date);
    const found = await readBytesIfExists(destPath);
    const destHash = found === undefined ? null : sha256(found);
    // A note at the destination that is not a day file (Obsidian made it when a day link was clicked,
    // and the user may have typed into it) does not stand in for the day: the day is written whole and
    // what the note held is kept under it.
    const placeholder = found !== undefined && isPlaceholderNote(found) ? found.toString('utf8').trim() : undefined;
    const destBytes = placeholder === undefined ? found : undefined;
    const agentName = typeof src.frontmatter.data.agent === 'string' ? src.frontmatter.data.agent : source.agent;
    const context = { date: source.date, agent: agentName };

    let coldDressing: Parameters<typeof toColdNote>[0] | undefined;
    if (to === 'cold' && root) {
      const near = neighbours(datesByAgent.get(source.agent) ?? [], source.date);
      const covering = reflections.filter((r) => r.start <= source.date && source.date <= r.end);
      const copies: string[] = [];
      for (const r of covering) {
        const copy = reflectionCopyPath(root, r);
        copies.push(copy);
        if (!aux.has(copy)) {
          const content = await readFile(r.path);
          const existing = await readBytesIfExists(copy);
          aux.set(copy, { path: copy, role: 'aux', before: existing === undefined ? null : sha256(existing), content, mode: 0o600 });
        }
      }
      coldDressing = {
        source: src,
        date: source.date,
        agent: agentName,
        vaultRoot,
        prev: near.prev && tierFilePath(ctx.paths, ctx.vaultPath, 'cold', source.agent, near.prev),
        next: near.next && tierFilePath(ctx.paths, ctx.vaultPath, 'cold', source.agent, near.next),
        reflections: copies,
        template: ctx.coldTemplate,
      };
    }

    let destContent: string | Uint8Array;
    let srcContent: string | null;
    const conflicted =
      src.conflict !== undefined
        ? { path: source.path, line: src.conflict }
        : destBytes !== undefined
          ? conflictIn(destPath, destBytes)
          : undefined;
    if (conflicted) {
      out.skipped.push({
        path: source.path,
        reason: `${conflicted.path} has unresolved Git conflict markers (<<<<<<< at line ${conflicted.line}); resolve them to let this day move`,
      });
      continue;
    }
    if (src.frontmatter.error) {
      if (!move.whole || destBytes !== undefined) {
        out.skipped.push({ path: source.path, reason: `broken frontmatter (${src.frontmatter.error}); fix it to let this day move` });
        continue;
      }
      destContent = srcBytes;
      srcContent = null;
    } else if (move.whole && destBytes === undefined) {
      if (coldDressing) toColdNote(coldDressing);
      else fillFrontmatter(src, to, source.date, agentName);
      if (placeholder) appendNotes(src, placeholder);
      destContent = formatDayFile(src);
      srcContent = null;
    } else {
      let dest: DayFile;
      if (destBytes !== undefined) {
        dest = parseDayFile(destBytes.toString('utf8'));
        if (dest.frontmatter.error) {
          out.skipped.push({
            path: source.path,
            reason: `${destPath} has a broken frontmatter (${dest.frontmatter.error}); fix it to let this day move`,
          });
          continue;
        }
      } else {
        const zone = src.frontmatter.data.time_zone;
        dest = createDayFile({ date: source.date, agent: agentName, tier: to, ...(typeof zone === 'string' && zone ? { zone } : {}) });
        if (coldDressing) toColdNote({ ...coldDressing, source: dest });
        if (placeholder) appendNotes(dest, placeholder);
      }
      if (move.whole) {
        mergeInto(dest, src, 'all', context);
        appendNotes(dest, leftoverText(src));
        srcContent = null;
      } else {
        const ids = new Set(move.ids);
        mergeInto(dest, src, ids, context);
        removeObservations(src, ids, source.path);
        srcContent = formatDayFile(src);
      }
      destContent = formatDayFile(dest);
    }
    out.changes.push({ path: destPath, role: 'destination', before: destHash, content: destContent, mode: 0o600 });
    out.changes.push({ path: source.path, role: 'source', before: srcHash, content: srcContent, mode: 0o600 });
    out.destinations.push(destPath);
    out.observations += move.observations;
    out.bytes += move.bytes;
  }
  out.changes.push(...aux.values());
  return out;
}

/** The first conflict marker's line of a day file's bytes, when a Git conflict is left unresolved in it. */
function conflictIn(path: string, bytes: Buffer): { path: string; line: number } | undefined {
  const line = conflictMarkerLine(bytes.toString('utf8'));
  return line === undefined ? undefined : { path, line };
}
