/**
 * `ocm-run integrate codex` on Codex's config files, without the `codex`
 * binary (the real CLI, which also trusts the hooks, is in
 * codex-e2e.test.ts): config.toml keeps every byte outside OC-Memory's block,
 * the run says plainly that the hooks are not trusted, a clash with the
 * user's own tables leaves the files as they were, and --uninstall takes out
 * exactly what was added.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse } from 'smol-toml';
import { runCli, tempDir } from '../../helpers/cli.js';
import { withHeuristicSetup } from '../../helpers/setup-run.js';

/** PATH with node's own folder only: no `codex` to ask. */
const PATH = dirname(process.execPath);

test('integrate codex: MCP server block appended keeping comments and layout, hooks in hooks.json, untrusted hooks said plainly, idempotent, status, --print, --uninstall restores byte for byte', async () => {
  const tmp = await tempDir('ocm-codex-integrate-');
  const home = join(tmp.dir, 'home');
  const ocm = join(tmp.dir, 'ocm');
  const configPath = join(home, '.codex', 'config.toml');
  const hooksPath = join(home, '.codex', 'hooks.json');
  await mkdir(dirname(configPath), { recursive: true });
  // No final newline, comments, an existing [mcp_servers.*] table: all must stay as they are.
  const userConfig =
    '# Codex, my way\nmodel = "gpt-5.5"  # pinned\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n\n[features]\nplugins = false';
  await writeFile(configPath, userConfig);
  const env = { HOME: home, PATH };
  const run = (...args: string[]) => runCli(['integrate', 'codex', ...args, '--home', ocm], { env });
  try {
    const printed = await run('--print');
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /\[mcp_servers\.oc-memory\]\ncommand = /);
    assert.match(printed.stdout, /default_tools_approval_mode = "approve"/);
    assert.match(printed.stdout, /hook prompt --agent codex --home/);
    assert.match(printed.stdout, /trust the three hooks with \/hooks/);
    assert.equal(await readFile(configPath, 'utf8'), userConfig, '--print changes nothing');

    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /added a SessionStart hook/);
    assert.match(first.stdout, /added the MCP server oc-memory/);
    assert.match(first.stdout, /`codex` is not on PATH, so the hooks could not be trusted: Codex skips untrusted hooks silently/);
    const after = await readFile(configPath, 'utf8');
    assert.ok(after.startsWith(`${userConfig}\n\n# >>> oc-memory`), after);
    const toml = parse(after) as {
      mcp_servers: Record<string, { command: string; args: string[]; default_tools_approval_mode: string }>;
      hooks?: unknown;
    };
    assert.equal(toml.mcp_servers.docs!.command, 'docs-mcp');
    assert.deepEqual(toml.mcp_servers['oc-memory']!.args.slice(1), ['mcp', '--home', ocm, '--agent', 'codex']);
    assert.equal(toml.mcp_servers['oc-memory']!.default_tools_approval_mode, 'approve');
    assert.equal(toml.hooks, undefined, 'no trust written without Codex to compute the hashes');
    const hooks = JSON.parse(await readFile(hooksPath, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    assert.deepEqual(Object.keys(hooks.hooks), ['SessionStart', 'UserPromptSubmit', 'Stop']);
    assert.match(hooks.hooks.Stop![0]!.hooks[0]!.command, / hook after-turn --agent codex --home /);

    const again = await run();
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /everything was in place already/);
    assert.equal(await readFile(configPath, 'utf8'), after, 'a second run changes nothing');

    const status = await run('status');
    assert.match(status.stdout, /✅ MCP server oc-memory/);
    assert.match(status.stdout, /✅ Stop hook/);
    assert.match(status.stdout, /❌ hooks trusted .*\(0 of 3/);

    const removed = await run('--uninstall');
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(await readFile(configPath, 'utf8'), userConfig);
    assert.equal(existsSync(hooksPath), false, 'hooks.json was created by the integration and held nothing else');
  } finally {
    await tmp.cleanup();
  }
});

test('integrate codex: a config.toml that already defines mcp_servers.oc-memory is refused and left as it was', async () => {
  const tmp = await tempDir('ocm-codex-clash-');
  const home = join(tmp.dir, 'home');
  const configPath = join(home, '.codex', 'config.toml');
  await mkdir(dirname(configPath), { recursive: true });
  const userConfig = '[mcp_servers.oc-memory]\ncommand = "my-own"\n';
  await writeFile(configPath, userConfig);
  try {
    const r = await runCli(['integrate', 'codex', '--home', join(tmp.dir, 'ocm')], { env: { HOME: home, PATH } });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /would not be valid TOML with the oc-memory settings/);
    assert.match(r.stderr, /integrate codex --print/);
    assert.equal(await readFile(configPath, 'utf8'), userConfig);
    assert.equal(existsSync(join(home, '.codex', 'hooks.json')), false, 'nothing written when the config edit is refused');
  } finally {
    await tmp.cleanup();
  }
});

test('setup --yes --integrate-codex: the opt-in step wires Codex through the same setup as integrate codex', async () => {
  await withHeuristicSetup(
    ['--integrate-codex'],
    async (run) => {
      assert.match(run.result.stdout, /Codex integration for /);
      assert.match(run.result.stdout, /the hooks could not be trusted/);
      const toml = parse(await readFile(join(run.userHome, '.codex', 'config.toml'), 'utf8')) as { mcp_servers: Record<string, unknown> };
      assert.ok(toml.mcp_servers['oc-memory']);
      assert.match(await readFile(join(run.ocm, 'config.yaml'), 'utf8'), /codex:\n\s+enabled: true/);
    },
    async (userHome) => void (await mkdir(join(userHome, '.codex'), { recursive: true })),
  );
});
