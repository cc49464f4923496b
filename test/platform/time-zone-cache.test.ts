/**
 * The resolved time zone is cached in .ocm/time-zone.json so an idle tick
 * needs no Intl; the cache answers only for the same configured name, system
 * zone (TZ or /etc/localtime) and ICU data, and never hides an unknown zone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { resolveTimeZoneCached, zoneResolutionKey } from '../../lib/platform/time-zone-cache.js';
import { tempDir } from '../helpers/cli.js';

test('a named zone is resolved once, then read from the cache; another name misses', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const file = join(dir, 'time-zone.json');
    assert.equal(await resolveTimeZoneCached(file, 'Asia/Seoul'), 'Asia/Seoul');
    const entry = JSON.parse(await readFile(file, 'utf8')) as { key: string; zone: string };
    assert.deepEqual(entry, { key: zoneResolutionKey('Asia/Seoul'), zone: 'Asia/Seoul' });
    // The cache is what answers: a (hand-made) entry for the same key is returned as is.
    await writeFile(file, JSON.stringify({ key: entry.key, zone: 'Asia/Seoul-cached' }));
    assert.equal(await resolveTimeZoneCached(file, 'Asia/Seoul'), 'Asia/Seoul-cached');
    // Another configured name misses and is validated: an unknown zone is still a configuration error.
    await assert.rejects(resolveTimeZoneCached(file, 'Mars/Olympus'), /Unknown time zone/);
    assert.equal(await resolveTimeZoneCached(file, 'Europe/Berlin'), 'Europe/Berlin');
    // A broken cache file is a miss.
    await writeFile(file, '{"key":');
    assert.equal(await resolveTimeZoneCached(file, 'Asia/Seoul'), 'Asia/Seoul');
    // Fixed zones need no cache at all.
    await writeFile(file, JSON.stringify({ key: zoneResolutionKey('UTC'), zone: 'wrong' }));
    assert.equal(await resolveTimeZoneCached(file, 'UTC'), 'UTC');
  } finally {
    await cleanup();
  }
});

test('the system zone is keyed by TZ, so a process with another TZ resolves afresh', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const file = join(dir, 'time-zone.json');
    const resolveIn = async (tz: string) => {
      const code = `import { resolveTimeZoneCached } from ${JSON.stringify(new URL('../../lib/platform/time-zone-cache.ts', import.meta.url).pathname)}; console.log(await resolveTimeZoneCached(${JSON.stringify(file)}, ''));`;
      const r = await execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { TZ: tz } });
      return r.stdout.trim();
    };
    assert.equal(await resolveIn('Asia/Seoul'), 'Asia/Seoul');
    assert.equal(await resolveIn('America/New_York'), 'America/New_York');
    assert.equal(await resolveIn('Asia/Seoul'), 'Asia/Seoul');
    assert.notEqual(zoneResolutionKey('', { TZ: 'Asia/Seoul' }), zoneResolutionKey('', { TZ: 'Europe/Berlin' }));
  } finally {
    await cleanup();
  }
});
