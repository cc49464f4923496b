/**
 * OpenClaw's own memory_search indexes our day files (memory.search.extraPaths). Cut into chunks by
 * OpenClaw's real chunker (its published package, installed into the agent cache), a busy day file
 * gives chunks that carry observations: the provenance ids sit in one block at the end of the file,
 * not in the first lines (README "File formats"). And the provenance is still there for `get` and
 * `export --json`, after `forget` too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installPinned } from '../helpers/agent-cache.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { newHome, writeHot } from '../helpers/tier-home.js';
import { appendObservations, createDayFile, formatDayFile } from '../../lib/memory/day-file/index.js';
import { observationId } from '../../lib/memory/observation-line.js';
import type { Observation } from '../../lib/core/types.js';

type Chunk = { startLine: number; endLine: number; text: string };

/** OpenClaw's chunkMarkdown (packages/memory-host-sdk), from its published dist. */
async function openClawChunker(): Promise<(content: string, chunking: { tokens: number; overlap: number }) => Chunk[]> {
  const pkg = await installPinned({ name: 'openclaw', version: '2026.9.6' });
  const dist = join(pkg.packageDir, 'dist');
  const file = (await readdir(dist)).find((n) => /^markdown-chunks-.*\.mjs$/.test(n));
  assert.ok(file, 'OpenClaw ships its Markdown chunker');
  const source = await readFile(join(dist, file), 'utf8');
  const exported = /\bchunkMarkdown as (\w+)/.exec(source)?.[1];
  assert.ok(exported, 'chunkMarkdown is exported');
  const mod = (await import(pathToFileURL(join(dist, file)).href)) as Record<string, unknown>;
  return mod[exported] as (content: string, chunking: { tokens: number; overlap: number }) => Chunk[];
}

const TOPICS = ['the staging database', 'the nightly backup', 'the VPN', 'the CI runners', 'the billing service', 'the on-call rota'];

function observations(count: number): Observation[] {
  return Array.from({ length: count }, (_, i) => {
    const text = `Fact ${i}: the team decided to move ${TOPICS[i % TOPICS.length]} to region ${i % 7} before the audit.`;
    return {
      id: observationId({ agent: 'main', session: `session-${i % 3}`, category: 'decision', text }),
      date: '2026-02-12',
      time: `${String(9 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
      priority: i % 5 === 0 ? 'high' : 'medium',
      done: false,
      category: 'decision',
      text,
      tags: [],
      agent: 'main',
      provenance: {
        source: 'openclaw',
        agent: 'main',
        session: `5f2a9c1e-8d1b-4c1e-9f7a-2b1c3d4e5f6${i % 3}`,
        entryIds: [`a1b2c3${String(i).padStart(2, '0')}`, `e5f6a7${String(i).padStart(2, '0')}`],
      },
    };
  });
}

const PROVENANCE_LINE = /^o-[0-9a-f]+: \S+ \S+ \S+ \S+$/gm;
const OBSERVATION_LINE = /^- .*\^o-[0-9a-f]+$/gm;

test('OpenClaw’s chunker cuts a busy day file into chunks that carry observations, not provenance ids', {
  timeout: 15 * 60_000,
}, async () => {
  const chunkMarkdown = await openClawChunker();
  const file = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
  appendObservations(file, observations(300));
  const text = formatDayFile(file);
  // OpenClaw's defaults (memory-search: 400 tokens, 80 overlap).
  const chunks = chunkMarkdown(text, { tokens: 400, overlap: 80 });
  assert.ok(chunks.length > 10);
  const first = chunks[0]!;
  assert.equal((first.text.match(PROVENANCE_LINE) ?? []).length, 0, `the first chunk holds no provenance ids:\n${first.text}`);
  assert.ok((first.text.match(OBSERVATION_LINE) ?? []).length >= 8, `the first chunk holds observations:\n${first.text}`);
  // Every chunk with observations is all observations; the ids are in the chunks after the last observation.
  const withObservations = chunks.filter((c) => OBSERVATION_LINE.test(c.text));
  assert.ok(withObservations.length >= chunks.length / 2);
  for (const c of withObservations) {
    const ids = (c.text.match(PROVENANCE_LINE) ?? []).length;
    const lines = (c.text.match(OBSERVATION_LINE) ?? []).length;
    assert.ok(ids <= lines / 4, `lines ${c.startLine}–${c.endLine}: ${ids} provenance lines beside ${lines} observations`);
  }
});

test('with provenance at the end, get and export --json still show it, forget removes its line, and a hand edit keeps it', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const today = new Date().toISOString().slice(0, 10);
  const list = observations(5).map((o) => ({ ...o, date: today }));
  await writeHot(paths, list);
  const home = ['--home', paths.root];
  const dayPath = join(paths.memory, `${today}.md`);
  const written = await readFile(dayPath, 'utf8');
  assert.match(written, /\n<!-- oc-memory provenance \(id: source agent session entries\)\n(?:o-[0-9a-f]+: .+\n){5}-->\n$/);
  assert.doesNotMatch(written.slice(0, written.indexOf('\n---\n', 4)), /provenance/, 'not in the frontmatter');

  // A hand edit: the user adds a note at the end, below the block, and a line of their own.
  await writeFile(dayPath, `${written}\nA note of mine.\n`);

  const get = await runCli(['get', ...home, list[1]!.id, '--json']);
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stdout, /5f2a9c1e-8d1b-4c1e-9f7a-2b1c3d4e5f61/);
  const exported = await runCli(['export', ...home, '--format', 'json']);
  assert.equal(exported.code, 0, exported.stderr);
  const records = (
    JSON.parse(exported.stdout) as { observations: Array<{ id: string; provenance?: { session: string; entryIds: string[] } }> }
  ).observations;
  assert.equal(records.length, 5);
  for (const r of records) assert.ok(r.provenance?.entryIds.length === 2, `${r.id} has its provenance`);

  const forget = await runCli(['forget', ...home, list[2]!.id, '--yes']);
  assert.equal(forget.code, 0, forget.stderr + forget.stdout);
  const after = await readFile(dayPath, 'utf8');
  assert.doesNotMatch(after, new RegExp(list[2]!.id), 'the erased id is gone, from its provenance line too');
  assert.match(after, /\n(?:o-[0-9a-f]+: .+\n){4}-->\n\nA note of mine\.\n$/, 'four provenance lines, the note kept');
  assert.match(after, /^observations: 4$/m);
});
