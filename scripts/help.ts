/**
 * `--help`: the top level lists the commands in groups by what a user is doing (start, read the
 * memory, run the jobs, connect agents, manage tiers and history, settings), with one line on how to
 * see a command's own help; a command's help is its usage, what it does, its flags (then the global
 * ones) and its examples.
 */
import type { CommandSpec } from './cli-context.js';
import { flagUsage, GLOBAL_FLAGS, type Flags } from './flags.js';

interface HelpSection {
  title?: string;
  body: string;
}

function padRight(text: string, width: number): string {
  return text.length >= width ? text : `${text}${' '.repeat(width - text.length)}`;
}

function optionsBody(flags: Flags): string {
  const rows = Object.entries(flags).map(([key, flag]) => {
    const shown = flag.value === undefined ? (flag.negated ? 'true' : undefined) : flag.default;
    return [flagUsage(key, flag), `${flag.description} ${shown === undefined ? '' : `(default: ${shown})`}`] as const;
  });
  const width = Math.max(...rows.map(([usage]) => usage.length));
  return rows.map(([usage, text]) => `  ${padRight(usage, width)}  ${text}`).join('\n');
}

/** The help of one command, or (no command) of the program, as printed. */
export function helpText(program: { name: string; version: string }, specs: readonly CommandSpec[], command?: CommandSpec): string {
  const sections: HelpSection[] = [{ body: `${program.name}/${program.version}` }];
  if (command) {
    const { version: _version, ...globals } = GLOBAL_FLAGS;
    sections.push({ title: 'Usage', body: `  $ ${program.name} ${command.name}` });
    sections.push({ body: command.description });
    const flags = { ...command.flags, ...globals } as Flags;
    const options = optionsBody(flags);
    sections.push({
      title: 'Options',
      body: command.homeHelp ? options.replace(/^(\s+--home <dir>\s+).*$/m, (_all, lead: string) => `${lead}${command.homeHelp}`) : options,
    });
    if (command.examples?.length) sections.push({ title: 'Examples', body: command.examples.join('\n') });
  } else {
    sections.push({ title: 'Usage', body: `  $ ${program.name} <command> [options]` });
    sections.push(...groupedCommands(specs));
    sections.push({ title: 'Options', body: optionsBody(GLOBAL_FLAGS) });
  }
  return sections.map((s) => (s.title ? `${s.title}:\n${s.body}` : s.body)).join('\n\n');
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

/** The commands in their groups, and how to see one's own help. */
function groupedCommands(specs: readonly CommandSpec[]): HelpSection[] {
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
  grouped.push({ body: "A command's options and examples: `ocm-run help search` (or `ocm-run search --help`)." });
  return grouped;
}
