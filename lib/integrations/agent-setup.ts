/**
 * Setting up the Claude Code, Codex and pi integrations for a home: install,
 * check with the agent's own CLI where it is on PATH (taking the edit out
 * again when the agent does not see it), and the lines that say what was
 * done. Shared by `integrate <agent>` and `setup`; the command passes the
 * node and CLI that the agent should run (`runner`).
 */
import type { Config } from '../config/config-schema.js';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { ClaudeCodeInstall, ConfigAccess } from './claude-code/integration.js';
import type { CodexInstall } from './codex/integration.js';

/** The node binary and the CLI script an agent's MCP entry and hooks run. */
export interface AgentRunner {
  node: string;
  cli: string;
}

export interface AgentSetUpOptions {
  paths: HomePaths;
  /** The home's config.yaml (loaded here, changed through `config set`). */
  configFile: string;
  env: NodeJS.ProcessEnv;
  runner: AgentRunner;
}

/** `claude mcp list` (it starts every server and checks it answers): how it sees oc-memory. */
async function validateWithClaude(
  claude: string,
  env: NodeJS.ProcessEnv,
): Promise<{ state: 'connected' | 'failed' | 'missing'; output: string }> {
  const { execa } = await import('execa');
  const r = await execa(claude, ['mcp', 'list'], { reject: false, timeout: 90_000, env: { ...env, CI: '1' }, stdin: 'ignore' });
  const output = `${String(r.stdout)}\n${String(r.stderr)}`.trim();
  const line = output.split('\n').find((l) => /^oc-memory:/.test(l.trim()));
  if (!line) return { state: 'missing', output };
  return { state: /connected|✓/i.test(line) && !/failed|✗/i.test(line) ? 'connected' : 'failed', output: line.trim() };
}

/** OC-Memory's config as the integration reads and changes it (changes keep the file's comments: config set). */
export async function configAccess(config: Config, file: string, paths: HomePaths, env: NodeJS.ProcessEnv): Promise<ConfigAccess> {
  const { getConfigValue, setConfigValue } = await import('../config/config.js');
  return {
    get: (key) => getConfigValue(config, key),
    set: (key, value) => setConfigValue({ file, envFile: paths.env, keyPath: key, value, env }),
  };
}

export type Validation = 'connected' | 'failed' | 'missing' | 'not-installed';

/**
 * Install the integration for the home at `paths` (its config loaded from
 * `configFile`), check it with `claude mcp list` when `claude` is on PATH, and
 * say what was done. Shared by `integrate claude-code` and `setup`.
 */
export async function setUpClaudeCode(
  options: AgentSetUpOptions & { perProject: boolean },
): Promise<{ result: ClaudeCodeInstall; validated: Validation; lines: string[] }> {
  const i = await import('./claude-code/integration.js');
  const { loadConfig } = await import('../config/config.js');
  const { config } = await loadConfig({ file: options.configFile, envFile: options.paths.env, env: options.env });
  const agent = config.sources.claude_code.agent || 'claude-code';
  const access = await configAccess(config, options.configFile, options.paths, options.env);
  const result = await i.installClaudeCodeIntegration({
    paths: options.paths,
    runner: options.runner,
    agent,
    perProject: options.perProject,
    env: options.env,
    config: access,
  });
  const { findOnPath } = await import('./codex/cli.js');
  const claude = await findOnPath('claude', options.env);
  let validated: Validation = 'not-installed';
  if (claude) {
    const v = await validateWithClaude(claude, options.env);
    validated = v.state;
    if (v.state === 'missing') {
      await i.uninstallClaudeCodeIntegration({ paths: options.paths, env: options.env, config: access });
      throw new OcmError(
        'CONFIG_INVALID',
        'Claude Code does not list the oc-memory MCP server after the edit, so it was taken out again.',
        {
          hint: `\`claude mcp list\` said: ${v.output.slice(0, 400)}. Add it by hand (\`ocm-run integrate claude-code --print\`).`,
        },
      );
    }
  }
  const lines = [
    `Claude Code integration for ${options.paths.root} (memory of agent "${agent}"${options.perProject ? ', one per project' : ''}):`,
  ];
  if (result.changes.length === 0) lines.push('  everything was in place already.');
  for (const c of result.changes) lines.push(`  ${c}`);
  for (const b of result.backups) lines.push(`  backup of the original: ${b}`);
  if (validated === 'connected') lines.push('  `claude mcp list`: oc-memory connected.');
  else if (validated === 'failed') lines.push('  ⚠️ `claude mcp list` lists oc-memory but could not connect to it; run `ocm-run doctor`.');
  else lines.push('  (`claude` is not on PATH, so the result was not checked with `claude mcp list`.)');
  lines.push('New Claude Code sessions get it. Undo with: ocm-run integrate claude-code --uninstall');
  return { result, validated, lines };
}
/**
 * Install the integration for the home at `paths` (its config loaded from
 * `configFile`), have Codex trust its hooks and check the MCP server with
 * `codex mcp list` when `codex` is on PATH, and say what was done. Shared by
 * `integrate codex` and `setup`.
 */
