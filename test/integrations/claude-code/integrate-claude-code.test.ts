/**
 * `ocm-run integrate claude-code` on Claude Code's config files, without the
 * `claude` binary (the real CLI is in claude-code-e2e.test.ts): the edit keeps
 * every byte it does not own, is idempotent, and --uninstall takes out exactly
 * what it added.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { assertSetupLeavesAgentAlone, withHeuristicSetup } from '../../helpers/setup-run.js';

/** PATH with node's own folder only: no `claude` to validate with. */
const PATH = dirname(process.execPath);

test("integrate claude-code: hooks, permission and MCP server added keeping the user's formatting; idempotent; status; --print; --uninstall restores byte for byte", async () => {
  const tmp = await tempDir('ocm-cc-integrate-');
  const home = join(tmp.dir, 'home');
  const ocm = join(tmp.dir, 'ocm');
  const settingsPath = join(home, '.claude', 'settings.json');
  const claudeJsonPath = join(home, '.claude.json');
  await mkdir(dirname(settingsPath), { recursive: true });
  // Four-space indentation, the user's own hooks and permissions: all must stay as they are.
  const userSettings =
    '{\n    "model": "opus",\n    "permissions": {\n        "allow": ["Bash(npm test:*)"],\n        "deny": []\n    },\n    "hooks": {\n        "UserPromptSubmit": [\n            { "hooks": [ { "type": "command", "command": "~/bin/prompt-guard" } ] }\n        ]\n    }\n}\n';
  await writeFile(settingsPath, userSettings);
  const env = { HOME: home, PATH };
  const run = (...args: string[]) => runCli(['integrate', 'claude-code', ...args, '--home', ocm], { env });
  try {
    const printed = await run('--print');
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /"oc-memory": \{\n\s+"type": "stdio"/);
    assert.match(printed.stdout, /hook prompt --agent claude-code --home/);
    assert.equal(await readFile(settingsPath, 'utf8'), userSettings, '--print changes nothing');
    assert.equal(existsSync(claudeJsonPath), false);

    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /added a SessionStart hook/);
    assert.match(first.stdout, /allowed the oc-memory tools/);
    assert.match(first.stdout, /added the MCP server oc-memory/);
    assert.match(first.stdout, /sources\.claude_code\.enabled set to true/);
    assert.match(first.stdout, /`claude` is not on PATH/);
    const edited = await readFile(settingsPath, 'utf8');
    assert.ok(
      edited.startsWith(
        '{\n    "model": "opus",\n    "permissions": {\n        "allow": ["Bash(npm test:*)", "mcp__oc-memory"],\n        "deny": []\n    },\n    "hooks": {\n        "UserPromptSubmit": [\n            { "hooks": [ { "type": "command", "command": "~/bin/prompt-guard" } ] },',
      ),
      edited,
    );
    const settings = JSON.parse(edited) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> };
    for (const [event, kind] of [
      ['SessionStart', 'session-start'],
      ['UserPromptSubmit', 'prompt'],
      ['Stop', 'after-turn'],
      ['SessionEnd', 'after-turn'],
    ] as const) {
      const ours = settings.hooks[event]!.at(-1)!.hooks[0]!;
      assert.match(ours.command, new RegExp(` hook ${kind} --agent claude-code --home ${ocm.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
      assert.ok(ours.timeout > 0 && ours.timeout <= 10);
    }
    const claudeJson = JSON.parse(await readFile(claudeJsonPath, 'utf8')) as {
      mcpServers: Record<string, { type: string; command: string; args: string[]; alwaysLoad?: boolean }>;
    };
    assert.equal(claudeJson.mcpServers['oc-memory']!.command, process.execPath);
    assert.equal(claudeJson.mcpServers['oc-memory']!.alwaysLoad, true, 'connected before the first request, not in the background');
    assert.deepEqual(claudeJson.mcpServers['oc-memory']!.args.slice(1), ['mcp', '--home', ocm, '--agent', 'claude-code']);
    const backups = (await readdir(dirname(settingsPath))).filter((f) => f.startsWith('settings.json.oc-memory-backup-'));
    assert.equal(backups.length, 1);
    assert.equal(await readFile(join(dirname(settingsPath), backups[0]!), 'utf8'), userSettings);

    const again = await run();
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /everything was in place already/);
    assert.equal(await readFile(settingsPath, 'utf8'), edited);
    assert.equal((await readdir(dirname(settingsPath))).filter((f) => f.includes('oc-memory-backup')).length, 1, 'no second backup');

    const status = await run('status');
    assert.equal(status.code, 0, status.stderr);
    assert.equal((status.stdout.match(/✅/g) ?? []).length, 6, status.stdout);

    const removed = await run('--uninstall');
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /removed the MCP server oc-memory/);
    assert.equal(await readFile(settingsPath, 'utf8'), userSettings);
    assert.equal(existsSync(claudeJsonPath), false, 'the .claude.json the integration created is gone again');
    assert.match(await readFile(join(ocm, 'config.yaml'), 'utf8'), /claude_code:\n\s+enabled: false/);
    const after = await run('status');
    assert.equal((after.stdout.match(/❌/g) ?? []).length, 6, after.stdout);
    const nothing = await run('--uninstall');
    assert.match(nothing.stdout, /Nothing of OC-Memory was found in Claude Code/);
  } finally {
    await tmp.cleanup();
  }
});

test('integrate claude-code: a settings file it cannot edit is refused with the reason, and nothing is written', async () => {
  const tmp = await tempDir('ocm-cc-integrate-');
  const home = join(tmp.dir, 'home');
  const settingsPath = join(home, '.claude', 'settings.json');
  await mkdir(dirname(settingsPath), { recursive: true });
  try {
    for (const [text, message] of [
      ['{ "hooks": [] }\n', /"hooks" is not an object/],
      ['{ "hooks": { "Stop": {} } }\n', /hooks\.Stop is not a list/],
      ['{ "permissions": { "allow": "all" } }\n', /permissions\.allow is not a list/],
      ['{ not json\n', /is not a JSON object OC-Memory can edit/],
    ] as const) {
      await writeFile(settingsPath, text);
      const r = await runCli(['integrate', 'claude-code', '--home', join(tmp.dir, 'ocm')], { env: { HOME: home, PATH } });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /→ /, 'with a hint');
      assert.equal(await readFile(settingsPath, 'utf8'), text);
      assert.equal(existsSync(join(home, '.claude.json')), false);
    }
  } finally {
    await tmp.cleanup();
  }
});

test('integrate claude-code --per-project: the hooks and the server get --per-project, the config per_project; --uninstall puts the config back', async () => {
  const tmp = await tempDir('ocm-cc-integrate-');
  const home = join(tmp.dir, 'home');
  const ocm = join(tmp.dir, 'ocm');
  const env = { HOME: home, PATH };
  try {
    const r = await runCli(['integrate', 'claude-code', '--per-project', '--home', ocm], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /sources\.claude_code\.per_project set to true/);
    const settings = JSON.parse(await readFile(join(home, '.claude', 'settings.json'), 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    assert.match(settings.hooks.SessionStart![0]!.hooks[0]!.command, / hook session-start .* --per-project$/);
    assert.match(settings.hooks.UserPromptSubmit![0]!.hooks[0]!.command, / hook prompt .* --per-project$/);
    assert.doesNotMatch(settings.hooks.Stop![0]!.hooks[0]!.command, /--per-project/, 'the reader files each project apart itself');
    const server = (JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')) as { mcpServers: Record<string, { args: string[] }> })
      .mcpServers['oc-memory']!;
    assert.equal(server.args.at(-1), '--per-project');
    assert.match(await readFile(join(ocm, 'config.yaml'), 'utf8'), /per_project: true/);
    const removed = await runCli(['integrate', 'claude-code', '--uninstall', '--home', ocm], { env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /sources\.claude_code\.per_project set back to false/);
    const config = await readFile(join(ocm, 'config.yaml'), 'utf8');
    assert.match(config, /per_project: false/);
    assert.match(config, /claude_code:\n\s+enabled: false/);
    assert.equal(existsSync(join(home, '.claude', 'settings.json')), false, 'created by the integration, removed with it');
  } finally {
    await tmp.cleanup();
  }
});

test('setup --yes --integrate-claude-code: the opt-in step of setup wires Claude Code too', async () => {
  await withHeuristicSetup(['--integrate-claude-code'], async (run) => {
    assert.match(run.result.stdout, /Claude Code integration for .* \(memory of agent "claude-code"\)/);
    const settings = JSON.parse(await readFile(join(run.userHome, '.claude', 'settings.json'), 'utf8')) as {
      hooks: Record<string, unknown[]>;
    };
    assert.deepEqual(Object.keys(settings.hooks).sort(), ['SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    assert.match(await readFile(join(run.ocm, 'config.yaml'), 'utf8'), /claude_code:\n(\s+#.*\n)*\s+enabled: true/);
    // Opt-in: without the flag, Claude Code's settings are not touched.
    await assertSetupLeavesAgentAlone(run, /Claude Code integration/, '.claude');
  });
});
