/**
 * The frontmatter stays as the user wrote it (README "File formats"): when the program changes a key
 * it owns, only that value's bytes change: comments, flow lists, quoting and keys of the user's own
 * survive every rewrite. Provenance whose id still exists in the file is never dropped, and files
 * written before the provenance block (a `provenance:` map in the frontmatter) are read and moved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendObservations,
  formatDayFile,
  listObservations,
  parseDayFile,
  removeObservations,
  setFrontmatter,
} from '../../lib/memory/day-file/index.js';
import { observationId } from '../../lib/memory/observation-line.js';
import type { Observation } from '../../lib/core/types.js';
import { DAY_BODY, LEGACY_DAY } from '../helpers/day-files.js';

function obs(text: string, extra: Partial<Observation> = {}): Observation {
  return {
    id: observationId({ agent: 'main', session: 's9', category: 'fact', text }),
    date: '2026-02-12',
    time: '12:00',
    priority: 'medium',
    done: false,
    category: 'fact',
    text,
    tags: [],
    agent: 'main',
    provenance: { source: 'openclaw', agent: 'main', session: 's9', entryIds: ['e9'] },
    ...extra,
  };
}

const BODY = DAY_BODY;
const LEGACY = LEGACY_DAY;

const HAND_EDITED = `---
# Written by me, keep this.
date: 2026-02-12   # the day
tier: hot
agent: main
observations: 2 # counted by OC-Memory
tags: [postgres,typescript]  # topics
mood: "calm, mostly"
links:
  - "[[Project X]]"
  # more later
  - "[[Ops]]"
---
${BODY}`;

test('a hand-edited frontmatter keeps its comments, flow list style, quoting and own keys when the program appends', () => {
  const file = parseDayFile(HAND_EDITED);
  assert.equal(appendObservations(file, [obs('The shop deploys on Fridays.', { tags: ['deploy'] })]), 1);
  const out = formatDayFile(file);
  const expected = HAND_EDITED.replace('observations: 2 # counted', 'observations: 3 # counted').replace(
    'tags: [postgres,typescript]  # topics',
    'tags: [deploy, postgres, typescript]  # topics',
  );
  assert.equal(out.slice(0, out.indexOf('\n---\n') + 5), expected.slice(0, expected.indexOf('\n---\n') + 5));
  assert.ok(out.startsWith(expected.trimEnd()), 'the body before the new line is unchanged');
  const again = parseDayFile(out);
  assert.equal(again.frontmatter.data.mood, 'calm, mostly');
  assert.deepEqual(again.frontmatter.data.links, ['[[Project X]]', '[[Ops]]']);
});

test('a tier move, a removal and a block-style tag list: only the changed values change', () => {
  const blockTags = HAND_EDITED.replace('tags: [postgres,typescript]  # topics', 'tags:\n  - postgres   # db\n  - typescript');
  const file = parseDayFile(blockTags);
  setFrontmatter(file, 'tier', 'warm');
  removeObservations(file, ['o-7f3a9c21e0']);
  const out = formatDayFile(file);
  const frontmatter = out.slice(0, out.indexOf('\n---\n') + 5);
  assert.equal(
    frontmatter,
    blockTags
      .slice(0, blockTags.indexOf('\n---\n') + 5)
      .replace('tier: hot', 'tier: warm')
      .replace('observations: 2 #', 'observations: 1 #')
      .replace('tags:\n  - postgres   # db\n  - typescript', 'tags:\n  - postgres'),
  );
  assert.deepEqual(parseDayFile(out).frontmatter.data.tags, ['postgres']);
});

test('tags in the user’s own order stay as written while they are the same tags', () => {
  const text = HAND_EDITED.replace('tags: [postgres,typescript]', 'tags: [typescript,postgres]');
  const file = parseDayFile(text);
  appendObservations(file, [obs('Postgres runs version 16.', { tags: ['postgres'] })]);
  const out = formatDayFile(file);
  assert.match(out, /^tags: \[typescript,postgres\] {2}# topics$/m);
  assert.match(out, /^observations: 3 # counted by OC-Memory$/m);
});

test('a frontmatter the program wrote is still written the program’s way (no YAML library needed)', () => {
  const text = `---\ndate: 2026-02-12\ntier: hot\nagent: main\nobservations: 2\ntags: [postgres, typescript]\n---\n${BODY}`;
  const file = parseDayFile(text);
  appendObservations(file, [obs('Redis caches sessions.', { tags: ['redis'] })]);
  assert.match(
    formatDayFile(file),
    /^---\ndate: 2026-02-12\ntier: hot\nagent: main\nobservations: 3\ntags: \[postgres, redis, typescript\]\n---\n# 2026-02-12\n/,
  );
});

test('a file with provenance in its frontmatter (written before the block) is read, and the map moves to the block on the next write', () => {
  const legacy = LEGACY;
  const file = parseDayFile(legacy);
  assert.equal(formatDayFile(file), legacy, 'unchanged: byte for byte');
  assert.deepEqual(
    listObservations(file).map((o) => o.provenance?.entryIds),
    [['a1b2c3d4'], ['e5f6a7b8']],
  );
  appendObservations(file, [obs('Backups run nightly.')]);
  const out = formatDayFile(file);
  assert.match(
    out,
    /^---\ndate: 2026-02-12\ntier: hot\nagent: main\nobservations: 3\ntags: \[postgres, typescript\]\n---\n# 2026-02-12\n\n- 🔴 09:15/,
  );
  assert.match(
    out,
    /\n\n<!-- oc-memory provenance \(id: source agent session entries\)\no-7f3a9c21e0: openclaw main s1 a1b2c3d4\no-0b41d2e8aa: openclaw main s1 e5f6a7b8\no-[0-9a-f]+: openclaw main s9 e9\n-->\n$/,
  );
  assert.deepEqual(
    listObservations(parseDayFile(out)).map((o) => o.provenance?.entryIds),
    [['a1b2c3d4'], ['e5f6a7b8'], ['e9']],
  );

  // The same with a comment of the user's in the frontmatter: the comment stays, the map goes.
  const commented = legacy.replace('tier: hot\n', 'tier: hot # keep me\n');
  const edited = parseDayFile(commented);
  appendObservations(edited, [obs('Backups run nightly.')]);
  const out2 = formatDayFile(edited);
  assert.match(out2, /^---\ndate: 2026-02-12\ntier: hot # keep me\nagent: main\nobservations: 3\ntags: \[postgres, typescript\]\n---\n/);
  assert.deepEqual(
    listObservations(parseDayFile(out2)).map((o) => o.provenance?.session),
    ['s1', 's1', 's9'],
  );
});

test('an id moved onto its own line keeps its observation’s provenance through rewrites, as long as the id is in the file', () => {
  const file = parseDayFile(LEGACY);
  appendObservations(file, [obs('Backups run nightly.')]);
  const written = formatDayFile(file);
  // The user moves the first id under its item (Obsidian's block-id style) and the second one into a note.
  const moved = written
    .replace('#typescript ^o-7f3a9c21e0\n', '#typescript\n  ^o-7f3a9c21e0\n')
    .replace('#postgres ^o-0b41d2e8aa\n', '#postgres\n\nSee o-0b41d2e8aa for the decision.\n');
  const edited = parseDayFile(moved);
  const seen = listObservations(edited);
  assert.equal(seen[0]!.id, 'o-7f3a9c21e0', 'an id on its own line under the item is its id');
  // A long item the user wrapped in an editor: the id ends its last line, and is still its id (kept where it is).
  const wrapped = parseDayFile(written.replace('#typescript ^o-7f3a9c21e0\n', '#typescript\n  (wrapped by hand) ^o-7f3a9c21e0\n'));
  assert.equal(listObservations(wrapped)[0]!.id, 'o-7f3a9c21e0', 'an id at the end of a wrapped item is its id');
  appendObservations(wrapped, [obs('The VPN is WireGuard.')]);
  assert.match(
    formatDayFile(wrapped),
    /#typescript\n {2}\(wrapped by hand\) \^o-7f3a9c21e0\n/,
    'the wrapped line stays as written, the id not doubled',
  );
  // Every rewrite keeps both ids' provenance.
  appendObservations(edited, [obs('The VPN is WireGuard.')]);
  removeObservations(edited, [obs('Backups run nightly.').id]);
  const out = formatDayFile(edited);
  assert.match(out, /\n {2}\^o-7f3a9c21e0\n/, 'the moved id stays where the user put it');
  assert.match(out, /^o-7f3a9c21e0: /m);
  assert.match(out, /^o-0b41d2e8aa: /m);
  assert.doesNotMatch(out, new RegExp(`^${obs('Backups run nightly.').id}: `, 'm'), 'provenance of an erased id goes');
  const back = listObservations(parseDayFile(out));
  assert.equal(back.find((o) => o.id === 'o-7f3a9c21e0')?.provenance?.session, 's1');
  // Once the id is gone from the file, its provenance goes with the next rewrite.
  const gone = parseDayFile(out.replace('See o-0b41d2e8aa for the decision.\n', ''));
  appendObservations(gone, [obs('One more fact.')]);
  assert.doesNotMatch(formatDayFile(gone), /^o-0b41d2e8aa: /m);
});