export async function setUpCodex(options: AgentSetUpOptions): Promise<{ result: CodexInstall; validated: string; lines: string[] }> {
  const i = await import('./codex/integration.js');
  const cli = await import('./codex/cli.js');
  const { loadConfig } = await import('../config/config.js');
  const { config } = await loadConfig({ file: options.configFile, envFile: options.paths.env, env: options.env });
  const agent = config.sources.codex.agent || 'codex';
  const access = await configAccess(config, options.configFile, options.paths, options.env);
  const codex = await cli.findOnPath('codex', options.env);
  const result = await i.installCodexIntegration({
    paths: options.paths,
    runner: options.runner,
    agent,
    env: options.env,
    config: access,
    listHooks: async () => (codex ? cli.listCodexHooks(codex, options.env, process.cwd()) : undefined),
  });
  let validated = 'not-installed';
  if (codex) {
    const v = await cli.codexListsMcpServer(codex, options.env);
    validated = v.state;
    if (v.state === 'missing') {
      await i.uninstallCodexIntegration({ paths: options.paths, env: options.env, config: access });
      throw new OcmError('CONFIG_INVALID', 'Codex does not list the oc-memory MCP server after the edit, so it was taken out again.', {
        hint: `\`codex mcp list\` said: ${v.output.slice(0, 400)}. Add it by hand (\`ocm-run integrate codex --print\`).`,
      });
    }
  }
  const lines = [`Codex integration for ${options.paths.root} (memory of agent "${agent}"):`];
  if (result.changes.length === 0) lines.push('  everything was in place already.');
  for (const c of result.changes) lines.push(`  ${c}`);
  for (const b of result.backups) lines.push(`  backup of the original: ${b}`);
  if (result.trust === 'trusted') lines.push('  hooks trusted with the hashes Codex itself computed (codex app-server hooks/list).');
  else if (result.trust === 'no-codex')
    lines.push(
      '  ⚠️ `codex` is not on PATH, so the hooks could not be trusted: Codex skips untrusted hooks silently. Open codex and trust them with /hooks (or run this command again with codex on PATH).',
    );
  else lines.push('  ⚠️ Codex did not report all of the oc-memory hooks, so not all are trusted; open codex and check /hooks.');
  if (validated === 'listed') lines.push('  `codex mcp list`: oc-memory enabled.');
  else if (validated === 'failed') lines.push('  ⚠️ `codex mcp list` did not show oc-memory as enabled; run `codex mcp list`.');
  else lines.push('  (`codex` is not on PATH, so the result was not checked with `codex mcp list`.)');
  lines.push('New Codex sessions get it. Undo with: ocm-run integrate codex --uninstall');
  return { result, validated, lines };
}
/**
 * Install the extension for the home at `paths` (its config loaded from
 * `configFile`) and say what was done. Shared by `integrate pi` and `setup`.
 */
export async function setUpPi(
  options: AgentSetUpOptions,
): Promise<{ result: { extensionDir: string; changes: string[] }; lines: string[] }> {
  const i = await import('./pi/integration.js');
  const { loadConfig } = await import('../config/config.js');
  const { config } = await loadConfig({ file: options.configFile, envFile: options.paths.env, env: options.env });
  const access = await configAccess(config, options.configFile, options.paths, options.env);
  const result = await i.installPiIntegration({
    paths: options.paths,
    runner: options.runner,
    agent: 'pi',
    env: options.env,
    config: access,
  });
  const lines = [
    `pi integration for ${options.paths.root} (memory of agent "pi"):`,
    ...result.changes.map((c) => `  ${c}`),
    'New pi sessions get it. Undo with: ocm-run integrate pi --uninstall',
  ];
  return { result, lines };
}
