/**
 * `sync`: Git (commit the home's Markdown, pull --rebase, push) and/or a
 * configured command (e.g. rclone), with an offline queue: a failed sync is
 * recorded in state.json, retried on later ticks with a growing pause (1, 2,
 * 4 … 60 minutes), and reported by `status`. A failed sync never touches local
 * data. Callers hold the home lock. Git and execa load only when a sync runs.
 */
import type { Config } from '../../config/config-schema.js';
import { describeError, OcmError } from '../../core/errors.js';
import type { HomePaths } from '../../platform/home.js';
import type { Logger } from '../../platform/log.js';
import { readState, writeState, type State } from '../../platform/state.js';
import type { CommandSyncResult } from './command.js';
import type { GitSyncResult } from './git.js';
import type { EncryptedSyncResult } from './encrypted.js';
import type { SyncSecret } from '../../platform/encryption.js';

export interface SyncOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** Re-encrypt the remote for this secret (sync.encrypt only). */
  rotateTo?: SyncSecret;
  /** Test hook: named points of an encrypted run (encrypted.ts). */
  onStep?: (step: string) => void;
}

export interface SyncPending {
  since: string;
  attempts: number;
  lastAttempt: string;
  lastError: string;
  nextAttemptAt: string;
  /** Which parts failed. */
  parts: Array<'git' | 'command'>;
}

export interface SyncState {
  lastRun?: string;
  lastSuccess?: string;
  pending?: SyncPending;
}

export interface SyncResult {
  trigger: 'manual' | 'after_tier' | 'retry';
  git?: GitSyncResult;
  /** sync.encrypt: the encrypted sync (in place of `git`). */
  encrypted?: EncryptedSyncResult;
  command?: CommandSyncResult;
  /** What failed (the sync is queued). */
  errors: Array<{ part: 'git' | 'command'; message: string; hint?: string; exitCode?: number }>;
  queued?: SyncPending;
}

export function syncConfigured(config: Config): boolean {
  return config.sync.git.enabled || config.sync.command.trim() !== '';
}

export function readSyncState(state: State): SyncState {
  const s = state.extra.sync;
  return s && typeof s === 'object' ? (s as SyncState) : {};
}

