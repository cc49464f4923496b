/**
 * The agent database the OpenClaw database benchmarks read: `sessions`
 * sessions of `exchanges` user/assistant exchanges (some tool calls), every
 * third session's rows zstd-framed, under `<root>/agents/main/agent/`.
 */
import { addWindow, agentDbPath, createAgentDb, DbTranscript } from '../test/helpers/openclaw-db.js';
import { generateConversation, PiSessionWriter } from '../test/helpers/pi-writer.js';

/** Builds it and returns the number of rows written. */
export function buildBenchAgentDb(root: string, sessions: number, exchanges: number): number {
  const db = createAgentDb(agentDbPath(root, 'main'));
  let rows = 0;
  db.exec('BEGIN');
  for (let s = 0; s < sessions; s++) {
    const id = `session-${s}`;
    addWindow(db, id, `agent:main:s${s}`);
    const w = new PiSessionWriter(id, new Date('2026-09-01T00:00:00Z'));
    rows += new DbTranscript(db, id).addLines(
      w.header() + generateConversation(w, exchanges, s + 1),
      s % 3 === 0 ? { compress: 'raw' } : {},
    ).length;
  }
  db.exec('COMMIT');
  db.close();
  return rows;
}
