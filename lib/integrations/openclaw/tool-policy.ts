/**
 * Would OpenClaw's tool policy hide OC-Memory's memory tools (oc_memory_search,
 * _get, _remember, _active) from an agent's model? What the user must add to
 * (or take out of) their allow and deny lists, scope by scope
 * (docs/running.md, "ocm-run integrate openclaw", the plugin's tools).
 *
 * OpenClaw (2026.9 docs: gateway/config-tools/tool-policy.md,
 * tools/multi-agent-sandbox-tools.md) filters a run's tools through layers
 * that each can only restrict: the profile (`tools.profile`, or the agent's
 * `agents.entries.<id>.tools.profile`, which overrides it), then
 * `tools.allow` / `tools.deny`, then the agent's `allow` / `deny` (deny always
 * wins). A plugin's tool passes an allow list that holds `*`,
 * `group:plugins`, the plugin's id or a pattern matching the tool's name
 * (dist/tool-grant-allowlist-*.mjs, createPluginToolAllowlist). The plugin's
 * manifest adds its tools to the `coding` and `messaging` profiles
 * (`toolMetadata.<tool>.profiles`, which 2026.2 does not read); `full` and no
 * profile filter no plugin tool; `minimal` keeps them out unless `alsoAllow`
 * lets them in. Pure: the caller reads openclaw.json.
 */
import { MEMORY_TOOL_NAMES, pluginToolName } from '../../core/injected-context.js';
import { PLUGIN_ID } from './plugin-files.js';

/** One change to the user's tool policy that lets the memory tools through. */
export interface ToolPolicyAdvice {
  /** The key to edit, as OpenClaw names it: `tools.allow`, `agents.entries.work.tools.alsoAllow`, … */
  key: string;
  action: 'add' | 'remove';
  /** The entry to add or remove. */
  entry: string;
  /** Why the tools are hidden now, for the user. */
  why: string;
}

interface Policy {
  profile?: unknown;
  allow?: unknown;
  alsoAllow?: unknown;
  deny?: unknown;
}

/** The plugin's tools, as OpenClaw's policy sees them. */
export const PLUGIN_TOOL_NAMES: readonly string[] = MEMORY_TOOL_NAMES.map(pluginToolName);

/** Profiles that leave a plugin's (non-optional) tools in; `coding` and `messaging` only through the manifest (2026.3 and later). */
function profileKeepsTools(profile: unknown, manifestProfiles: boolean): boolean {
  if (profile === undefined || profile === 'full') return true;
  return manifestProfiles && (profile === 'coding' || profile === 'messaging');
}

/** Does this policy entry take in every memory tool? (`*`, `group:plugins`, the plugin id, a pattern matching each name; case-insensitive.) */
function entryCoversAll(entry: string): boolean {
  const e = entry.trim().toLowerCase();
  if (e === '*' || e === 'group:plugins' || e === PLUGIN_ID) return true;
  return PLUGIN_TOOL_NAMES.every((name) => glob(e).test(name));
}

/** Does this entry take in any memory tool? (For deny lists.) */
function entryCoversAny(entry: string): boolean {
  const e = entry.trim().toLowerCase();
  if (e === '*' || e === 'group:plugins' || e === PLUGIN_ID) return true;
  return PLUGIN_TOOL_NAMES.some((name) => glob(e).test(name));
}

function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function policyAt(value: unknown): Policy | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Policy) : undefined;
}

/**
 * The advice for one policy scope. `profile`: the profile in force there
 * (its own, else the one it inherits); `checkProfile`: whether this scope is
 * where that profile is set (the advice then goes to its `alsoAllow`).
 */
function scopeAdvice(key: string, policy: Policy, profile: unknown, checkProfile: boolean, manifestProfiles: boolean): ToolPolicyAdvice[] {
  const advice: ToolPolicyAdvice[] = [];
  for (const entry of strings(policy.deny)) {
    if (entryCoversAny(entry))
      advice.push({
        key: `${key}.deny`,
        action: 'remove',
        entry,
        why: `"${entry}" in ${key}.deny hides OC-Memory's tools (deny always wins)`,
      });
  }
  const allow = strings(policy.allow);
  if (allow.length > 0) {
    if (!allow.some(entryCoversAll))
      advice.push({
        key: `${key}.allow`,
        action: 'add',
        entry: PLUGIN_ID,
        why: `${key}.allow lists the tools this scope may use, and OC-Memory's are not among them`,
      });
    return advice;
  }
  if (checkProfile && !profileKeepsTools(profile, manifestProfiles) && !strings(policy.alsoAllow).some(entryCoversAll)) {
    advice.push({
      key: `${key}.alsoAllow`,
      action: 'add',
      entry: PLUGIN_ID,
      why: `the "${String(profile)}" tool profile (${key}.profile) leaves plugin tools out`,
    });
  }
  return advice;
}

