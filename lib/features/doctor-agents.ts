/**
 * `doctor`'s checks of the agent integrations (`ocm-run integrate
 * claude-code | codex | pi`, docs/running.md): for each agent that has
 * OC-Memory wired in, is the MCP server entry there and does it run an
 * OC-Memory that exists, for this home; are the hooks there (and, for Codex,
 * trusted: Codex skips an untrusted hook without a word); is pi's extension
 * there and the one this version ships; is the agent's transcript source on.
 * An agent that is installed but not integrated gets one line saying the
 * integration is optional; an agent that is not installed, none.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/config-schema.js';
import type { Check } from './doctor.js';
import type { HomePaths } from '../platform/home.js';
import { readTextIfExists } from '../platform/home.js';
import { MCP_SERVER_NAME } from '../core/injected-context.js';

export interface AgentChecksOptions {
  paths: HomePaths;
  config: Config;
  env: Record<string, string | undefined>;
  userHome: string;
  /**
   * How Codex itself sees the hooks (`codex app-server` hooks/list), or
   * undefined when `codex` is not on PATH. Default: asked from the `codex` on
   * env.PATH (lib/integrations/codex/cli.ts).
   */
  codexHooks?: () => Promise<Array<{ command: string | null; sourcePath: string; trustStatus: string }> | undefined>;
}

/** The words of a command line as a POSIX shell splits it (plain words and single- or double-quoted ones: what the integrations write). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? command.length : end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++)
        word += command[j] === '\\' && j + 1 < command.length ? command[++j] : command[j];
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * What is wrong with one way of running OC-Memory (the node program, the CLI
 * script, its --home), or undefined. `what` names it for the message.
 */
function runnerProblem(
  what: string,
  program: string | undefined,
  args: readonly string[],
  paths: HomePaths,
): { status: 'warn' | 'fail'; text: string } | undefined {
  if (!program || !args[0]) return { status: 'fail', text: `${what} has no command` };
  if (!existsSync(program))
    return {
      status: 'fail',
      text: `${what} runs ${program}, which does not exist (Node moved or was upgraded? \`ocm-run repoint\` points everything at the Node and OC-Memory you run it with)`,
    };
  if (!existsSync(args[0]))
    return {
      status: 'fail',
      text: `${what} runs ${args[0]}, which does not exist (OC-Memory moved or was uninstalled? \`ocm-run repoint\` points everything at the OC-Memory you run it with)`,
    };
  const at = args.indexOf('--home');
  const home = at === -1 ? undefined : args[at + 1];
  if (home !== undefined && resolve(home) !== resolve(paths.root))
    return { status: 'warn', text: `${what} uses the home ${home}, not this one` };
  return undefined;
}

/** The oc-memory hook commands of a hooks file in Claude Code's format, by event. */
function ownHookCommands(hooksFile: unknown, isOwn: (command: unknown) => boolean): Map<string, string[]> {
  const byEvent = new Map<string, string[]>();
  const hooks = (hooksFile as { hooks?: Record<string, unknown> } | undefined)?.hooks;
  if (!hooks || typeof hooks !== 'object') return byEvent;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups as Array<{ hooks?: Array<{ command?: unknown }> }>) {
      for (const h of Array.isArray(g?.hooks) ? g.hooks : [])
        if (isOwn(h?.command)) byEvent.set(event, [...(byEvent.get(event) ?? []), String(h.command)]);
    }
  }
  return byEvent;
}

interface Finding {
  status: 'warn' | 'fail';
  text: string;
}

/** One check line from the findings: ok with `parts`, else the worst status with every finding. */
function summarise(id: string, title: string, parts: string[], findings: Finding[], fix: string): Check {
  if (findings.length === 0) return { id, status: 'ok', title, detail: parts.join(', ') };
  const status = findings.some((f) => f.status === 'fail') ? 'fail' : 'warn';
  return { id, status, title, detail: findings.map((f) => f.text).join('; '), fix };
}

/** The hooks of one agent's hooks file: which events lack ours, and what is wrong with the commands there. */
function hookFindings(
  file: string,
  data: unknown,
  events: readonly string[],
  isOwn: (command: unknown) => boolean,
  paths: HomePaths,
): { findings: Finding[]; present: string[] } {
  const findings: Finding[] = [];
  const own = ownHookCommands(data, isOwn);
  const missing = events.filter((e) => !own.has(e));
  if (missing.length > 0) findings.push({ status: 'warn', text: `no oc-memory hook for ${missing.join(', ')} in ${file}` });
  const seen = new Set<string>();
  for (const commands of own.values()) {
    for (const command of commands) {
      const [program, ...args] = shellWords(command);
      const p = runnerProblem('a hook', program, args, paths);
      if (p && !seen.has(p.text)) {
        seen.add(p.text);
        findings.push(p);
      }
    }
  }
  return { findings, present: events.filter((e) => own.has(e)) };
}

