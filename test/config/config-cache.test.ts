/**
 * The config cache: an unchanged config.yaml is read back validated (no YAML
 * parse, no schema library), anything else goes through loadConfig; a value
 * from .env or the environment never reaches the cache file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { tempDirUntilExit } from '../helpers/cli.js';
import { join } from 'node:path';
import { cachedConfig, loadConfigCached } from '../../lib/config/config-cache.js';
import { loadConfig } from '../../lib/config/config.js';
import { ConfigError } from '../../lib/core/errors.js';

async function home() {
  const dir = await tempDirUntilExit('ocm-config-cache-');
  return {
    file: join(dir, 'config.yaml'),
    envFile: join(dir, '.env'),
    cacheFile: join(dir, 'config-cache.json'),
    env: {} as NodeJS.ProcessEnv,
  };
}

test('an unchanged config.yaml is read back validated from the cache; an edit misses it', async () => {
  const h = await home();
  await writeFile(h.file, 'timezone: Asia/Seoul\nsearch:\n  default_limit: 7\n');
  assert.equal(await cachedConfig(h), undefined, 'no cache yet');
  const first = await loadConfigCached(h);
  assert.equal(first.config.search.default_limit, 7);

  const hit = await cachedConfig(h);
  assert.ok(hit, 'the second process reads the cache');
  assert.deepEqual(
    hit.config,
    (await loadConfig({ file: h.file, envFile: h.envFile, env: h.env })).config,
    'the same config as a full load, defaults included',
  );
  assert.deepEqual(hit.missingEnv, []);

  await writeFile(h.file, 'timezone: Asia/Seoul\nsearch:\n  default_limit: 9\n');
  assert.equal(await cachedConfig(h), undefined, 'an edited file misses');
  assert.equal((await loadConfigCached(h)).config.search.default_limit, 9);
  assert.equal((await cachedConfig(h))?.config.search.default_limit, 9);

  // An invalid edit fails as before, whatever the cache held.
  await writeFile(h.file, 'timezone: Asia/Seoul\nsearch:\n  default_limit: lots\n');
  await assert.rejects(
    loadConfigCached(h),
    (error: unknown) => error instanceof ConfigError && /search\.default_limit/.test(error.message),
  );
});

test('a config that refers to ${NAME}: substituted on every load, the value never written to the cache', async () => {
  const h = await home();
  await writeFile(h.envFile, 'MY_EMBED_KEY=sk-very-secret-123\n');
  await writeFile(h.file, 'embeddings:\n  enabled: true\n  provider: openai\n  api_key: ${MY_EMBED_KEY}\n');
  const loaded = await loadConfigCached(h);
  assert.equal(loaded.config.embeddings.api_key, 'sk-very-secret-123');
  const cache = await readFile(h.cacheFile, 'utf8');
  assert.ok(!cache.includes('sk-very-secret-123'), 'no secret in the cache');
  assert.ok(cache.includes('${MY_EMBED_KEY}'), 'the reference as written');
  assert.equal(await cachedConfig(h), undefined, 'never served validated from the cache');

  await writeFile(h.envFile, 'MY_EMBED_KEY=sk-rotated-456\n');
  assert.equal((await loadConfigCached(h)).config.embeddings.api_key, 'sk-rotated-456', 'a changed .env is seen at once');
});

test('a cache of another schema, or a broken cache file, is a miss', async () => {
  const h = await home();
  await writeFile(h.file, 'search:\n  default_limit: 4\n');
  await loadConfigCached(h);
  const cache = JSON.parse(await readFile(h.cacheFile, 'utf8'));
  cache.checked.schema = 'another-schema';
  cache.checked.config.search.default_limit = 99;
  await writeFile(h.cacheFile, JSON.stringify(cache));
  assert.equal(await cachedConfig(h), undefined);
  assert.equal((await loadConfigCached(h)).config.search.default_limit, 4, 'validated again and re-cached');
  assert.equal((await cachedConfig(h))?.config.search.default_limit, 4);

  await writeFile(h.cacheFile, '{"v": 2, "text": ');
  assert.equal(await cachedConfig(h), undefined);
  assert.equal((await loadConfigCached(h)).config.search.default_limit, 4);
});
