/**
 * OpenClaw's own agent-database schema, taken at test time from the real
 * release (never copied into this repository): OpenClaw 2026.9.6 is installed
 * into the agent cache exactly as the end-to-end tests install it
 * (`installOpenClaw`, so one cache folder serves both), and the dist module
 * that exports `OPENCLAW_AGENT_SCHEMA_SQL` is found by its export and imported.
 * The bundler hashes file names and shortens export names, so neither is
 * assumed. Cached per process.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installOpenClaw, OPENCLAW_RELEASES } from './openclaw.js';

/** The release whose schema the tests use; its agent-database schema version is 23. */
export const SCHEMA_RELEASE = OPENCLAW_RELEASES.database;
/** Upper bound for installing it on a fresh cache (a finished install is reused at once). */
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const EXPORT_NAME = 'OPENCLAW_AGENT_SCHEMA_SQL';

let cached: Promise<string> | undefined;

/** `OPENCLAW_AGENT_SCHEMA_SQL` of OpenClaw 2026.9.6 (schema 23), from its installed package. */
export function openClawAgentSchemaSql(): Promise<string> {
  cached ??= load();
  return cached;
}

async function load(): Promise<string> {
  let packageDir: string;
  try {
    ({ packageDir } = await installOpenClaw(SCHEMA_RELEASE, { timeoutMs: INSTALL_TIMEOUT_MS }));
  } catch (error) {
    throw new Error(
      `could not install openclaw@${SCHEMA_RELEASE} from the npm registry, whose agent-database schema these tests use ` +
        `(the repository keeps no copy of it): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const found = await findSchemaModule(join(packageDir, 'dist'));
  const module = (await import(pathToFileURL(found.file).href)) as Record<string, unknown>;
  const sql = module[found.exportedAs];
  if (typeof sql !== 'string' || !/CREATE TABLE IF NOT EXISTS transcript_events\b/.test(sql)) {
    throw new Error(`${found.file}: its export ${found.exportedAs} (${EXPORT_NAME}) is not the agent-database schema SQL`);
  }
  return sql;
}

/** The dist module whose `export { … }` lists OPENCLAW_AGENT_SCHEMA_SQL, and the name it is exported as. */
async function findSchemaModule(dist: string): Promise<{ file: string; exportedAs: string }> {
  const names = (await readdir(dist)).filter((n) => n.endsWith('.mjs') || n.endsWith('.js'));
  // Files named for a schema first: the bundle has thousands of modules.
  names.sort((a, b) => Number(!a.includes('schema')) - Number(!b.includes('schema')) || a.localeCompare(b));
  const pattern = new RegExp(`export\\s*\\{[^}]*\\b${EXPORT_NAME}(?:\\s+as\\s+([\\w$]+))?\\s*[,}]`);
  for (const name of names) {
    const file = join(dist, name);
    const text = await readFile(file, 'utf8');
    if (!text.includes(EXPORT_NAME)) continue;
    const match = pattern.exec(text);
    if (match) return { file, exportedAs: match[1] ?? EXPORT_NAME };
  }
  throw new Error(`no module in ${dist} exports ${EXPORT_NAME}: openclaw@${SCHEMA_RELEASE}'s layout is not what these tests expect`);
}