function sourceFinding(enabled: boolean, key: string, label: string): Finding | undefined {
  return enabled
    ? undefined
    : { status: 'warn', text: `${label} transcripts are not observed (${key} is off), so its turns never reach the memory` };
}

async function claudeCodeCheck(options: AgentChecksOptions): Promise<Check[]> {
  const i = await import('../integrations/claude-code/integration.js');
  const title = 'Claude Code integration';
  const location = i.locateClaudeCode(options.env, options.userHome);
  const settings = i.safeJson(await readTextIfExists(location.settingsPath));
  const mcp = i.safeJson(await readTextIfExists(location.mcpConfigPath)) as
    | { mcpServers?: Record<string, { command?: unknown; args?: unknown }> }
    | undefined;
  const server = mcp?.mcpServers?.[MCP_SERVER_NAME];
  const hooks = ownHookCommands(settings, i.isOwnHookCommand);
  const record = await i.readRecord(options.paths);
  if (!server && hooks.size === 0 && !record) {
    if (!existsSync(dirname(location.settingsPath))) return [];
    return [
      {
        id: 'claude-code',
        status: 'ok',
        title,
        detail: 'not set up (optional: `ocm-run integrate claude-code` gives Claude Code the memory)',
      },
    ];
  }
  const findings: Finding[] = [];
  if (!server) findings.push({ status: 'fail', text: `no MCP server ${MCP_SERVER_NAME} in ${location.mcpConfigPath}` });
  else {
    const p = runnerProblem(
      `the MCP server ${MCP_SERVER_NAME}`,
      typeof server.command === 'string' ? server.command : undefined,
      Array.isArray(server.args) ? server.args.map(String) : [],
      options.paths,
    );
    if (p) findings.push(p);
  }
  const h = hookFindings(
    location.settingsPath,
    settings,
    i.HOOK_EVENTS.map((e) => e.event),
    i.isOwnHookCommand,
    options.paths,
  );
  findings.push(...h.findings);
  const source = sourceFinding(options.config.sources.claude_code.enabled, 'sources.claude_code.enabled', 'Claude Code');
  if (source) findings.push(source);
  return [
    summarise(
      'claude-code',
      title,
      [`MCP server ${MCP_SERVER_NAME} in ${location.mcpConfigPath}`, `hooks ${h.present.join(', ')}`, 'transcripts observed'],
      findings,
      '`ocm-run integrate claude-code` (safe to run again; it backs the files up first)',
    ),
  ];
}

async function codexCheck(options: AgentChecksOptions): Promise<Check[]> {
  const i = await import('../integrations/codex/integration.js');
  const { isOwnHookCommand, safeJson } = await import('../integrations/claude-code/integration.js');
  const { parse } = await import('smol-toml');
  const title = 'Codex integration';
  const location = i.locateCodex(options.env, options.userHome);
  const hooksData = safeJson(await readTextIfExists(location.hooksPath));
  const configText = await readTextIfExists(location.configPath);
  let config: Record<string, unknown> = {};
  const findings: Finding[] = [];
  try {
    config = parse(configText ?? '') as Record<string, unknown>;
  } catch (error) {
    findings.push({ status: 'fail', text: `${location.configPath} is not valid TOML (${(error as Error).message.split('\n')[0]})` });
  }
  const server = (config.mcp_servers as Record<string, { command?: unknown; args?: unknown }> | undefined)?.[MCP_SERVER_NAME];
  const own = ownHookCommands(hooksData, isOwnHookCommand);
  const record = await i.readCodexRecord(options.paths);
  if (!server && own.size === 0 && !record && findings.length === 0) {
    if (!existsSync(location.codexHome)) return [];
    return [{ id: 'codex', status: 'ok', title, detail: 'not set up (optional: `ocm-run integrate codex` gives Codex the memory)' }];
  }
  if (!server) findings.push({ status: 'fail', text: `no MCP server ${MCP_SERVER_NAME} in ${location.configPath}` });
  else {
    const p = runnerProblem(
      `the MCP server ${MCP_SERVER_NAME}`,
      typeof server.command === 'string' ? server.command : undefined,
      Array.isArray(server.args) ? server.args.map(String) : [],
      options.paths,
    );
    if (p) findings.push(p);
  }
  const events = i.CODEX_HOOK_WIRING.events.map((e) => e.event);
  const h = hookFindings(location.hooksPath, hooksData, events, isOwnHookCommand, options.paths);
  findings.push(...h.findings);
  // Trust: Codex runs a user hook only when trusted, and skips it silently otherwise.
  let trust: string;
  const listed = await (options.codexHooks ?? (() => codexHooksFromPath(options.env)))().catch(() => undefined);
  const silently = 'Codex skips an untrusted hook without a word, so no memory reaches the prompt';
  if (listed !== undefined) {
    const ours = listed.filter((x) => x.sourcePath === location.hooksPath && isOwnHookCommand(x.command));
    const untrusted = ours.filter((x) => x.trustStatus !== 'trusted');
    if (ours.length > 0 && untrusted.length > 0)
      findings.push({
        status: 'fail',
        text: `Codex reports ${untrusted.length} of ${ours.length} oc-memory hooks as ${[...new Set(untrusted.map((x) => x.trustStatus))].join(' / ')}: ${silently}`,
      });
    trust = `${ours.length - untrusted.length} of ${ours.length} hooks trusted (as Codex reports)`;
  } else {
    const states = ((config.hooks as Record<string, unknown> | undefined)?.state ?? {}) as Record<string, { trusted_hash?: unknown }>;
    const trusted = (record?.trusted ?? []).filter((key) => typeof states[key]?.trusted_hash === 'string').length;
    if (h.present.length > 0 && trusted < h.present.length)
      findings.push({
        status: 'warn',
        text: `only ${trusted} of ${h.present.length} oc-memory hooks have a trusted_hash in ${location.configPath}: ${silently} (codex is not on PATH, so Codex itself was not asked)`,
      });
    trust = `${trusted} hooks trusted in config.toml (codex not on PATH to confirm)`;
  }
  const source = sourceFinding(options.config.sources.codex.enabled, 'sources.codex.enabled', 'Codex');
  if (source) findings.push(source);
  return [
    summarise(
      'codex',
      title,
      [`MCP server ${MCP_SERVER_NAME} in ${location.configPath}`, `hooks ${h.present.join(', ')}`, trust, 'transcripts observed'],
      findings,
      '`ocm-run integrate codex` with `codex` on PATH (it trusts the hooks with the hashes Codex computes), or open codex and trust them with /hooks',
    ),
  ];
}

