import { defineCommand, type CommandContext } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import type { Flags, FlagValues } from '../flags.js';
import type { PathsKeys } from '../../lib/api/integrations.js';

/** What `integrate` can hook OC-Memory into. */
const INTEGRATION_TARGETS = ['openclaw', 'claude-code', 'codex', 'pi'];

const INTEGRATE_FLAGS = {
  print: { description: 'Only print the settings and where the plugin goes; change nothing' },
  uninstall: { description: 'Remove the settings and the plugin again' },
  perProject: {
    description: "claude-code: each project (its working directory) gets its own memory; search looks at the project's and main's",
  },
  keys: {
    value: '<which>',
    description:
      'Extra-paths key(s) to write: auto (default: what the installed OpenClaw accepts) | current (memory.search) | legacy (agents.defaults.memorySearch) | both',
  },
} as const satisfies Flags;

/** The flags of `integrate`, as each target's setup gets them. */
export type IntegrateFlags = FlagValues<typeof INTEGRATE_FLAGS>;

/** What `integrate claude-code`, `codex` or `pi` does. */
export type AgentIntegrationRequest = { kind: 'status' } | { kind: 'print' } | { kind: 'uninstall' } | { kind: 'install' };

/** `integrate <agent> [status]` and its flags as the request (an unknown action: BAD_INPUT naming the target). */
export function agentIntegrationOptions(target: string, action: string | undefined, flags: IntegrateFlags): AgentIntegrationRequest {
  if (action === 'status') return { kind: 'status' };
  if (action !== undefined)
    throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate ${target}.`, {
      hint: `Use \`ocm-run integrate ${target}\`, \`… status\`, \`… --print\` or \`… --uninstall\`.`,
    });
  if (flags.print) return { kind: 'print' };
  if (flags.uninstall) return { kind: 'uninstall' };
  return { kind: 'install' };
}

/** What `integrate openclaw` does: the status, the settings printed, the uninstall, or the install with these keys. */
type OpenClawRequest =
  | { kind: 'status' }
  | { kind: 'print'; keys: PathsKeys }
  | { kind: 'uninstall' }
  | { kind: 'install'; keys: PathsKeys };

