/**
 * The observations of a parsed day file, as the rest of the program reads them.
 */
import type { DayFile, FileContext, LocatedObservation } from './model.js';
import { parseProvenance, provenanceMap } from './provenance.js';

/** Every observation in the file, with date/agent from frontmatter (or context) and provenance. */
export function listObservations(file: DayFile, context: FileContext = {}): LocatedObservation[] {
  const fmDate = typeof file.frontmatter.data.date === 'string' ? file.frontmatter.data.date : undefined;
  const date = fmDate ?? context.date ?? '';
  const agent = typeof file.frontmatter.data.agent === 'string' ? file.frontmatter.data.agent : (context.agent ?? 'main');
  const fileZone = dayFileZone(file);
  const prov = provenanceMap(file);
  const out: LocatedObservation[] = [];
  for (const seg of file.segments) {
    if (seg.kind !== 'obs') continue;
    const l = seg.line;
    const provenance = l.id ? parseProvenance(prov[l.id]) : undefined;
    out.push({
      id: l.id ?? `line-${l.startLine}`,
      date,
      time: l.time,
      ...(l.offset ? { zone: l.offset } : fileZone ? { zone: fileZone } : {}),
      priority: l.priority,
      done: l.done,
      category: l.category,
      text: l.text,
      tags: l.tags,
      agent,
      ...(provenance ? { provenance } : {}),
      ...(l.mark ? { mark: l.mark } : {}),
      startLine: l.startLine,
      endLine: l.endLine,
    });
  }
  return out;
}

/** The zone the file's times are in (its `time_zone` key), when it says. */
export function dayFileZone(file: DayFile): string | undefined {
  const zone = file.frontmatter.data.time_zone;
  return typeof zone === 'string' && zone !== '' ? zone : undefined;
}

export function observationIds(file: DayFile): Set<string> {
  const ids = new Set<string>();
  for (const seg of file.segments) if (seg.kind === 'obs' && seg.line.id) ids.add(seg.line.id);
  return ids;
}

/** Date (YYYY-MM-DD) from a day file's name, if it has one. */
export function dateFromFileName(path: string): string | undefined {
  const m = /(\d{4}-\d{2}-\d{2})(?:[^/\\]*)?\.md$/.exec(path);
  return m?.[1];
}
