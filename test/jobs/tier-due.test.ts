/**
 * The tier step's "is the daily job due?" check keeps the next local-date
 * change after the last success in state.json, so an idle tick compares
 * numbers. The cache must never skip a due run: a new success, another time
 * zone or the day passing all make the check answer as it would without it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homePaths, ensureHome } from '../../lib/platform/home.js';
import { validateConfig } from '../../lib/config/config.js';
import { readState, writeState } from '../../lib/platform/state.js';
import { recordTierRun, tierDue } from '../../lib/jobs/tier-step.js';
import { tempDir } from '../helpers/cli.js';
import { join } from 'node:path';

const config = (timezone: string) => validateConfig({ timezone });

async function home() {
  const t = await tempDir();
  const paths = homePaths(join(t.dir, 'home'));
  await ensureHome(paths, async () => 'timezone: UTC\n');
  return { ...t, paths };
}

test('after a success the next due instant is cached; due again from the next local day', async () => {
  const { paths, cleanup } = await home();
  try {
    const success = new Date('2026-05-10T08:00:00Z');
    await recordTierRun(paths, success);
    assert.equal(await tierDue(paths, config('UTC'), new Date('2026-05-10T09:00:00Z')), false);
    const cached = (await readState(paths.state)).state.extra.tierDue as { zone: string; after: string; notBefore: number };
    assert.equal(cached.zone, 'UTC');
    assert.equal(cached.after, success.toISOString());
    assert.equal(new Date(cached.notBefore).toISOString(), '2026-05-11T00:00:00.000Z');
    // Answers from the cache agree with the dates.
    assert.equal(await tierDue(paths, config('UTC'), new Date('2026-05-10T23:59:59.999Z')), false);
    assert.equal(await tierDue(paths, config('UTC'), new Date('2026-05-11T00:00:00Z')), true);
    // In Seoul (UTC+9) the success was at 17:00 on 05-10; 15:00 UTC is already 05-11 there.
    assert.equal(await tierDue(paths, config('Asia/Seoul'), new Date('2026-05-10T14:59:00Z')), false);
    assert.equal(await tierDue(paths, config('Asia/Seoul'), new Date('2026-05-10T15:00:00Z')), true);
  } finally {
    await cleanup();
  }
});

test('a cache that no longer matches is not trusted: another zone, another success', async () => {
  const { paths, cleanup } = await home();
  try {
    await recordTierRun(paths, new Date('2026-05-10T20:00:00Z'));
    // A cache claiming "not due for a long time" for this success in UTC…
    const { state } = await readState(paths.state);
    state.extra.tierDue = {
      zone: 'UTC',
      after: '2026-05-10T20:00:00.000Z',
      tzdata: process.versions.tz ?? '',
      notBefore: Date.parse('2030-01-01T00:00:00Z'),
    };
    await writeState(paths.state, state);
    assert.equal(
      await tierDue(paths, config('UTC'), new Date('2026-05-12T10:00:00Z')),
      false,
      'the cache is used for its own zone and success',
    );
    // …is not used once config.yaml names another zone (05-10 20:00 UTC is 05-11 05:00 in Seoul; 05-12 is another day).
    assert.equal(await tierDue(paths, config('Asia/Seoul'), new Date('2026-05-12T10:00:00Z')), true);
    // …nor for another success (the `tier` command records its runs).
    await writeState(paths.state, {
      ...(await readState(paths.state)).state,
      extra: {
        tierDue: {
          zone: 'UTC',
          after: '2026-05-10T20:00:00.000Z',
          tzdata: process.versions.tz ?? '',
          notBefore: Date.parse('2030-01-01T00:00:00Z'),
        },
      },
    });
    await recordTierRun(paths, new Date('2026-05-11T07:00:00Z'));
    assert.equal(await tierDue(paths, config('UTC'), new Date('2026-05-12T10:00:00Z')), true);
    const fresh = (await readState(paths.state)).state.extra.tierDue as { after: string; notBefore: number };
    assert.equal(fresh.after, '2026-05-11T07:00:00.000Z');
    assert.equal(new Date(fresh.notBefore).toISOString(), '2026-05-12T00:00:00.000Z');
  } finally {
    await cleanup();
  }
});

test('a failure after the last success still holds the next attempt back for an hour', async () => {
  const { paths, cleanup } = await home();
  try {
    await recordTierRun(paths, new Date('2026-05-10T08:00:00Z'));
    assert.equal(await tierDue(paths, config('UTC'), new Date('2026-05-10T09:00:00Z')), false);
    await recordTierRun(paths, new Date('2026-05-11T00:30:00Z'), new Error('disk full'));
    assert.equal(await tierDue(paths, config('UTC'), new Date('2026-05-11T01:00:00Z')), false);
    assert.equal(await tierDue(paths, config('UTC'), new Date('2026-05-11T01:30:00Z')), true);
  } finally {
    await cleanup();
  }
});