async function codexHooksFromPath(
  env: Record<string, string | undefined>,
): Promise<Array<{ command: string | null; sourcePath: string; trustStatus: string }> | undefined> {
  const cli = await import('../integrations/codex/cli.js');
  const codex = await cli.findOnPath('codex', env);
  if (!codex) return undefined;
  return cli.listCodexHooks(codex, env, process.cwd(), 20_000);
}

async function piCheck(options: AgentChecksOptions): Promise<Check[]> {
  const i = await import('../integrations/pi/integration.js');
  const { packagePath } = await import('../platform/package-root.js');
  const title = 'pi integration';
  const { agentDir, extensionDir } = i.locatePi(options.env, options.userHome);
  const installed = await readTextIfExists(join(extensionDir, 'index.ts'));
  const settingsText = await readTextIfExists(join(extensionDir, 'oc-memory.json'));
  if (installed === undefined && settingsText === undefined) {
    if (!existsSync(agentDir)) return [];
    return [{ id: 'pi', status: 'ok', title, detail: 'not set up (optional: `ocm-run integrate pi` gives pi the memory)' }];
  }
  const findings: Finding[] = [];
  if (installed === undefined)
    findings.push({ status: 'fail', text: `the extension is missing from ${extensionDir} (only its settings are there)` });
  else if (installed !== (await readFile(packagePath('templates', 'pi-extension', 'index.ts'), 'utf8'))) {
    findings.push({
      status: 'warn',
      text: `the extension in ${extensionDir} is not the one this version of OC-Memory ships (installed by another version, or edited)`,
    });
  }
  let settings: Partial<import('../integrations/pi/integration.js').PiExtensionSettings> | undefined;
  try {
    settings =
      settingsText === undefined
        ? undefined
        : (JSON.parse(settingsText) as Partial<import('../integrations/pi/integration.js').PiExtensionSettings>);
  } catch {
    settings = undefined;
  }
  if (!settings) findings.push({ status: 'fail', text: `${join(extensionDir, 'oc-memory.json')} is missing or not JSON` });
  else {
    const p = runnerProblem(
      'the extension',
      settings.node,
      [String(settings.cli ?? ''), '--home', String(settings.home ?? '')],
      options.paths,
    );
    if (p) findings.push(p);
    for (const module of [settings.sdkClient, settings.sdkStdio]) {
      if (typeof module !== 'string' || !existsSync(module)) {
        findings.push({ status: 'fail', text: `the MCP client module the extension loads (${String(module)}) does not exist` });
        break;
      }
    }
  }
  const source = sourceFinding(options.config.sources.pi.enabled, 'sources.pi.enabled', 'pi');
  if (source) findings.push(source);
  return [
    summarise(
      'pi',
      title,
      [`extension in ${extensionDir} (this version's)`, 'transcripts observed'],
      findings,
      "`ocm-run integrate pi` (safe to run again: it writes this version's extension)",
    ),
  ];
}

/** The checks of every agent integration, Claude Code, Codex, pi in that order. */
export async function checkAgentIntegrations(options: AgentChecksOptions): Promise<Check[]> {
  return [...(await claudeCodeCheck(options)), ...(await codexCheck(options)), ...(await piCheck(options))];
}
