/**
 * The cold tier inside the user's Obsidian vault (docs/tiers-and-sync.md):
 * `<vault>/OC-Memory/[<agent>/]YYYY/YYYY-MM-DD.md`.
 *
 * A cold note is still a day file (lib/memory/day-file/ reads it like any other),
 * dressed for Obsidian: frontmatter `date, tags, type, tier, aliases`, tags on
 * the observations, block ids (`^o-…`) kept so links to observations survive,
 * and under the title a header rendered from templates/cold-note.md with
 * wikilinks to the previous and next day and to the reflections that cover
 * the day, so graph view shows how the days connect. Obsidian's search reads
 * the plain text.
 *
 * The vault is created from `vault-template/` when missing; an existing vault
 * only gets the `OC-Memory/` folder and its README note.
 */
import { cp, mkdir, readFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { dateFromFileName, parseDayFile, setFrontmatter, type DayFile } from '../memory/day-file/index.js';
import { DEFAULT_AGENT, expandHome, type HomePaths, exists } from '../platform/home.js';
import { packagePath } from '../platform/package-root.js';
import { filesUnder } from '../platform/files-under.js';
import { fromSystemError } from '../core/errors.js';
import { VAULT_FOLDER, VAULT_REFLECTIONS } from './locations.js';

export const COLD_NOTE_TYPE = 'oc-memory-day';

export interface VaultSetup {
  root: string;
  /** 'vault': the whole vault was created from the template; 'folder': only OC-Memory/ in an existing vault. */
  created?: 'vault' | 'folder';
}

/** Make sure the vault and its OC-Memory folder exist (idempotent). */
export async function ensureVault(vaultPath: string, templateDir = packagePath('vault-template')): Promise<VaultSetup> {
  const root = expandHome(vaultPath.trim());
  try {
    if (!(await exists(root))) {
      await cp(templateDir, root, { recursive: true, errorOnExist: false, force: false });
      return { root, created: 'vault' };
    }
    const folder = join(root, VAULT_FOLDER);
    if (!(await exists(folder))) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await cp(join(templateDir, VAULT_FOLDER), folder, { recursive: true, errorOnExist: false, force: false });
      return { root, created: 'folder' };
    }
    return { root };
  } catch (error) {
    throw fromSystemError(error, `create the Obsidian vault folder at ${root}`);
  }
}

/** A vault-relative wikilink target without `.md`, with `/` separators. */
export function wikiTarget(vaultRoot: string, path: string): string {
  return relative(vaultRoot, path).split(sep).join('/').replace(/\.md$/, '');
}

export function wikilink(target: string, label?: string): string {
  return label && label !== target ? `[[${target}|${label}]]` : `[[${target}]]`;
}

/** The user's template in the home wins over the bundled one. */
export async function loadColdNoteTemplate(paths: HomePaths): Promise<string> {
  try {
    return await readFile(join(paths.root, 'templates', 'cold-note.md'), 'utf8');
  } catch {
    return readFile(packagePath('templates', 'cold-note.md'), 'utf8');
  }
}

/** Render the template: drop its leading comment, fill placeholders, leave out lines that stay empty. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  const body = template.replace(/^\s*<!--[\s\S]*?-->[ \t]*\r?\n?/, '');
  const lines: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    const names = [...line.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
    if (names.length > 0 && names.every((n) => !values[n])) continue;
    lines.push(line.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, n: string) => values[n] ?? ''));
  }
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines.join('\n');
}

export interface ReflectionCover {
  /** Path of the reflection in the home. */
  path: string;
  name: string;
  start: string;
  end: string;
}

function dateOf(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
  return m?.[1];
}

/**
 * Reflections in <home>/reflections/ with their period (frontmatter
 * `period_start` / `period_end`, as the Reflector writes them).
 */
export async function listReflectionPeriods(paths: HomePaths): Promise<ReflectionCover[]> {
  const out: ReflectionCover[] = [];
  for (const p of await filesUnder(paths.reflections, { suffix: '.md', skipDotFolders: true })) {
    const fm = parseDayFile(await readFile(p, 'utf8')).frontmatter.data;
    const start = dateOf(fm.period_start) ?? dateOf(fm.from);
    const end = dateOf(fm.period_end) ?? dateOf(fm.to) ?? start;
    if (start && end) out.push({ path: p, name: basename(p, '.md'), start, end });
  }
  return out.sort((a, b) => a.start.localeCompare(b.start) || a.name.localeCompare(b.name));
}

export function reflectionCopyPath(coldRoot: string, reflection: ReflectionCover): string {
  return join(coldRoot, VAULT_REFLECTIONS, `${reflection.name}.md`);
}

export interface ColdNoteInput {
  /** The day file as it is in hot or warm. */
  source: DayFile;
  date: string;
  agent: string;
  vaultRoot: string;
  /** Paths (in the vault) of the cold notes of the previous and next day, when there are such days. */
  prev?: string;
  next?: string;
  /** Paths (in the vault) of the reflection copies covering the day. */
  reflections: string[];
  template: string;
}

/** Dress a day file for the vault. The observations, their ids and any notes stay as they are. */
export function toColdNote(input: ColdNoteInput): DayFile {
  const file = input.source;
  const date = typeof file.frontmatter.data.date === 'string' ? file.frontmatter.data.date : input.date;
  const agent = typeof file.frontmatter.data.agent === 'string' ? file.frontmatter.data.agent : input.agent;
  setFrontmatter(file, 'date', date);
  setFrontmatter(file, 'tier', 'cold');
  setFrontmatter(file, 'agent', agent);
  if (!Array.isArray(file.frontmatter.data.tags)) setFrontmatter(file, 'tags', []);
  setFrontmatter(file, 'type', COLD_NOTE_TYPE);
  setFrontmatter(file, 'aliases', [agent === DEFAULT_AGENT ? `OC-Memory ${date}` : `OC-Memory ${agent} ${date}`]);
  const link = (p: string | undefined) => {
    if (!p) return '';
    const target = wikiTarget(input.vaultRoot, p);
    return wikilink(target, dateFromFileName(p) ?? basename(target));
  };
  const prev = link(input.prev);
  const next = link(input.next);
  const nav = [prev ? `← ${prev}` : '', next ? `${next} →` : ''].filter(Boolean).join(' · ');
  const reflections = input.reflections.map((p) => wikilink(wikiTarget(input.vaultRoot, p), basename(p, '.md'))).join(', ');
  const header = renderTemplate(input.template, {
    date,
    agent,
    nav,
    prev: prev ? `← ${prev}` : '',
    next: next ? `${next} →` : '',
    reflections,
  });
  if (header.trim()) {
    const at = file.segments.findIndex((s) => s.kind === 'obs');
    const segment = { kind: 'raw' as const, text: `${header}\n\n` };
    if (at === -1) file.segments.push({ kind: 'raw', text: `\n${header}\n` });
    else {
      // Keep a blank line between the title block and the header.
      const before = file.segments[at - 1];
      if (before && before.kind === 'raw' && !before.text.endsWith('\n\n')) before.text += before.text.endsWith('\n') ? '\n' : '\n\n';
      file.segments.splice(at, 0, segment);
    }
  }
  return file;
}
