/**
 * Every command of the CLI, by name, loaded on demand: a process that runs one
 * command (every cron tick, every `search` from the OpenClaw plugin) loads one
 * command module, not all of them. Each module keeps heavy imports inside run().
 */
import type { CommandSpec } from '../cli-context.js';

type Loader = () => Promise<{ command: CommandSpec }>;

/** In the order `--help` lists them. */
export const COMMAND_LOADERS: Record<string, Loader> = {
  observe: () => import('./observe.js'),
  run: () => import('./run.js'),
  status: () => import('./status.js'),
  config: () => import('./config.js'),
  demo: () => import('./demo.js'),
  schedule: () => import('./schedule.js'),
  watch: () => import('./watch.js'),
  start: () => import('./start.js'),
  stop: () => import('./stop.js'),
  integrate: () => import('./integrate.js'),
  repoint: () => import('./repoint.js'),
  doctor: () => import('./doctor.js'),
  stats: () => import('./stats.js'),
  setup: () => import('./setup.js'),
  index: () => import('./index-cmd.js'),
  search: () => import('./search.js'),
  get: () => import('./get.js'),
  mcp: () => import('./mcp.js'),
  hook: () => import('./hook.js'),
  tier: () => import('./tier.js'),
  archive: () => import('./archive.js'),
  approvals: () => import('./approvals.js'),
  sync: () => import('./sync.js'),
  forget: () => import('./forget.js'),
  mark: () => import('./mark.js'),
  export: () => import('./export.js'),
  import: () => import('./import.js'),
  backup: () => import('./backup.js'),
  restore: () => import('./restore.js'),
  sources: () => import('./sources.js'),
  reflect: () => import('./reflect.js'),
  alerts: () => import('./alerts.js'),
  ui: () => import('./ui.js'),
};

/** Every command (for the top-level help, an unknown command, and tests). */
export async function loadAllCommands(): Promise<CommandSpec[]> {
  return Promise.all(Object.values(COMMAND_LOADERS).map(async (load) => (await load()).command));
}

/**
 * The commands a command line can be running: every known command name among
 * its words (usually just the first; an option value that happens to be a
 * command name only loads one more). No command name at all: every command.
 */
export async function loadCommandsFor(argv: string[]): Promise<CommandSpec[]> {
  const named = [...new Set(argv.filter((word) => Object.hasOwn(COMMAND_LOADERS, word)))];
  if (named.length === 0) return loadAllCommands();
  return Promise.all(named.map(async (name) => (await COMMAND_LOADERS[name]!()).command));
}