/** Pause before the next attempt after `attempts` failures: 1, 2, 4 … 60 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

export async function runSync(options: SyncOptions, trigger: SyncResult['trigger'] = 'manual'): Promise<SyncResult> {
  const { config } = options;
  if (!syncConfigured(config)) {
    throw new OcmError('CONFIG_MISSING', 'Nothing to sync with: neither sync.git.enabled nor sync.command is set.', {
      hint: 'Version the home with Git: `ocm-run config set sync.git.enabled true` (and sync.git.remote for a remote), or set sync.command, e.g. "rclone sync {cold} remote:OC-Memory".',
    });
  }
  const result: SyncResult = { trigger, errors: [] };
  const started = options.now();
  const fail = (part: 'git' | 'command', error: unknown) => {
    const d = describeError(error);
    result.errors.push({ part, message: d.message, hint: d.hint, ...(error instanceof OcmError ? { exitCode: error.exitCode } : {}) });
  };
  let encryptedCopy: string | undefined;
  if (config.sync.encrypt) {
    try {
      const [{ encryptedSync }, { outboxDir }] = await Promise.all([import('./encrypted.js'), import('./outbox.js')]);
      const outbox = config.sync.command.trim() ? outboxDir(options.paths.machine) : undefined;
      result.encrypted = await encryptedSync({
        paths: options.paths,
        remote: config.sync.git.enabled ? config.sync.git.remote : '',
        branch: config.sync.git.branch || 'main',
        vaultPath: config.tiers.vault_path,
        secret: await requireSecret(config, options.env),
        ...(options.rotateTo ? { rotateTo: options.rotateTo } : {}),
        forget: (ids) => forgetTombstoned(options, ids),
        ...(options.onStep ? { onStep: options.onStep } : {}),
        ...(outbox ? { outbox } : {}),
      });
      encryptedCopy = result.encrypted.outbox?.dir;
      const e = result.encrypted;
      options.logger.log('info', 'sync.encrypted', {
        pulled: e.pulled,
        pushed: e.pushed,
        written: e.written.length,
        merged: e.merged.length,
        conflicts: e.conflicts.length,
        encrypted: e.encrypted,
        files: e.files,
        forgotten: e.forgotten.length,
        rotated: e.rotated,
      });
    } catch (error) {
      fail('git', error);
    }
  } else if (config.sync.git.enabled) {
    try {
      const { gitSync } = await import('./git.js');
      result.git = await gitSync({
        root: options.paths.root,
        remote: config.sync.git.remote,
        branch: config.sync.git.branch || 'main',
        now: options.now,
        forget: (ids) => forgetTombstoned(options, ids),
      });
      options.logger.log('info', 'sync.git', {
        committed: result.git.committed,
        pulled: result.git.pulled,
        pushed: result.git.pushed,
        repaired: result.git.repaired.length,
        forgotten: result.git.forgotten.length,
      });
    } catch (error) {
      fail('git', error);
    }
  }
  // With encryption on, the command runs only over a fresh encrypted copy.
  if (config.sync.command.trim() && (!config.sync.encrypt || encryptedCopy)) {
    try {
      const { runSyncCommand } = await import('./command.js');
      result.command = await runSyncCommand(
        config.sync.command,
        { home: options.paths.root, vault: config.tiers.vault_path, ...(encryptedCopy ? { encrypted: encryptedCopy } : {}) },
        { env: { ...process.env, ...options.env } },
      );
      options.logger.log('info', 'sync.command', { exitCode: result.command.exitCode, durationMs: result.command.durationMs });
    } catch (error) {
      fail('command', error);
    }
  }
  const { state } = await readState(options.paths.state);
  const s = readSyncState(state);
  s.lastRun = started.toISOString();
  if (result.errors.length === 0) {
    s.lastSuccess = options.now().toISOString();
    delete s.pending;
  } else {
    const attempts = (s.pending?.attempts ?? 0) + 1;
    const at = options.now();
    s.pending = {
      since: s.pending?.since ?? at.toISOString(),
      attempts,
      lastAttempt: at.toISOString(),
      lastError: result.errors.map((e) => e.message.split('\n')[0]).join('; '),
      nextAttemptAt: new Date(at.getTime() + retryDelayMs(attempts)).toISOString(),
      parts: result.errors.map((e) => e.part),
    };
    result.queued = s.pending;
    options.logger.log('warn', 'sync.failed', {
      attempts,
      errors: result.errors.map((e) => e.message.split('\n')[0]),
      nextAttemptAt: s.pending.nextAttemptAt,
    });
  }
  state.extra.sync = s;
  await writeState(options.paths.state, state);
  return result;
}

/** The secret encrypted sync needs: the key file, else the passphrase; neither is a config error. */
export async function requireSecret(config: Config, env: NodeJS.ProcessEnv): Promise<SyncSecret> {
  const { syncSecret, PASSPHRASE_VARIABLE } = await import('../../platform/encryption.js');
  const secret = syncSecret(config.sync.key_file, env);
  if (secret) return secret;
  throw new OcmError(
    'CONFIG_MISSING',
    `sync.encrypt is on, but there is no key: neither sync.key_file nor ${PASSPHRASE_VARIABLE} is set.`,
    {
      hint: `Put ${PASSPHRASE_VARIABLE}=<a long passphrase> in the home's .env, or make a key file (\`ocm-run sync --new-key ~/.oc-memory-sync.key\`) and set sync.key_file to it. Use the same on every device.`,
    },
  );
}

/**
 * Forget here what a tombstone names and the pulled files still hold: the home's own forget (day files,
 * index, vectors, active memory, the audit entry), under the lock the caller holds.
 */
async function forgetTombstoned(options: SyncOptions, ids: string[]): Promise<string[]> {
  const [{ applyForget, forgetOptionsFor, planForget }, { resolveTimeZone }] = await Promise.all([
    import('../../tiers/forget.js'),
    import('../../platform/time-zone.js'),
  ]);
  const { paths, config, logger, now } = options;
  const plan = await planForget(paths, config, { ids });
  if (plan.targets.length === 0) return [];
  const forgetOptions = await forgetOptionsFor({ paths, config, logger, now, timeZone: async () => resolveTimeZone(config.timezone) });
  await applyForget(forgetOptions, plan, { ids });
  logger.log('info', 'sync.forgot', { observations: plan.targets.length });
  return [...new Set(plan.targets.map((t) => t.id))].sort();
}

/**
 * The sync part of a tick: after the daily tier run when `sync.after_tier`,
 * and whenever a queued sync's pause is over.
 */
export async function syncStep(options: SyncOptions, when: { afterTier: boolean }): Promise<SyncResult | undefined> {
  if (!syncConfigured(options.config)) return undefined;
  const { state } = await readState(options.paths.state);
  const pending = readSyncState(state).pending;
  if (pending && options.now().getTime() >= Date.parse(pending.nextAttemptAt)) return runSync(options, 'retry');
  if (when.afterTier && options.config.sync.after_tier && !pending) return runSync(options, 'after_tier');
  return undefined;
}

/** For `status`: last sync and what waits to be retried. */
export async function syncStatus(paths: HomePaths, config: Config): Promise<{ configured: boolean } & SyncState> {
  const { state } = await readState(paths.state);
  return { configured: syncConfigured(config), ...readSyncState(state) };
}