/** One OpenClaw agent under the current tool policy (`doctor`, `integrate openclaw status`). */
export interface AgentToolPolicy {
  /** The agent's id (`main` when openclaw.json names no agents: OpenClaw's default agent). */
  agent: string;
  /** OC-Memory's memory tools are offered to this agent's model. */
  offered: boolean;
  /** What to change so they are ([] when offered). */
  advice: ToolPolicyAdvice[];
}

function sameAdvice(a: ToolPolicyAdvice, b: ToolPolicyAdvice): boolean {
  return a.key === b.key && a.action === b.action && a.entry === b.entry;
}

/**
 * Per agent: is it offered the memory tools, and if not, what to change in
 * openclaw.json (parsed). An agent's advice: what hides the tools globally
 * (`tools.deny` / `tools.allow`, and the global profile unless the agent sets
 * its own), then `tools.byProvider.*` (it applies to the agents whose model
 * comes from that provider; the model is not resolved here, so every agent
 * gets it), then the agent's own scope. `manifestProfiles`: the OpenClaw
 * release reads `toolMetadata.<tool>.profiles` from plugin manifests (2026.3
 * and later; true when the release is not known).
 */
export function memoryToolPolicyByAgent(config: unknown, options: { manifestProfiles: boolean }): AgentToolPolicy[] {
  const root = policyAt(config) as Record<string, unknown> | undefined;
  const tools = policyAt(root?.tools) ?? {};
  const global = scopeAdvice('tools', { ...tools, profile: undefined }, undefined, false, options.manifestProfiles);
  const globalProfile = scopeAdvice(
    'tools',
    { profile: tools.profile, alsoAllow: tools.alsoAllow },
    tools.profile,
    tools.profile !== undefined && strings(tools.allow).length === 0,
    options.manifestProfiles,
  );
  const byProvider: ToolPolicyAdvice[] = [];
  for (const [provider, value] of Object.entries(
    (policyAt((tools as Record<string, unknown>).byProvider) as Record<string, unknown> | undefined) ?? {},
  )) {
    const p = policyAt(value);
    if (p)
      byProvider.push(
        ...scopeAdvice(`tools.byProvider.${provider}`, p, p.profile ?? tools.profile, p.profile !== undefined, options.manifestProfiles),
      );
  }
  const agents = policyAt(root?.agents) as Record<string, unknown> | undefined;
  // 2026.9 keys agents by id (agents.entries.<id>); the 2026.2 file era lists them (agents.list[i]).
  const entries = Object.entries((policyAt(agents?.entries) as Record<string, unknown> | undefined) ?? {}).map(([id, a]) => ({
    id,
    key: `agents.entries.${id}.tools`,
    agent: a,
  }));
  const list = Array.isArray(agents?.list)
    ? (agents.list as unknown[]).map((a, i) => {
        const id = (policyAt(a) as Record<string, unknown> | undefined)?.id;
        return { id: typeof id === 'string' && id.trim() ? id.trim() : `agents.list[${i}]`, key: `agents.list[${i}].tools`, agent: a };
      })
    : [];
  const all = [...entries, ...list];
  return (all.length > 0 ? all : [{ id: 'main', key: '', agent: undefined }]).map(({ id, key, agent }) => {
    const p = policyAt(policyAt(agent) && (agent as Record<string, unknown>).tools);
    const advice = [...global, ...(p?.profile !== undefined ? [] : globalProfile), ...byProvider];
    if (p) advice.push(...scopeAdvice(key, p, p.profile ?? tools.profile, p.profile !== undefined, options.manifestProfiles));
    return { agent: id, offered: advice.length === 0, advice };
  });
}

/**
 * What to change in openclaw.json (parsed) so every agent's model is offered
 * the memory tools, each change once; [] when nothing hides them
 * (memoryToolPolicyByAgent, all agents together).
 */
export function memoryToolPolicyAdvice(config: unknown, options: { manifestProfiles: boolean }): ToolPolicyAdvice[] {
  const advice: ToolPolicyAdvice[] = [];
  for (const a of memoryToolPolicyByAgent(config, options))
    for (const x of a.advice) if (!advice.some((y) => sameAdvice(x, y))) advice.push(x);
  return advice;
}

/** The advice as lines for the user: what to add or remove, and why. */
export function toolPolicyLines(advice: readonly ToolPolicyAdvice[]): string[] {
  if (advice.length === 0) return [];
  return [
    "OpenClaw's tool policy hides OC-Memory's memory tools (oc_memory_search, oc_memory_get, oc_memory_remember, oc_memory_active) from the model; to offer them:",
    ...advice.map((a) => `  ${describeAdvice(a)} — ${a.why}`),
    '  (memory is still put in front of each prompt and observed after each turn without them)',
  ];
}

/** One change as the user reads it: `add "oc-memory" to agents.entries.work.tools.allow`. */
export function describeAdvice(a: ToolPolicyAdvice): string {
  return a.action === 'add' ? `add "${a.entry}" to ${a.key}` : `remove "${a.entry}" from ${a.key}`;
}
