/**
 * Generated bench homes kept between runs: the 100k-observation home of the
 * `mcp` and `plugin` sections, with its seeded model vectors
 * (embed-bench.ts seedLocalVectors) and its hybrid index, took minutes to
 * make (writing the day files, indexing, embedding the pool, hashing every
 * text, indexing again) before any figure was measured. Made once, it is
 * kept under `.cache/bench-fixtures/<name>/` (an ignored path) and copied
 * into the next run's temporary folder: a rerun measures the same home from
 * its first second.
 *
 * A kept home is reused only for the same key: FIXTURE_GENERATION (raise it
 * when the corpus generator, the seeding or what the sections put in the home
 * changes), the section's own parts (n, pool size) and the index and model
 * versions the home was indexed with (another segment format or model would
 * be rebuilt or re-embedded by the code under test, inside the timings).
 * `--fresh` makes it again. OCM_BENCH_FIXTURES=off keeps nothing.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { LOCAL_MODEL } from '../lib/search/embeddings.js';
import { SEGMENT_FORMAT } from '../lib/search/segment.js';
import { ANALYZER_VERSION } from '../lib/search/tokenizer.js';

/** Raise when bench/search-corpus.ts, seedLocalVectors or a section's home preparation changes what a kept home holds. */
export const FIXTURE_GENERATION = 1;

const ROOT = resolve(import.meta.dirname, '..');

/** Where kept homes live (OCM_BENCH_FIXTURES: another folder, or `off`). */
function fixturesDir(): string | undefined {
  const set = process.env.OCM_BENCH_FIXTURES;
  if (set === 'off') return undefined;
  return set ? resolve(set) : join(ROOT, '.cache', 'bench-fixtures');
}

/** The key of a kept home: the generation, the index and analyzer formats, the model, and the section's own parts. */
export function fixtureKey(parts: Record<string, string | number>): string {
  const all = {
    generation: FIXTURE_GENERATION,
    segment: SEGMENT_FORMAT,
    analyzer: ANALYZER_VERSION,
    model: `${LOCAL_MODEL.package}@${LOCAL_MODEL.version}`,
    ...parts,
  };
  return Object.entries(all)
    .map(([k, v]) => `${k}=${v}`)
    .join(';');
}

interface Kept<M> {
  key: string;
  meta: M;
}

/**
 * The home kept as `name` under `key`, copied to `into` (which must not exist yet), and what was kept with it;
 * undefined when there is none for this key (or `fresh`).
 */
export async function restoreFixture<M>(name: string, key: string, into: string, fresh = false): Promise<M | undefined> {
  const dir = fixturesDir();
  if (!dir || fresh) return undefined;
  const at = join(dir, name);
  let kept: Kept<M>;
  try {
    kept = JSON.parse(await readFile(join(at, 'fixture.json'), 'utf8')) as Kept<M>;
  } catch {
    return undefined;
  }
  if (kept.key !== key || !existsSync(join(at, 'home'))) return undefined;
  // Timestamps kept: the index's file stamps then agree with the memory files (no re-hash inside a timing).
  await cp(join(at, 'home'), into, { recursive: true, preserveTimestamps: true });
  return kept.meta;
}

/** Keep the home at `from` as `name` under `key` (replacing any kept before), with `meta`. */
export async function saveFixture<M>(name: string, key: string, from: string, meta: M): Promise<void> {
  const dir = fixturesDir();
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const at = join(dir, name);
  const next = join(dir, `.${name}.new`);
  await rm(next, { recursive: true, force: true });
  await cp(from, join(next, 'home'), {
    recursive: true,
    preserveTimestamps: true,
    // What a run leaves behind (its logs, the servers' sockets) is not part of the home the next run starts from.
    filter: (src) => src !== join(from, 'logs') && src !== join(from, '.ocm', 'run'),
  });
  await writeFile(join(next, 'fixture.json'), `${JSON.stringify({ key, meta } satisfies Kept<M>, null, 2)}\n`);
  await rm(at, { recursive: true, force: true });
  await rename(next, at);
}

/** A section's home as `keptHome` returns it: what was kept with it, whether it was copied, and the ms it took. */
export type KeptHome<M> = M & { kept: boolean; prepareMs: number };

/**
 * The section's home of `n` observations in `into`: copied from the home kept for `section-n` under these
 * parts, or made by `make` and kept for the next run. `describe` names a kept home's contents for the log.
 */
export async function keptHome<M>(
  into: string,
  fixture: { section: string; n: number; parts: Record<string, string | number> },
  options: { fresh: boolean; log: (s: string) => void; describe: (meta: M) => string },
  make: () => Promise<M>,
): Promise<KeptHome<M>> {
  const started = performance.now();
  const name = `${fixture.section}-${fixture.n}`;
  const key = fixtureKey({ section: fixture.section, n: fixture.n, ...fixture.parts });
  const kept = await restoreFixture<M>(name, key, into, options.fresh);
  if (kept) {
    options.log(`  ${options.describe(kept)}: the kept fixture (.cache/bench-fixtures/${name})`);
    return { ...kept, kept: true, prepareMs: Math.round(performance.now() - started) };
  }
  const made = await make();
  await saveFixture(name, key, into, made);
  return { ...made, kept: false, prepareMs: Math.round(performance.now() - started) };
}
