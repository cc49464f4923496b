/**
 * The configured sync command (`sync.command`), e.g.
 *   rclone sync {vault}/OC-Memory dropbox:OC-Memory
 * run with execa — no shell: the string is split like a command line
 * (execa's parseCommandString; a space inside an argument is written `\ `).
 * Placeholders: {home}, {vault}, {cold} (the vault's OC-Memory folder); the
 * spelling <home>, <vault> works too; with sync.encrypt, only {encrypted} (the
 * encrypted copy). Its output never reaches a log unmasked.
 */
import { execa, parseCommandString } from 'execa';
import { join } from 'node:path';
import { expandHome } from '../../platform/home.js';
import { OcmError, isNotFound } from '../../core/errors.js';
import { maskSecrets } from '../../masking/masking.js';

export interface CommandSyncResult {
  command: string;
  exitCode: number;
  durationMs: number;
  /** Last lines of its output (masked). */
  output: string;
}

/**
 * The command's arguments. `encrypted` (sync.encrypt on): the folder holding the encrypted copy is
 * `{encrypted}`, and the placeholders naming plain files are refused — the command must never see them.
 */
export function expandSyncCommand(command: string, vars: { home: string; vault: string; encrypted?: string }): string[] {
  const vault = vars.vault ? expandHome(vars.vault) : '';
  const values: Record<string, string> =
    vars.encrypted !== undefined ? { encrypted: vars.encrypted } : { home: vars.home, vault, cold: vault ? join(vault, 'OC-Memory') : '' };
  const args = parseCommandString(command.trim());
  return args.map((a) =>
    a.replace(/\{(home|vault|cold|encrypted)\}|<(home|vault|cold|encrypted)>/g, (_m, x: string | undefined, y: string | undefined) => {
      const name = (x ?? y)!;
      if (vars.encrypted !== undefined && name !== 'encrypted') {
        throw new OcmError('CONFIG_INVALID', `sync.command uses {${name}}, which names plain files, and sync.encrypt is on.`, {
          hint: 'Use {encrypted}: the folder holding the encrypted copy, e.g. `rclone sync {encrypted} remote:OC-Memory`.',
        });
      }
      if (name === 'encrypted' && vars.encrypted === undefined)
        throw new OcmError('CONFIG_INVALID', 'sync.command uses {encrypted}, but sync.encrypt is off.', {
          hint: 'Turn on sync.encrypt, or use {home}, {vault} or {cold}.',
        });
      if (!values[name])
        throw new OcmError('CONFIG_INVALID', `sync.command uses {${name}}, but no vault is configured.`, {
          hint: 'Set tiers.vault_path, or leave the placeholder out.',
        });
      return values[name]!;
    }),
  );
}

function tail(text: string, lines = 5): string {
  return maskSecrets(text.split('\n').filter(Boolean).slice(-lines).join('\n')).text;
}

export async function runSyncCommand(
  command: string,
  vars: { home: string; vault: string; encrypted?: string },
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandSyncResult> {
  const [file, ...args] = expandSyncCommand(command, vars);
  if (!file)
    throw new OcmError('CONFIG_INVALID', 'sync.command is empty.', {
      hint: 'Set it, e.g. `rclone sync {cold} remote:OC-Memory`, or leave it out.',
    });
  const started = Date.now();
  const result = await execa(file, args, {
    cwd: vars.home,
    reject: false,
    timeout: options.timeoutMs ?? 600_000,
    stdin: 'ignore',
    all: true,
    ...(options.env ? { env: options.env } : {}),
  });
  const output = tail(String(result.all ?? ''));
  const display = maskSecrets(command).text;
  if (result.failed) {
    const why = result.timedOut
      ? 'timed out'
      : result.exitCode !== undefined
        ? `exit code ${result.exitCode}`
        : isNotFound(result)
          ? `"${file}" was not found`
          : 'failed to start';
    throw new OcmError('IO_ERROR', `The sync command failed (${why}): ${display}${output ? `\n${output}` : ''}`, {
      hint: 'Local memory is untouched. The sync is queued and retried on later ticks; `ocm-run status` shows it. Run `ocm-run sync` to retry now.',
      details: { exitCode: result.exitCode ?? null },
    });
  }
  return { command: display, exitCode: result.exitCode ?? 0, durationMs: Date.now() - started, output };
}
