/**
 * Is there anything in the move journal (.ocm/ops, see ops.ts) for recovery
 * to do? Every tick asks; almost always the answer is no (committed ops stay
 * for rollback), and answering it here needs neither ops.ts nor its hashing
 * and audit modules. Conservative: anything recovery would act on — an op
 * without a readable manifest, a "prepared" op, a folder name recovery would
 * reject, an error other than "no journal" — counts as pending, so recovery
 * itself runs and acts or reports exactly as before.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../platform/home.js';
import { isNotFound } from '../core/errors.js';

const OP_ID = /^op-[0-9A-Za-z-]+$/;

export async function hasPendingOps(paths: HomePaths): Promise<boolean> {
  const dir = join(paths.machine, 'ops');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.startsWith('op-'));
  } catch (error) {
    return !isNotFound(error);
  }
  for (const id of names) {
    if (!OP_ID.test(id)) return true;
    try {
      const manifest = JSON.parse(await readFile(join(dir, id, 'op.json'), 'utf8')) as { state?: unknown } | null;
      if (manifest?.state === 'prepared') return true;
    } catch {
      return true;
    }
  }
  return false;
}
