/**
 * createSources: which sources a job reads for a config — OpenClaw (both eras)
 * by default, the other agents only when enabled — and where their folders are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { validateConfig } from '../../lib/config/config.js';
import { ConfigError } from '../../lib/core/errors.js';
import { createSources, sourceDir } from '../../lib/sources/registry.js';

test('defaults: every OpenClaw agent in both eras; pi, Claude Code, Codex and generic logs are opt-in', async () => {
  const kinds = async (raw: unknown) => (await createSources({ config: validateConfig(raw), env: {}, home: '/home/u' })).map((s) => s.kind);
  assert.deepEqual(await kinds({}), ['openclaw', 'openclaw-db']);
  assert.deepEqual(
    await kinds({
      sources: {
        pi: { enabled: true },
        claude_code: { enabled: true },
        codex: { enabled: true },
        generic: [
          { name: 'a', path: '/logs/*.jsonl' },
          { name: 'b', path: '/logs/*.log', enabled: false },
        ],
      },
    }),
    ['openclaw', 'openclaw-db', 'pi', 'claude-code', 'codex', 'generic'],
  );
  assert.deepEqual(await kinds({ sources: { openclaw_db: { enabled: false } } }), ['openclaw']);
  assert.deepEqual(await kinds({ sources: { openclaw: { enabled: false } } }), [], 'OpenClaw off turns off both eras');
});

test('source folders: configured paths expand ~; defaults follow CLAUDE_CONFIG_DIR, CODEX_HOME, PI_CODING_AGENT_DIR', async () => {
  const config = validateConfig({ sources: { codex: { dir: '~/elsewhere/codex' } } });
  const env = { CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex', PI_CODING_AGENT_DIR: '/cfg/pi' };
  assert.equal(await sourceDir('claude_code', config, env, '/home/u'), join('/cfg/claude', 'projects'));
  assert.equal(await sourceDir('codex', config, env, '/home/u'), join('/home/u', 'elsewhere/codex'));
  assert.equal(await sourceDir('pi', config, env, '/home/u'), join('/cfg/pi', 'sessions'));
  assert.equal(await sourceDir('claude_code', config, {}, '/home/u'), join('/home/u', '.claude', 'projects'));
});

test('a generic source with a broken regex is a configuration error when the sources are created', async () => {
  const config = validateConfig({ sources: { generic: [{ name: 'irc', path: '/x/*.log', format: 'regex', user_pattern: '([unclosed' }] } });
  await assert.rejects(
    createSources({ config, env: {}, home: '/home/u' }),
    (e: unknown) => e instanceof ConfigError && /sources\.generic\[0\]\.user_pattern/.test(e.message),
  );
});
