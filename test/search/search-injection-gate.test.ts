/**
 * The relevance of a search result (what the agent hooks and the OpenClaw
 * plugin keep above their floor for unasked injection): a natural question
 * with context words injects the memory it is about, an unrelated prompt
 * injects nothing — through `ocm-run search --json` and `ocm-run hook prompt`,
 * on a home of 3,000 observations over 60 days.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { tempHome, writeDay, type Obs } from '../helpers/search-fixtures.js';

const PEOPLE = ['Priya', 'Marco', 'Lena', 'Tomas', 'Aiko', 'Sven', 'Noor', 'Jonas'];
const TOPICS = ['billing service', 'invoice export', 'login flow', 'release notes', 'staging cluster', 'quarterly report', 'budget sheet', 'onboarding guide', 'search index', 'mobile app'];
const ACTS = ['reviewed', 'rewrote', 'tested', 'planned', 'discussed', 'shipped', 'postponed', 'estimated'];
const WHEN = ['in the morning', 'after lunch', 'before the standup', 'late at night', 'on the train'];

/** Observations of a busy life: work, errands, people — none about a pet, a vet or a form. */
function filler(day: number, n: number): Obs[] {
  const out: Obs[] = [];
  for (let i = 0; i < n; i++) {
    const k = day * 50 + i;
    const who = PEOPLE[k % PEOPLE.length]!;
    const topic = TOPICS[(k * 7) % TOPICS.length]!;
    const act = ACTS[(k * 3) % ACTS.length]!;
    const when = WHEN[(k * 11) % WHEN.length]!;
    out.push({ text: `User ${act} the ${topic} with ${who} ${when}; the name of the branch is ${topic.split(' ')[0]}-${k}.`, category: k % 5 === 0 ? 'task' : 'fact', time: `${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}` });
  }
  return out;
}

const DOG = "User's dog is called Biscuit and User is allergic to penicillin.";

async function busyHome() {
  const paths = await tempHome();
  const start = Date.UTC(2026, 0, 1);
  for (let day = 0; day < 60; day++) {
    const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
    const obs = filler(day, 50);
    if (day === 0) obs[0] = { text: DOG, category: 'fact', priority: 'high', time: '08:00' };
    await writeDay(paths, date, obs);
  }
  const indexed = await runCli(['index', '--home', paths.root], { timeoutMs: 120_000 });
  assert.equal(indexed.code, 0, indexed.stderr);
  return paths.root;
}

async function injected(home: string, prompt: string): Promise<string> {
  const r = await runCli(['hook', 'prompt', '--home', home], { input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt }), env: { HOME: home, OCM_HOOK_TIMEOUT_MS: '20000' } });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

test('a question with context words no memory has injects the memory it is about; an unrelated prompt injects nothing (3,000 observations, 60 days)', { timeout: 300_000 }, async () => {
  const home = await busyHome();
  const question = "What's my dog's name again? I need it for the vet form.";
  const found = JSON.parse((await runCli(['search', question, '--home', home, '--json'])).stdout) as { results: Array<{ snippet: string; relevance: number }> };
  assert.match(found.results[0]!.snippet, /Biscuit/);
  assert.ok(found.results[0]!.relevance >= 0.5, `the dog's line is relevant to the question: ${found.results[0]!.relevance}`);
  assert.match(await injected(home, question), /dog is called Biscuit/);
  // The same question framed with other context words.
  assert.match(await injected(home, 'Quick one before I fill in the clinic paperwork. What is my dog called?'), /dog is called Biscuit/);

  for (const prompt of ['I want to buy some bananas', 'Tell me a joke about cats in Paris', 'What is the capital of Peru? I need it for a quiz.']) {
    const results = JSON.parse((await runCli(['search', prompt, '--home', home, '--json'])).stdout) as { results: Array<{ relevance: number }> };
    assert.ok(results.results.every((r) => r.relevance < 0.5), `nothing relevant to "${prompt}": ${results.results.map((r) => r.relevance).join(', ')}`);
    assert.equal(await injected(home, prompt), '', `nothing injected for "${prompt}"`);
  }
});