/** `integrate openclaw [status]` and its flags as the request (checked: --keys, the action). */
function openClawOptions(action: string | undefined, flags: IntegrateFlags): OpenClawRequest {
  const keys = flags.keys ?? 'auto';
  if (!(['auto', 'both', 'current', 'legacy'] as const).includes(keys as PathsKeys))
    throw new OcmError('BAD_INPUT', `--keys must be auto, current, legacy or both (got ${keys}).`);
  if (action === 'status') return { kind: 'status' };
  if (action !== undefined)
    throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate openclaw.`, {
      hint: 'Use `ocm-run integrate openclaw`, `… status`, `… --print` or `… --uninstall`.',
    });
  if (flags.print) return { kind: 'print', keys: keys as PathsKeys };
  if (flags.uninstall) return { kind: 'uninstall' };
  return { kind: 'install', keys: keys as PathsKeys };
}

export const command = defineCommand({
  name: 'integrate [target] [action]',
  description:
    'Hook OC-Memory into OpenClaw (memory folders in openclaw.json + the OC-Memory plugin), Claude Code or Codex (MCP server + hooks), pi (an extension with the same tools and hooks; `integrate openclaw status`, `integrate claude-code status`, `integrate codex status`); --uninstall reverses it',
  flags: INTEGRATE_FLAGS,
  examples: [
    'ocm-run integrate openclaw',
    'ocm-run integrate openclaw status',
    'ocm-run integrate openclaw --print',
    'ocm-run integrate openclaw --uninstall',
    'ocm-run integrate claude-code',
    'ocm-run integrate claude-code status',
    'ocm-run integrate codex',
  ],
  async run(ctx, args, options) {
    // No target: the help, never a default one (a bare `integrate` used to edit openclaw.json).
    if (args.target === undefined) {
      ctx.showHelp();
      return;
    }
    const { target } = args;
    if (target === 'claude-code') return (await import('./integrate-claude-code.js')).runClaudeCodeIntegration(ctx, args.action, options);
    if (target === 'pi') return (await import('./integrate-pi.js')).runPiIntegration(ctx, args.action, options);
    if (target === 'codex') return (await import('./integrate-codex.js')).runCodexIntegration(ctx, args.action, options);
    if (target !== 'openclaw') {
      const { didYouMean } = await import('../../lib/api/errors.js');
      throw new OcmError('BAD_INPUT', `Unknown integration "${target}".${didYouMean(target, INTEGRATION_TARGETS)}`, {
        hint: 'Use `ocm-run integrate openclaw`, `ocm-run integrate claude-code`, `ocm-run integrate codex` or `ocm-run integrate pi`.',
      });
    }
    const request = openClawOptions(args.action, options);
    const api = await import('../../lib/api/integrations.js');
    if (request.kind === 'status') {
      await openClawStatus(ctx);
      return;
    }

    if (request.kind === 'print') {
      const {
        location,
        snippet,
        pluginFiles: sources,
        version,
      } = await api.openClawPreview({ paths: ctx.paths, env: ctx.env, keys: request.keys });
      if (ctx.json) {
        ctx.out(
          JSON.stringify(
            {
              configPath: location.configPath,
              pluginDir: location.pluginDir,
              pluginFiles: sources,
              openClawVersion: version?.text ?? null,
              settings: JSON.parse(snippet),
            },
            null,
            2,
          ),
        );
        return;
      }
      ctx.out(
        [
          `Add this to ${location.configPath} (merge it with what is there; OpenClaw reads JSON5)${version ? ` — the keys OpenClaw ${version.text} knows` : ' — the keys current OpenClaw releases know (no `openclaw` CLI found to ask)'}:`,
          '',
          snippet,
          '',
          `and install the plugin: put its files in one folder and run \`openclaw plugins install <that folder>\` (or copy them to ${location.pluginDir}/):`,
          `  mkdir -p "${location.pluginDir}" && cp ${sources.map((f) => `"${f}"`).join(' ')} "${location.pluginDir}/"`,
          '',
          'Check it with `openclaw config validate`, then restart the OpenClaw gateway. (`ocm-run integrate openclaw` does all of this for you, with a backup.)',
        ].join('\n'),
      );
      return;
    }

    if (request.kind === 'uninstall') {
      const r = await api.uninstallOpenClaw({ paths: ctx.paths, env: ctx.env });
      if (ctx.json) {
        ctx.out(JSON.stringify({ ok: true, ...r }));
        return;
      }
      const lines: string[] = [];
      if (r.mode === 'none' && !r.pluginRemoved) lines.push('Nothing of OC-Memory was found in OpenClaw; nothing to do.');
      else {
        lines.push(
          r.mode === 'restored'
            ? `Restored ${r.configPath} exactly as it was before the integration.`
            : r.mode === 'deleted'
              ? `Removed ${r.configPath} (created by the integration).`
              : r.mode === 'edited'
                ? `Took OC-Memory's settings out of ${r.configPath} (your later edits are kept):`
                : `${r.configPath} had no OC-Memory settings.`,
        );
        if (r.mode === 'edited') for (const c of r.changes) lines.push(`  ${c}`);
        if (r.pluginRemoved)
          lines.push(
            r.pluginUninstall === 'openclaw'
              ? 'Removed the OC-Memory plugin with `openclaw plugins uninstall` (OpenClaw forgot its install record too).'
              : 'Removed the OC-Memory plugin.',
          );
        if (r.pluginUninstallNote) lines.push(`Note: ${r.pluginUninstallNote}.`);
        lines.push('Restart the OpenClaw gateway to apply.');
      }
      ctx.out(lines.join('\n'));
      return;
    }

    await ctx.config();
    const { failHook } = await import('../tier-context.js');
    const r = await api.installOpenClaw({ paths: ctx.paths, env: ctx.env, keys: request.keys, onStep: failHook(ctx.env) });
    if (ctx.json) {
      ctx.out(
        JSON.stringify({
          ok: true,
          configPath: r.location.configPath,
          changes: r.changes,
          backup: r.backup,
          pluginDir: r.pluginDir,
          pluginInstall: r.pluginInstall,
          pluginInstallNote: r.pluginInstallNote,
          keys: r.shape.keys,
          openClawVersion: r.openClawVersion,
          validated: r.validated,
          toolPolicy: r.toolPolicy,
        }),
      );
      return;
    }
    const lines = [`OpenClaw${r.openClawVersion ? ` ${r.openClawVersion}` : ''} integration for ${ctx.paths.root}:`];
    if (r.changes.length === 0) lines.push(`  ${r.location.configPath} already had every OC-Memory setting.`);
    for (const c of r.changes) lines.push(`  ${r.location.configPath}: ${c}`);
    if (r.backup) lines.push(`  backup of the original: ${r.backup}`);
    lines.push(
      r.pluginInstall === 'openclaw'
        ? `  plugin installed by \`openclaw plugins install\` in ${r.pluginDir}`
        : `  plugin copied to ${r.pluginDir}`,
    );
    if (r.pluginInstallNote) lines.push(`  note: ${r.pluginInstallNote}`);
    lines.push(
      r.validated === 'ok'
        ? '  OpenClaw itself checked the result on a copy before it replaced openclaw.json.'
        : '  not checked by OpenClaw (no `openclaw` command found); `openclaw config validate` checks it.',
    );
    lines.push(...(await api.toolPolicyText(r.toolPolicy)));
    lines.push('Restart the OpenClaw gateway to load it. Undo with: ocm-run integrate openclaw --uninstall');
    ctx.out(lines.join('\n'));
  },
});

