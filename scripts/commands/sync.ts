import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import { EXIT } from '../../lib/api/errors.js';
import type { SyncNowOptions } from '../../lib/api/sync.js';
import type { Flags, FlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';
import { crashHook } from '../tier-context.js';

/** The new passphrase of a key rotation (lib/api/sync.ts NEW_PASSPHRASE; here for the help, without loading it). */
const NEW_PASSPHRASE = 'OCM_SYNC_NEW_PASSPHRASE';

const SYNC_FLAGS = {
  newKey: {
    value: '<file>',
    description: 'Write a new sync key file (age format, 0600) and stop; then `config set sync.key_file <file>`',
  },
  rotateKey: { description: `Re-encrypt the remote for a new key: --new-key-file, or the passphrase in ${NEW_PASSPHRASE}` },
  newKeyFile: { value: '<file>', description: 'With --rotate-key: the new key file (created when missing); sync.key_file is set to it' },
} as const satisfies Flags;

/** What `sync` does: write a new key file and stop, or sync (with the options of lib/api/sync.ts syncNow). */
type SyncRequest = { kind: 'new-key'; file: string } | { kind: 'sync'; options: SyncNowOptions };

/** The command line as the sync request (--new-key first; paths absolute). */
function syncOptions(flags: FlagValues<typeof SYNC_FLAGS>, configFile: string, env: NodeJS.ProcessEnv): SyncRequest {
  if (flags.newKey) return { kind: 'new-key', file: resolve(flags.newKey) };
  const onStep = crashHook(env);
  const options: SyncNowOptions = { configFile, onStep };
  if (flags.rotateKey) options.rotate = { keyFile: flags.newKeyFile ? resolve(flags.newKeyFile) : undefined };
  return { kind: 'sync', options };
}

export const command = defineCommand({
  name: 'sync',
  description:
    'Sync the memory now: Git (commit the Markdown, pull --rebase, push) and/or sync.command (e.g. rclone); with sync.encrypt only ciphertext leaves the machine; a failure is queued and retried by `run`',
  flags: SYNC_FLAGS,
  examples: [
    'ocm-run sync',
    'ocm-run config set sync.git.enabled true',
    'ocm-run config set sync.encrypt true   # with OCM_SYNC_PASSPHRASE in .env, or sync.key_file',
    'ocm-run sync --new-key ~/.oc-memory-sync.key',
    `${NEW_PASSPHRASE}=… ocm-run sync --rotate-key`,
    'ocm-run config set sync.command "rclone sync {encrypted} dropbox:OC-Memory"',
  ],
  async run(ctx, _args, flags) {
    const request = syncOptions(flags, ctx.configFile, ctx.env);
    if (request.kind === 'new-key') {
      const { newSyncKey } = await import('../../lib/api/sync.js');
      const { file, recipient } = await newSyncKey(request.file, ctx.now());
      ctx.out(`Wrote a new sync key to ${file} (mode 0600; public key ${recipient}).`);
      ctx.out(
        `Use it: ocm-run config set sync.key_file ${file}   — and copy the file to your other devices. Without it the encrypted remote cannot be read.`,
      );
      return 0;
    }
    const home = await memoryHome(ctx, 'sync');
    const { config } = home;
    const { syncNow } = await import('../../lib/api/sync.js');
    const { result: r, rotatedTo } = await syncNow(home, {
      ...request.options,
      onNewKeyFile: (file) => ctx.err(`Wrote the new key file ${file} (0600).`),
    });
    const exitCode =
      r.errors.length === 0
        ? EXIT.ok
        : (r.errors.find((e) => e.exitCode !== undefined && e.exitCode !== EXIT.error)?.exitCode ?? EXIT.error);
    if (ctx.json) {
      ctx.out(JSON.stringify(r));
      return exitCode;
    }
    if (r.git) {
      const g = r.git;
      const parts = [
        g.initialised ? 'initialised the repository' : '',
        g.committed ? `committed ${g.committed} file(s)` : 'nothing new to commit',
      ];
      if (g.remote)
        parts.push(
          g.pulled ? `pulled from ${g.remote}` : `${g.remote} had no ${config.sync.git.branch} branch yet`,
          g.pushed ? 'pushed' : '',
        );
      else parts.push('no remote set (sync.git.remote): local commits only');
      if (g.repaired.length) parts.push(`recounted ${g.repaired.length} merged day file(s)`);
      if (g.forgotten.length) parts.push(`forgot ${g.forgotten.length} observation(s) forgotten on another device`);
      ctx.out(`Git: ${parts.filter(Boolean).join(', ')}.`);
    }
    if (r.encrypted) {
      const e = r.encrypted;
      const parts = [`${e.files} file(s) encrypted on the remote (${e.encrypted} re-encrypted now)`];
      if (e.remote) parts.push(e.pulled ? 'pulled' : 'the remote was empty', e.pushed ? 'pushed' : 'nothing new to push');
      else parts.push('no remote set (sync.git.remote): encrypted copy kept locally');
      if (e.written.length) parts.push(`${e.written.length} file(s) updated here (${e.merged.length} merged)`);
      if (e.deleted.length) parts.push(`${e.deleted.length} deleted here as on the other device`);
      if (e.forgotten.length) parts.push(`forgot ${e.forgotten.length} observation(s) forgotten on another device`);
      ctx.out(`Encrypted sync: ${parts.join(', ')}.`);
      for (const c of e.conflicts) ctx.out(`  Both devices changed the same lines: the other device's version is kept in ${c}.`);
      if (e.rotated) {
        ctx.out('Key rotated: the remote is re-encrypted for the new key. Give the new key to your other devices before their next sync.');
        if (rotatedTo?.kind === 'key_file') ctx.out(`sync.key_file is now ${rotatedTo.path}.`);
        else ctx.out(`Set OCM_SYNC_PASSPHRASE to the new passphrase (the home's .env) here and on every device.`);
        ctx.out('Older commits of the remote stay encrypted for the old key: rewrite its history if that key was exposed.');
      }
    }
    if (r.command) ctx.out(`Command: ${r.command.command} — done in ${r.command.durationMs} ms.`);
    for (const e of r.errors) {
      ctx.err(`ocm-run: ${e.part === 'git' ? (config.sync.encrypt ? 'Encrypted sync' : 'Git sync') : 'sync command'} failed: ${e.message}`);
      if (e.hint) ctx.err(`  → ${e.hint}`);
    }
    if (r.queued) ctx.err(`Queued: attempt ${r.queued.attempts}, next retry by \`ocm-run run\` after ${r.queued.nextAttemptAt}.`);
    return exitCode;
  },
});
