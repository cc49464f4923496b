/**
 * `ocm-run mark <id> done | superseded-by <id> | clear`: set or clear an
 * observation's lifecycle mark by hand (README, "File formats"), in whatever
 * tier its day file is, under the home lock; then the search index and, for a
 * hot file, the agent's active memory follow at once. The line is re-written
 * with its mark; every other byte of the file stays as it was.
 */
import { isAbsolute, join } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { OcmError } from '../core/errors.js';
import type { ObservationMark } from '../core/types.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';

export type MarkRequest = { kind: 'done' } | { kind: 'superseded'; by: string } | { kind: 'clear' };

export interface MarkOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
}

export interface MarkResult {
  id: string;
  path: string;
  mark: ObservationMark | undefined;
}

export async function markObservation(options: MarkOptions, id: string, request: MarkRequest): Promise<MarkResult> {
  const { paths, config, logger, now } = options;
  const [
    { getObservation, normaliseIdTarget },
    { withHomeLock, HOME_LOCK_WAIT_MS },
    { markInFile },
    { updateIndex },
    { localDateTime, resolveTimeZone },
  ] = await Promise.all([
    import('../search/get.js'),
    import('../platform/lock.js'),
    import('../memory/lifecycle-file.js'),
    import('../search/indexer.js'),
    import('../platform/time-zone.js'),
  ]);
  const target = normaliseIdTarget(id);
  const found = await getObservation(paths, config, target, { logger, now });
  if (!found)
    throw new OcmError('NOT_FOUND', `No observation with id ${target}.`, {
      hint: 'Ids look like o-7f3a9c21e0 (the ^o-… at the end of a line); `ocm-run search` shows them.',
    });
  let by: string | undefined;
  if (request.kind === 'superseded') {
    by = normaliseIdTarget(request.by);
    if (by === target)
      throw new OcmError('BAD_INPUT', `${target} cannot supersede itself.`, { hint: 'Name the newer observation that replaces it.' });
    if (!(await getObservation(paths, config, by, { logger, now }))) {
      throw new OcmError('NOT_FOUND', `No observation with id ${by} to supersede ${target}.`, {
        hint: 'Name the newer observation by its id (`ocm-run search` shows it).',
      });
    }
  }
  const zone = resolveTimeZone(config.timezone);
  const date = localDateTime(now(), zone).date;
  const mark: ObservationMark | undefined = request.kind === 'clear' ? undefined : { kind: request.kind, date, ...(by ? { by } : {}) };
  const path = isAbsolute(found.path) ? found.path : join(paths.root, found.path);
  await withHomeLock(
    paths.lock,
    async () => {
      const made = await markInFile(path, [{ id: target, mark }]);
      if (made === undefined) {
        throw new OcmError('BAD_INPUT', `${found.path} cannot be rewritten (its frontmatter is broken, or it is gone).`, {
          hint: 'Fix the YAML between the --- lines, or run `ocm-run index` if the file moved, then mark again.',
          details: { path },
        });
      }
      await updateIndex(paths, config, { logger, now });
      if (found.tier === 'hot') {
        const { rebuildActiveMemory } = await import('../memory/active-memory-file.js');
        await rebuildActiveMemory({ paths, config, agent: found.agent, timeZone: zone, now: now() });
      }
    },
    { waitMs: HOME_LOCK_WAIT_MS },
  );
  logger.log('info', 'mark', { id: target, mark: mark?.kind ?? 'clear', by });
  return { id: target, path: found.path, mark };
}