/** `integrate openclaw status`: the integration's pieces and, per OpenClaw agent, whether its model is offered the memory tools (what `doctor` checks too). */
async function openClawStatus(ctx: CommandContext): Promise<void> {
  const api = await import('../../lib/api/integrations.js');
  const describeAdvice = await api.adviceText();
  const { status: s, presence, version } = await api.openClawStatus({ paths: ctx.paths, env: ctx.env });
  const { configPath, configExists, pluginDir } = s.location;
  if (ctx.json) {
    ctx.out(
      JSON.stringify({
        openClaw: { installed: presence.installed, seen: presence.seen },
        configPath,
        configExists,
        pluginDir,
        openClawVersion: version ?? null,
        currentKey: s.currentKey,
        legacyKey: s.legacyKey,
        pluginEntry: s.pluginEntry,
        pluginInstalled: s.pluginInstalled,
        pluginOutdated: s.pluginOutdated,
        toolPolicy: s.toolPolicy,
        warning: s.warning ?? null,
      }),
    );
    return;
  }
  const mark = (ok: boolean) => (ok ? '✅' : '❌');
  const lines = [`OpenClaw${version ? ` ${version}` : ''} integration for ${ctx.paths.root}:`];
  // What was seen of OpenClaw itself first: files of an earlier integration are no sign that it is installed.
  lines.push(
    presence.installed
      ? `  ✅ OpenClaw: ${presence.seen}`
      : `  ❌ OpenClaw: not installed here (${presence.seen}); what follows is only what is on disk`,
  );
  if (!configExists) lines.push(`  ❌ no ${configPath}`);
  else if (s.warning) lines.push(`  ❌ ${configPath} cannot be read: ${s.warning}`);
  else {
    // Either key will do (2026.9 rejects the 2026.2 one), as in doctor.
    const keys = [s.currentKey ? 'memory.search.extraPaths' : '', s.legacyKey ? 'agents.defaults.memorySearch.extraPaths (2026.2)' : '']
      .filter(Boolean)
      .join(' and ');
    lines.push(
      `  ${mark(s.currentKey || s.legacyKey)} memory folders in ${keys || 'neither memory.search.extraPaths nor agents.defaults.memorySearch.extraPaths'} (${configPath})`,
      `  ${mark(s.pluginEntry)} plugin entry plugins.entries.oc-memory`,
    );
  }
  lines.push(
    `  ${mark(s.pluginInstalled && !s.pluginOutdated)} plugin files in ${pluginDir}${s.pluginOutdated ? ' (not the ones this version ships: run `ocm-run integrate openclaw` again)' : ''}`,
  );
  for (const a of s.toolPolicy) {
    lines.push(
      a.offered
        ? `  ✅ agent ${a.agent}: offered the memory tools (oc_memory_search, _get, _remember, _active)`
        : `  ⚠️  agent ${a.agent}: the tool policy hides the memory tools — ${a.advice.map((x) => `${describeAdvice(x)} (${x.why})`).join('; ')}`,
    );
  }
  if (s.toolPolicy.some((a) => !a.offered))
    lines.push(
      '  (memory still reaches each prompt and turns are observed without the tools; restart the OpenClaw gateway after changing the policy)',
    );
  ctx.out(lines.join('\n'));
}
