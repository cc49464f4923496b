/** Read every observation of a memory home, for comparing end states. */
import { listHotDayFiles, readObservations } from '../../lib/memory/memory-files.js';
import { homePaths } from '../../lib/platform/home.js';

export interface ObservationRow {
  id: string;
  agent: string;
  date: string;
  time: string;
  category: string;
  priority: string;
  text: string;
  entryIds: string;
}

export async function snapshotObservations(home: string): Promise<ObservationRow[]> {
  const paths = homePaths(home);
  const rows = (await readObservations(await listHotDayFiles(paths))).map((o) => ({
    id: o.id,
    agent: o.agent,
    date: o.date,
    time: o.time,
    category: o.category,
    priority: o.priority,
    text: o.text,
    entryIds: o.provenance?.entryIds.join(',') ?? '',
  }));
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}
