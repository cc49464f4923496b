/**
 * A coding session condensed (docs/heuristic-observer.md, "One memory per exchange"): a realistic pi
 * session of an agent at work — code in the replies, tool calls and their output between the prose of
 * one turn, the agent saying back what the user asked — through the real CLI (`observe`), read back
 * from the day file. One observation per decision, fact, outcome or open task, not one per message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { entryId, PiSessionWriter } from '../../helpers/pi-writer.js';

const SESSION = '0000c0de-0000-4000-8000-00000000c0de';

/** The session: 16 turns, three of them agent turns split by tool calls (25 transcript entries). */
function codingSession(): { jsonl: string; ids: Record<string, string> } {
  const w = new PiSessionWriter(SESSION, new Date('2026-05-12T09:00:00Z'));
  const ids: Record<string, string> = {};
  let out = w.header('/home/dev/invoices');
  const say = (key: string, role: 'user' | 'assistant', text: string) => {
    ids[key] = entryId(`${SESSION}:${key}`);
    out += w.message({ role, text, id: ids[key] });
  };
  say('u1', 'user', "let's add rate limiting to the public API. we're on express 4 and redis already runs for the sessions");
  say(
    'a1',
    'assistant',
    "I'd use a sliding-window counter in Redis, keyed by API key. Here's the middleware:\n\n```ts\nexport function rateLimit(redis: Redis, limit = 100) {\n  return async (req: Request, res: Response, next: NextFunction) => {\n    const key = `rl:${req.header('x-api-key')}:${Math.floor(Date.now() / 60_000)}`;\n    const n = await redis.incr(key);\n    if (n === 1) await redis.expire(key, 60);\n    if (n > limit) return res.status(429).json({ error: 'rate limited' });\n    next();\n  };\n}\n```\n\nIt allows 100 requests per minute per key by default.",
  );
  say('u2', 'user', 'make it 60 per minute for the free plan and 600 for pro');
  say('a2', 'assistant', 'Done: the limit now comes from the plan, 60 per minute for free and 600 for pro.');
  say('u3', 'user', 'run the tests');
  say('a3', 'assistant', 'Running the suite.');
  out += w.toolExchange('bash', { command: 'npm test' }, '  46 passing (2s)\n  2 failing\n\n  1) rateLimit\n     TypeError: redis.evalsha is not a function\n      at rateLimit (src/middleware/rate-limit.ts:14:22)');
  say('a3b', 'assistant', 'Two tests fail because the fake Redis client in the tests has no EVALSHA.');
  out += w.toolExchange('edit', { path: 'test/helpers/redis.ts' }, 'Applied 1 edit to test/helpers/redis.ts');
  say('a3c', 'assistant', 'I switched the tests to ioredis-mock, which supports scripts. All 48 tests pass now.');
  say('u4', 'user', 'great, commit it');
  out += w.toolExchange('bash', { command: 'git commit -am "feat(api): per-plan rate limits"' }, '[main 4f2a9c1] feat(api): per-plan rate limits\n 3 files changed, 74 insertions(+), 2 deletions(-)');
  say('a4', 'assistant', 'Committed as 4f2a9c1 (feat(api): per-plan rate limits).');
  say('u5', 'user', 'the staging deploy failed last night:\n\n```\nError: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)\n```');
  say('a5', 'assistant', 'Staging has no REDIS_URL set, so the client falls back to localhost:6379 and nothing listens there.');
  say('u6', 'user', 'right, staging redis is redis-staging.internal on port 6380. put it in the helm values');
  out += w.toolExchange('edit', { path: 'deploy/values-staging.yaml' }, 'Applied 1 edit to deploy/values-staging.yaml');
  say('a6', 'assistant', 'Added REDIS_URL for redis-staging.internal on port 6380 to the staging helm values.');
  say('u7', 'user', "we're moving off helm to kustomize next month, so no more work on the chart");
  say('a7', 'assistant', 'Understood, no more chart changes. I will keep the settings in plain environment variables so the kustomize move stays small.');
  say('u8', 'user', 'tomorrow: write a docs page for the 429 responses');
  say('a8', 'assistant', 'Noted: a docs page for the 429 responses, tomorrow.');
  return { jsonl: out, ids };
}

/** The observation lines of the day file and its provenance comment (id → entry ids). */
async function dayFile(home: string): Promise<{ lines: string[]; cites: Map<string, string[]>; text: string }> {
  const dir = join(home, 'memory');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md'));
  assert.equal(files.length, 1, files.join(', '));
  const text = await readFile(join(dir, files[0]!), 'utf8');
  const lines = text.split('\n').filter((l) => /^- (?:🔴|🟡|🟢|✅)/u.test(l) && !/\[summary\]/.test(l));
  const cites = new Map<string, string[]>();
  for (const m of text.matchAll(/^(o-[0-9a-f]+): \S+ \S+ \S+ (\S+)$/gm)) cites.set(m[1]!, m[2]!.split(','));
  return { lines, cites, text };
}

test('a coding session of 16 turns is condensed: no line per message, restatements and tool output are not memories', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const { jsonl, ids } = codingSession();
    await writeFile(join(sessions, `${SESSION}.jsonl`), jsonl);
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.yaml'), `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
    const r = await runCli(['observe', '--home', home, '--flush']);
    assert.equal(r.code, 0, r.stderr);
    const { lines, cites, text } = await dayFile(home);
    const show = `\n${lines.join('\n')}`;
    // 16 turns (25 entries): at most one memory per exchange, 8 here; what was decided, done and left to do.
    assert.ok(lines.length <= 8, `${lines.length} observations:${show}`);
    const citing = (id: string) => lines.filter((l) => (cites.get(/\^(o-[0-9a-f]+)$/.exec(l)?.[1] ?? '') ?? []).includes(id));
    // Every turn that says something is cited by some observation: condensed, nothing lost from the provenance.
    const restatements = ['a2', 'a6', 'a8'];
    for (const [key, id] of Object.entries(ids)) if (!restatements.includes(key)) assert.ok(citing(id).length >= 1, `${key} (${id}) is cited by no observation:${show}`);
    // The agent saying back what the user asked (the plan limits, the staging host, the docs page) is no second memory.
    assert.equal(lines.filter((l) => /\b600\b/.test(l)).length, 1, show);
    assert.equal(lines.filter((l) => /redis-staging\.internal/.test(l)).length, 1, show);
    assert.equal(lines.filter((l) => /\b429\b/.test(l)).length, 1, show);
    // A turn of prose, tool call, prose, tool call, prose is one memory: its three messages are one line's.
    assert.equal(citing(ids.a3!).length, 1, show);
    assert.deepEqual(citing(ids.a3c!), citing(ids.a3!), show);
    assert.match(citing(ids.a3c!)[0]!, /ioredis-mock/);
    // Tool output and code are summarised by what the agent said, never copied: no test runner lines, no stack, no code.
    for (const raw of ['46 passing', 'TCPConnectWrap', 'redis.incr', '3 files changed', 'Applied 1 edit']) assert.ok(!text.includes(raw), `${raw} in the day file`);
    // What matters stays findable: the decision, the outcome, the fact, the open task.
    for (const fact of [/kustomize/, /4f2a9c1/, /redis-staging\.internal/, /429/]) assert.ok(lines.some((l) => fact.test(l)), `${fact} lost:${show}`);
  } finally {
    await cleanup();
  }
});
