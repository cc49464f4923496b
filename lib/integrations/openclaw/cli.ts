/**
 * The installed OpenClaw's own command line, asked instead of guessed:
 * its version, whether it accepts a config file (`openclaw config validate`,
 * or on releases without that command any command that loads the config),
 * installing our plugin through `openclaw plugins install` (so OpenClaw
 * records where it came from), and the plugin's load status
 * (`openclaw plugins inspect`, `plugins info` on older releases).
 *
 * Every call has a time limit; an `openclaw` that is not on PATH is
 * reported as not available, never as an error.
 */
import { execa } from 'execa';
import { isNotFound } from '../../core/errors.js';

export interface OpenClawCliOptions {
  env: Record<string, string | undefined>;
  /** The command to run (default `openclaw`, found on env.PATH). */
  command?: string;
}

export interface CliRun {
  available: boolean;
  code: number;
  output: string;
}

/** OpenClaw loads many modules per command: a loaded machine needs a generous bound. */
const COMMAND_TIMEOUT_MS = 180_000;

async function run(options: OpenClawCliOptions, args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> {
  try {
    const r = await execa(options.command ?? 'openclaw', args, {
      reject: false,
      timeout: COMMAND_TIMEOUT_MS,
      env: { ...options.env, ...extraEnv, NO_COLOR: '1' },
      extendEnv: false,
      stdin: 'ignore',
    });
    if (isNotFound(r) || r.exitCode === 127) return { available: false, code: -1, output: '' };
    const output = `${String(r.stdout)}\n${String(r.stderr)}`.trim();
    return {
      available: true,
      code: r.timedOut ? -1 : (r.exitCode ?? -1),
      output: r.timedOut ? `openclaw ${args.join(' ')} took longer than ${COMMAND_TIMEOUT_MS / 1000} s\n${output}` : output,
    };
  } catch {
    return { available: false, code: -1, output: '' };
  }
}

/** A calendar version `YYYY.M.D` of OpenClaw, comparable. */
export interface OpenClawVersion {
  text: string;
  parts: [number, number, number];
}

export function parseOpenClawVersion(text: string): OpenClawVersion | undefined {
  const m = /(\d{4})\.(\d{1,2})\.(\d{1,2})/.exec(text);
  return m ? { text: `${m[1]}.${m[2]}.${m[3]}`, parts: [Number(m[1]), Number(m[2]), Number(m[3])] } : undefined;
}

export function versionBefore(version: OpenClawVersion, other: [number, number, number]): boolean {
  for (let i = 0; i < 3; i++) if (version.parts[i] !== other[i]) return version.parts[i]! < other[i]!;
  return false;
}

/** `openclaw --version`, or undefined when the CLI is not installed. */
export async function openClawVersion(options: OpenClawCliOptions): Promise<OpenClawVersion | undefined> {
  const r = await run(options, ['--version']);
  return r.available && r.code === 0 ? parseOpenClawVersion(r.output) : undefined;
}

export interface ValidationResult {
  /** The CLI was there to ask. */
  available: boolean;
  ok: boolean;
  /** What OpenClaw said (its problems, one a line). */
  output: string;
}

/** The problems OpenClaw lists for a rejected file, without its banners. */
function problemLines(output: string): string {
  try {
    const parsed = JSON.parse(output.slice(output.indexOf('{'))) as { issues?: Array<{ path?: string; message?: string }> };
    if (Array.isArray(parsed.issues) && parsed.issues.length > 0)
      return parsed.issues.map((i) => `- ${i.path ?? ''}: ${i.message ?? ''}`).join('\n');
  } catch {
    /* not JSON: the text itself */
  }
  const lines = output.split('\n').map((l) => l.trim());
  const problems = lines.filter((l) => /^- /.test(l) || /Unrecognized key|invalid/i.test(l));
  return (problems.length > 0 ? [...new Set(problems)] : lines.filter(Boolean).slice(0, 6)).join('\n');
}

/**
 * Does the installed OpenClaw accept the config file at `configPath`?
 * OPENCLAW_CONFIG_PATH points OpenClaw at it (a temporary copy, so a running
 * gateway never sees a file it would reject). Releases before
 * `openclaw config validate` (2026.2) check the file on every command that
 * loads it: `openclaw config get plugins` then stands in.
 */
export async function validateOpenClawConfig(options: OpenClawCliOptions, configPath: string): Promise<ValidationResult> {
  const env = { OPENCLAW_CONFIG_PATH: configPath };
  const r = await run(options, ['config', 'validate', '--json'], env);
  if (!r.available) return { available: false, ok: false, output: '' };
  const noValidateCommand = r.code !== 0 && /too many arguments for 'config'|unknown command|unknown option '--json'/i.test(r.output);
  if (!noValidateCommand) return { available: true, ok: r.code === 0, output: r.code === 0 ? '' : problemLines(r.output) };
  const loaded = await run(options, ['config', 'get', 'plugins'], env);
  const rejected = /Config invalid|Invalid config/i.test(loaded.output);
  // "Config path not found" (no plugins key) still means the file loaded.
  const ok = !rejected && (loaded.code === 0 || /path not found/i.test(loaded.output));
  return { available: true, ok, output: ok ? '' : problemLines(loaded.output) };
}

export interface PluginInstallResult {
  available: boolean;
  ok: boolean;
  output: string;
}

/**
 * `openclaw plugins install <dir>`: OpenClaw copies the plugin into its
 * extensions folder and records its origin, so it trusts it. 2026.9 asks
 * before installing from a local path and before granting capabilities
 * (--force, --accept-capabilities); 2026.2 knows neither flag.
 */
export async function installPluginWithOpenClaw(
  options: OpenClawCliOptions,
  pluginDir: string,
  configPath?: string,
): Promise<PluginInstallResult> {
  // The installer rewrites the config it loads (as plain JSON): pointed at a copy, the user's file stays as it is.
  const env: Record<string, string> = configPath ? { OPENCLAW_CONFIG_PATH: configPath } : {};
  const first = await run(options, ['plugins', 'install', pluginDir, '--force', '--accept-capabilities'], env);
  if (!first.available) return { available: false, ok: false, output: '' };
  if (first.code === 0) return { available: true, ok: true, output: first.output };
  if (!/unknown option/i.test(first.output)) return { available: true, ok: false, output: first.output };
  const plain = await run(options, ['plugins', 'install', pluginDir], env);
  return { available: true, ok: plain.code === 0, output: plain.output };
}

/**
 * `openclaw plugins uninstall <id>`, the reverse of installPluginWithOpenClaw:
 * OpenClaw removes its install record (2026.9 keeps it in its state, outside
 * openclaw.json; without this it reports the plugin as "install incomplete"
 * on every `openclaw plugins list`) and the managed folder under its
 * extensions root (docs/cli/plugins/uninstall-and-update.md). It rewrites the
 * config it loads too, so it gets a copy (`configPath`): OC-Memory gives the
 * user's file back itself, byte for byte. 2026.9 asks before removing
 * (--force); 2026.2 has no such flag.
 */
export async function uninstallPluginWithOpenClaw(
  options: OpenClawCliOptions,
  id: string,
  configPath: string,
): Promise<PluginInstallResult> {
  const env = { OPENCLAW_CONFIG_PATH: configPath };
  const first = await run(options, ['plugins', 'uninstall', id, '--force'], env);
  if (!first.available) return { available: false, ok: false, output: '' };
  if (first.code === 0) return { available: true, ok: true, output: first.output };
  if (!/unknown option/i.test(first.output)) return { available: true, ok: false, output: first.output };
  const plain = await run(options, ['plugins', 'uninstall', id], env);
  return { available: true, ok: plain.code === 0, output: plain.output };
}

export interface PluginLoadStatus {
  available: boolean;
  /** OpenClaw knows the plugin at all. */
  found: boolean;
  /** e.g. "loaded", "error", "disabled". */
  status?: string;
  enabled?: boolean;
  /** Where OpenClaw says the plugin came from (2026.9: trust.installSource; 2026.2: plugins.installs.<id>.source). */
  installSource?: string;
  /** OpenClaw has no install record for it (2026.9: trust.reason "record-missing"): it warns it cannot verify its origin. */
  untracked: boolean;
  /** OpenClaw's own error for the plugin, when it failed to load. */
  error?: string;
  /** Lines OpenClaw printed that warn about this plugin (origin, id mismatch…). */
  warnings: string[];
  output: string;
}

/** What `plugins inspect --json` may say of a plugin; every field is checked before use (each release has its own shape). */
export interface InspectedPlugin {
  id?: unknown;
  status?: unknown;
  enabled?: unknown;
  error?: unknown;
  trust?: { installSource?: unknown; reason?: unknown } | null;
  /** 2026.9 nests the plugin under `plugin`; 2026.2 prints it at the top. */
  plugin?: InspectedPlugin;
}

/** `openclaw plugins inspect <id> --json` (2026.9) or `plugins info <id> --json` (2026.2). */
export async function inspectPlugin(options: OpenClawCliOptions, id: string): Promise<PluginLoadStatus> {
  let r = await run(options, ['plugins', 'inspect', id, '--json']);
  if (!r.available) return { available: false, found: false, untracked: false, warnings: [], output: '' };
  if (r.code !== 0 && /unknown command|too many arguments/i.test(r.output)) r = await run(options, ['plugins', 'info', id, '--json']);
  const start = r.output.indexOf('{');
  let parsed: InspectedPlugin | undefined;
  if (start >= 0) {
    // The JSON document is followed by log lines on some releases: take the balanced object.
    let depth = 0;
    let inString = false;
    for (let i = start; i < r.output.length; i++) {
      const c = r.output[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        try {
          parsed = JSON.parse(r.output.slice(start, i + 1)) as InspectedPlugin;
        } catch {
          parsed = undefined;
        }
        break;
      }
    }
  }
  const plugin = parsed?.plugin ?? parsed;
  const warnings = r.output
    .split('\n')
    .filter((l) => l.includes(id) && /can't verify|cannot verify|mismatch|untracked|provenance/i.test(l))
    .map((l) => l.trim());
  if (!plugin || plugin.id !== id) return { available: true, found: false, untracked: false, warnings, output: r.output };
  return {
    available: true,
    found: true,
    status: typeof plugin.status === 'string' ? plugin.status : undefined,
    enabled: typeof plugin.enabled === 'boolean' ? plugin.enabled : undefined,
    installSource: typeof plugin.trust?.installSource === 'string' ? plugin.trust.installSource : undefined,
    error: typeof plugin.error === 'string' ? plugin.error : undefined,
    untracked: plugin.trust?.reason === 'record-missing',
    warnings,
    output: r.output,
  };
}
