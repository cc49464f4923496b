/**
 * The top-level `--help`: the commands in groups by what a user is doing (start, read the memory,
 * run the jobs, connect agents, manage tiers and history, settings), instead of cac's one flat
 * list, and one line on how to see a command's own help. A command's `--help` is cac's, unchanged.
 */
import type { CommandSpec } from './cli-context.js';

interface HelpSection {
  title?: string;
  body: string;
}

/** In the order `--help` shows them; a command in no group is listed under "Other". */
export const COMMAND_GROUPS: ReadonlyArray<{ title: string; commands: readonly string[] }> = [
  { title: 'Start', commands: ['setup', 'demo', 'doctor'] },
  { title: 'Read the memory', commands: ['status', 'search', 'get', 'stats', 'sources', 'export', 'import', 'ui'] },
  { title: 'Run the jobs', commands: ['run', 'observe', 'reflect', 'index', 'schedule', 'watch', 'start', 'stop'] },
  { title: 'Connect agents', commands: ['integrate', 'repoint', 'mcp', 'hook'] },
  { title: 'Tiers, edits and history', commands: ['tier', 'archive', 'approvals', 'forget', 'mark', 'sync', 'backup', 'restore'] },
  { title: 'Settings', commands: ['config', 'alerts'] },
];

function firstWord(name: string): string {
  return name.split(' ')[0]!;
}

/** cac's help sections with "Commands" and its per-command "--help" list replaced by the groups. */
export function groupedHelp(sections: HelpSection[], specs: readonly CommandSpec[]): HelpSection[] {
  const commandsAt = sections.findIndex((s) => s.title === 'Commands');
  if (commandsAt < 0) return commandHelp(sections, specs);
  const byName = new Map(specs.map((s) => [firstWord(s.name), s]));
  const width = Math.max(...specs.map((s) => s.name.length));
  const line = (spec: CommandSpec) => `  ${spec.name.padEnd(width)}  ${spec.description}`;
  const grouped: HelpSection[] = [];
  const shown = new Set<string>();
  for (const group of COMMAND_GROUPS) {
    const members = group.commands.map((c) => byName.get(c)).filter((s): s is CommandSpec => s !== undefined);
    for (const m of members) shown.add(firstWord(m.name));
    if (members.length > 0) grouped.push({ title: group.title, body: members.map(line).join('\n') });
  }
  const others = specs.filter((s) => !shown.has(firstWord(s.name)));
  if (others.length > 0) grouped.push({ title: 'Other', body: others.map(line).join('\n') });
  grouped.push({ body: 'A command\'s options and examples: `ocm-run help search` (or `ocm-run search --help`).' });
  const rest = sections.filter((s, i) => i !== commandsAt && !s.title?.startsWith('For more info'));
  rest.splice(commandsAt, 0, ...grouped);
  return rest;
}

/**
 * A command's own help: what it does under its usage (cac shows only the usage), and where its home is
 * when that is not the global default (`demo` makes a new one).
 */
function commandHelp(sections: HelpSection[], specs: readonly CommandSpec[]): HelpSection[] {
  const usageAt = sections.findIndex((s) => s.title === 'Usage');
  const name = usageAt < 0 ? undefined : /\$ \S+ (\S+)/.exec(sections[usageAt]!.body)?.[1];
  const spec = specs.find((s) => firstWord(s.name) === name);
  if (!spec) return sections;
  const out = sections.map((s) => (s.title === 'Options' && spec.homeHelp ? { ...s, body: s.body.replace(/^(\s+--home <dir>\s+).*$/m, (_all, lead: string) => `${lead}${spec.homeHelp}`) } : s));
  out.splice(usageAt + 1, 0, { body: spec.description });
  return out;
}
