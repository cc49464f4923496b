/**
 * A memory home where one secret sits everywhere `forget` must reach: day
 * files of every tier, a rollback copy of a tier move, a reflection, a log
 * line, the search index, the embedding cache (from a real local embeddings
 * server), the query cache and active memory. Used by the forget tests.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from './cli.js';
import { filesUnder } from './files-under.js';
import { embeddingServer as conceptEmbeddingServer, type Server as EmbeddingServer } from './embedding-server.js';
import { makeObservation, newHome, spread, testConfig, writeHot } from './tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import type { HomePaths } from '../../lib/platform/home.js';
import { addDays } from '../../lib/tiers/age.js';
import { approveProposals, runTierJob } from '../../lib/tiers/tier-job.js';
import { textHash } from '../../lib/search/vectors.js';
import type { Observation } from '../../lib/core/types.js';

export const SECRET = 'my home address is 42 Wallaby Way, Sydney';

/** The key secretHome's config gives the embeddings endpoint. */
const API_KEY = 'sk-test';

/** The shared local embeddings server (embedding-server.ts), answering secretHome's key. */
export function embeddingServer(): Promise<EmbeddingServer> {
  return conceptEmbeddingServer(API_KEY);
}

/** Every file under the roots whose bytes hold one of the needles. */
export async function filesContaining(roots: string[], needles: Array<string | Buffer>): Promise<string[]> {
  const hits: string[] = [];
  for (const root of roots) {
    for (const file of await filesUnder(root)) {
      const bytes = await readFile(file);
      if (needles.some((n) => bytes.includes(n))) hits.push(file);
    }
  }
  return hits;
}

export interface SecretHome {
  paths: HomePaths;
  vault: string;
  /** The three observations holding the secret (hot, warm, cold). */
  secrets: Observation[];
  /** The secret's text and its vectors' hashes: no file may hold one after forget. */
  needles: Buffer[];
  /** Home and vault. */
  everywhere: string[];
}

export async function secretHome(dir: string, embeddingsUrl: string, today: string): Promise<SecretHome> {
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  const configYaml = [
    'timezone: UTC',
    'sources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}',
    `tiers: {vault_path: ${JSON.stringify(vault)}}`,
    `embeddings: {enabled: true, provider: custom, model: concept-64, api_base: ${JSON.stringify(embeddingsUrl)}, api_key: ${API_KEY}}`,
    '',
  ].join('\n');
  await writeFile(paths.config, configYaml);
  const config = testConfig({
    tiers: { vault_path: vault },
    embeddings: { enabled: true, provider: 'custom', model: 'concept-64', api_base: embeddingsUrl, api_key: API_KEY },
  });
  // The secret in each tier (and in a recent day, so active memory holds it), among other observations.
  const secretIn = (i: number, age: number) =>
    makeObservation(i, addDays(today, -age), { text: `${SECRET} (note ${i}).`, priority: 'high' });
  const secrets = [secretIn(9001, 1), secretIn(9002, 120), secretIn(9003, 400)];
  await writeHot(paths, [
    ...spread(30, 0, 10, today, 0),
    ...spread(30, 100, 200, today, 100),
    ...spread(10, 380, 420, today, 200),
    ...secrets,
  ]);
  await writeFile(
    join(paths.reflections, 'r1.md'),
    `---\nperiod_start: ${addDays(today, -420)}\nperiod_end: ${addDays(today, -380)}\n---\n# Reflection\n\n- The ` +
      `user said ${SECRET} (note 9003). ^${secrets[2]!.id}\n- Other things happened.\n`,
  );
  await mkdir(paths.logs, { recursive: true });
  await writeFile(
    join(paths.logs, 'observer.log'),
    `${JSON.stringify({ event: 'debug', text: `${SECRET} (note 9001).` })}\n${JSON.stringify({ event: 'other' })}\n`,
  );
  // Tier moves leave rollback copies that hold the text too; then index (with vectors) and active memory.
  const options = { paths, config, logger: createMemoryLogger(), now: () => new Date() };
  await runTierJob(options);
  await approveProposals(options, ['all']);
  const run = await runCli(['run', '--home', paths.root]);
  if (run.code !== 0) throw new Error(`run failed: ${run.stderr}`);
  // The query cache keeps the answer (with its snippet) of a search for it.
  const search = await runCli(['search', 'Wallaby Way', '--tier', 'hot,warm,cold', '--home', paths.root]);
  if (search.code !== 0) throw new Error(`search failed: ${search.stderr}`);
  return {
    paths,
    vault,
    secrets,
    needles: [Buffer.from('Wallaby Way'), ...secrets.map((s) => textHash(s.text))],
    everywhere: [paths.root, vault],
  };
}
