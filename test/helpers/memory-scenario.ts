/**
 * The two-session memory scenario the agent end-to-end tests run with a real
 * CLI (Codex, pi): session 1 states a preference and asks to remember a fact
 * (the model calls `remember`); session 2 asks about it (the model searches
 * twice). What each agent's requests must then show is asserted here once;
 * each test only says how its agent's requests carry tool outputs.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { waitFor } from './wait.js';

export const SESSION_ONE_PROMPT =
  'My favourite database for the billing service is PostgreSQL 16. Remember that the staging host is db-stage-7.';
export const SESSION_TWO_PROMPT = 'Which database do I like for the billing service?';
export const REMEMBER_CALLS = [{ name: 'remember', arguments: { text: 'The staging host is db-stage-7.' } }];
export const SEARCH_CALLS = [
  { name: 'search_memory', arguments: { query: 'billing database' } },
  { name: 'search_memory', arguments: { query: 'staging host' } },
];
/** A restatement of what the searches recalled, then one new statement (so it shows the turn was observed). */
export const SESSION_TWO_ANSWER =
  'You like PostgreSQL 16; staging is db-stage-7. I scheduled the invoice export for 02:00 UTC every night.';

/** Session 1: `remember` answered and written; the turn observed into the day file by the after-turn hook, with no manual step. */
export async function assertRememberedAndObserved(options: {
  saved: string;
  dayFile: string;
  agent: string;
  afterTurnIdle: () => Promise<unknown>;
}): Promise<void> {
  assert.match(options.saved, new RegExp(`Saved to memory as o-[0-9a-f]{10} \\(🔴 high, fact\\) in memory/${options.agent}/`));
  assert.match(await readFile(options.dayFile, 'utf8'), /- 🔴 \d\d:\d\d The staging host is db-stage-7\. \^o-/);
  await waitFor(
    'the turn observed into the day file',
    async () => {
      const text = await readFile(options.dayFile, 'utf8').catch(() => undefined);
      return text && /PostgreSQL 16/.test(text) ? text : undefined;
    },
    120_000,
  );
  await options.afterTurnIdle();
}

/**
 * Session 2: the first request carries the session-start and per-prompt
 * memory; the two searches return session 1's observed fact and the
 * remembered one, and the request after them carries what they returned.
 * `afterOutputs(n)` is the first request with n tool outputs: its outputs
 * and raw body.
 */
export function assertRecalled(options: {
  firstRaw: string;
  afterOutputs: (n: number) => { outputs: string[]; raw: string } | undefined;
  agent: string;
}): void {
  assert.match(options.firstRaw, /<oc-memory>\\nLong-term memory from earlier conversations \(OC-Memory\)/, 'session-start context');
  assert.match(options.firstRaw, /The staging host is db-stage-7/, 'active memory carries the 🔴 remembered fact');
  assert.match(options.firstRaw, /<oc-memory>\\nMemories related to this prompt[^<]*PostgreSQL 16/, 'per-prompt related memories');
  const one = options.afterOutputs(1);
  const two = options.afterOutputs(2);
  assert.ok(one && two, 'both searches were answered');
  const billing = one.outputs.join('\n');
  assert.match(billing, /memor(y|ies) for "billing database"/);
  assert.match(billing, /PostgreSQL 16/);
  const staging = two.outputs.at(-1)!;
  assert.match(staging, /The staging host is db-stage-7\./);
  assert.match(staging, new RegExp(`from remember ${options.agent}`));
  assert.match(two.raw, /PostgreSQL 16/, 'the following request carries what the search returned');
}

/**
 * Session 2, once the after-turn job ran: the reply's new statement was
 * observed, its restatement of the recalled memory was not (OC-Memory's own
 * recall is never observed again as a new fact).
 */
export async function assertRestatementNotObserved(options: { dayFile: string }): Promise<void> {
  const text = await waitFor(
    'session 2 observed into the day file',
    async () => {
      const t = await readFile(options.dayFile, 'utf8').catch(() => undefined);
      return t && /invoice export/.test(t) ? t : undefined;
    },
    120_000,
  );
  const observations = text.split('\n').filter((l) => /^- [🔴🟡🟢]/u.test(l));
  assert.deepEqual(
    observations.filter((l) => /You like|staging is db-stage-7/.test(l)),
    [],
    'the restated memory is not observed',
  );
}
