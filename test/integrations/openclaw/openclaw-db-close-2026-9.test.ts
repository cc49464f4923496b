/**
 * OpenClaw 2026.9.6's close of an agent database beside OC-Memory's reader,
 * with OpenClaw's own code (docs/sources.md, "Known OpenClaw failure").
 *
 * "Agent database cleanup failed" is the AggregateError of the close of
 * OpenClaw's agent-database Worker (dist/state/openclaw-agent-execution.worker.js,
 * close()) when two of its cleanup steps throw. The only one of them that
 * another connection to the agent database can affect is the WAL checkpoint
 * of closeCachedOpenClawAgentDatabase: `walMaintenance.close()` from
 * configureSqliteWalMaintenance (src/infra/sqlite-wal.ts). The probe
 * (helpers/openclaw-close-probe.mjs) runs that real function, on the Node
 * OpenClaw runs on, while OC-Memory's reader (the built dist, with node:sqlite
 * and again with the WebAssembly sql.js forced) has the same file open:
 *
 * - between OC-Memory's reads, with its handle still open, OpenClaw's
 *   checkpoint completes at once (TRUNCATE: the WAL is emptied) and the
 *   reader then reads the rows the checkpoint moved into the main file;
 * - a connection that does hold a read snapshot (the control) makes the
 *   checkpoint wait out its busy timeout and give up — and even then the
 *   close step returns false rather than throwing, so no reader can turn
 *   OpenClaw's close into an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { tempDir } from '../../helpers/cli.js';
import { installOpenClaw, OPENCLAW_RELEASES } from '../../helpers/openclaw.js';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const PROBE = resolve(import.meta.dirname, '..', '..', 'helpers', 'openclaw-close-probe.mjs');

interface CloseStep {
  completed: boolean;
  threw: string | null;
  ms: number;
}
interface ProbeResult {
  walModule: string;
  reader: { firstRead: number; walBefore: number; close: CloseStep; walAfter: number; secondRead: number; lastText: string | null };
  holder: { held: number; close: CloseStep };
}

test(`OpenClaw ${OPENCLAW_RELEASES.database}'s agent-database close (its real WAL maintenance) beside OC-Memory's open reader: the checkpoint completes, never throws; a snapshot holder only makes it give up`, {
  timeout: 15 * 60_000,
}, async () => {
  const release = await installOpenClaw(OPENCLAW_RELEASES.database, { timeoutMs: 10 * 60_000 });
  const temp = await tempDir('ocm-openclaw-close-');
  try {
    for (const driver of ['node:sqlite', 'sql.js']) {
      const dir = join(temp.dir, driver.replace(':', '-'));
      await mkdir(dir);
      const run = await execa(release.node, [PROBE, release.packageDir, join(REPO_ROOT, 'dist'), dir], {
        timeout: 120_000,
        reject: false,
        env: { OCM_TEST: '1', OCM_SQLITE_DRIVER: driver },
      });
      assert.equal(run.exitCode, 0, `${driver}: probe failed:\n${run.stderr}`);
      const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as ProbeResult;
      const { reader, holder } = result;
      assert.equal(reader.firstRead, 40, `${driver}: OC-Memory read the first 40 rows`);
      assert.ok(reader.walBefore > 0, `${driver}: the next 40 rows were only in the WAL when OpenClaw closed`);
      assert.equal(reader.close.threw, null, `${driver}: OpenClaw's close step never throws`);
      assert.equal(
        reader.close.completed,
        true,
        `${driver}: with OC-Memory's handle open between reads, OpenClaw's TRUNCATE checkpoint completed ` +
          `(${reader.close.ms} ms; a held snapshot would make it wait 5 s and fail)`,
      );
      assert.equal(reader.walAfter, 0, `${driver}: TRUNCATE emptied the WAL`);
      assert.equal(reader.secondRead, 40, `${driver}: the open reader read the rows the checkpoint moved into the main file`);
      assert.match(reader.lastText ?? '', /^Note 79:/);
      // The control (a native connection holding a snapshot) does not depend on OC-Memory's driver.
      assert.equal(holder.held, 40, 'the control held a snapshot of 40 rows');
      assert.equal(holder.close.threw, null, 'even against a held snapshot the close step does not throw');
      assert.equal(holder.close.completed, false, 'a held snapshot blocks the TRUNCATE checkpoint');
      assert.ok(holder.close.ms >= 250, `the checkpoint waited out its busy timeout (300 ms) before giving up (${holder.close.ms} ms)`);
    }
  } finally {
    await temp.cleanup();
  }
});
