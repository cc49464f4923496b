/**
 * The marker around OC-Memory's injected memory and the names of its own
 * tools: what every transcript reader uses to never observe them again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addRecalled, hasInjectedContext, isOwnTool, recalledItems, restatesRecalled, stripInjectedContext, withoutRestatedMemory, wrapInjectedContext } from '../../lib/core/injected-context.js';

test('a wrapped memory block is recognised and stripped, the words around it stay', () => {
  const block = wrapInjectedContext('## Preferences and constraints\n- 🔴 User prefers PostgreSQL');
  assert.ok(block.startsWith('<oc-memory>\n') && block.endsWith('\n</oc-memory>'));
  const text = `${block}\n\nWhich database should we use for the new service?`;
  assert.equal(hasInjectedContext(text), true);
  assert.equal(stripInjectedContext(text), 'Which database should we use for the new service?');
  assert.equal(stripInjectedContext(`before\n${block}\nafter`), 'before\n\nafter');
  // Two blocks, and one cut off before its closing tag.
  assert.equal(stripInjectedContext(`${block} a ${block}`), 'a');
  assert.equal(stripInjectedContext('keep this\n<oc-memory>\n- 🔴 User prefers'), 'keep this');
  assert.equal(stripInjectedContext('no block here'), 'no block here');
  assert.equal(hasInjectedContext('<oc-memories> are not ours'), false);
});

test("OC-Memory's own tools, as each agent names them", () => {
  for (const name of ['mcp__oc-memory__search', 'mcp__oc_memory__remember', 'mcp__oc-memory', 'MCP__OC-MEMORY__get', 'oc_memory_search', 'oc_memory_remember']) {
    assert.equal(isOwnTool(name), true, name);
  }
  assert.equal(isOwnTool('search', 'mcp__oc-memory'), true);
  assert.equal(isOwnTool('search', 'mcp__oc_memory'), true);
  for (const name of ['Bash', 'memory_search', 'mcp__github__search', 'mcp__oc-memory-fork__search', 'mcp__other__oc_memory', 'search']) {
    assert.equal(isOwnTool(name), false, name);
  }
  assert.equal(isOwnTool('search', 'mcp__github'), false);
});

test("recalled items are the memories only, not the lines OC-Memory frames them with (its introductions, the active memory's head, a search's head, result lines and provenance)", () => {
  const sessionStart = wrapInjectedContext(
    "Long-term memory from earlier conversations (OC-Memory). Use it when relevant.\n\n# Active memory — pi\n\n> Updated 2026-11-26 13:15 (UTC) · 162 / 4000 tokens · 3 observations\n\n## Current context\n_None yet._\n\n## Preferences and constraints\n- 🔴 [preference] User's favourite database is PostgreSQL 16. (2026-11-26)",
  );
  assert.deepEqual(recalledItems(sessionStart), ["User's favourite database is PostgreSQL 16. ( )"]);
  const searched = '1 memory for "staging host" (text search):\n1. o-f2a5136120 · 2026-11-26 13:15 · 🔴 high · fact · agent pi\n   The staging host is db-stage-7.\n   (from remember pi session oc-memory-pi@1; memory/pi/2026-11-26.md:10)';
  assert.deepEqual(recalledItems(searched), ['The staging host is db-stage-7.']);
  // So a sentence of the framing's words is not taken for a restatement.
  assert.equal(restatesRecalled('Let me look at the tools for more.', [...recalledItems(sessionStart), ...recalledItems(searched)]), false);
});

test('recalled memory items and sentences that restate them', () => {
  const block = wrapInjectedContext(
    '## Preferences and constraints\n- 🔴 User prefers PostgreSQL\n## Related memories\n- 🟡 2026-11-01 [fact] User\'s sister Ana lives in Lisbon ^o-1a2b3c\n- ok',
  );
  const items = recalledItems(block);
  assert.deepEqual(items, ['User prefers PostgreSQL', "User's sister Ana lives in Lisbon"]);
  assert.equal(restatesRecalled('You prefer PostgreSQL, so the invoices service will use PostgreSQL.', items), true);
  assert.equal(restatesRecalled('Your sister Ana lives in Lisbon, right?', items), true);
  assert.equal(restatesRecalled('We should move the queue to Redis.', items), false);
  assert.equal(restatesRecalled('PostgreSQL 16 is installed.', items), false, 'one word of two is not a restatement');
  assert.equal(
    withoutRestatedMemory('You prefer PostgreSQL. I created the invoices table with a row lock.\n[tool call: Bash command="psql"]', items),
    'I created the invoices table with a row lock.\n[tool call: Bash command="psql"]',
  );
  assert.equal(withoutRestatedMemory('Your sister Ana lives in Lisbon.', items), '');
  assert.equal(withoutRestatedMemory('Nothing  recalled   here.', []), 'Nothing  recalled   here.');
  assert.deepEqual(addRecalled(['a b'], ['c d', 'a b']), ['c d', 'a b']);
  // A reply that says nothing but what several recalled items say together (stance words such as "like" aside) restates them.
  const two = ["User's favourite database for the billing service is PostgreSQL 16.", 'The staging host is db-stage-7.'];
  assert.equal(restatesRecalled('You like PostgreSQL 16; staging is db-stage-7.', two), true);
  assert.equal(restatesRecalled('I migrated the billing service to PostgreSQL 16.', two), false, 'a new word is news');
  assert.equal(restatesRecalled('You like PostgreSQL.', two), false, 'one word is too little to tell');

});
