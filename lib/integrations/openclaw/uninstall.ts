/**
 * `integrate openclaw --uninstall`: OpenClaw's own uninstaller first (it
 * forgets its install record), then openclaw.json given back — the backup
 * byte for byte while the file is what we wrote, else only our additions
 * taken out — and whatever of the plugin's files is left.
 */
import { readFile, rm, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import { exists, type HomePaths } from '../../platform/home.js';
import { sha256 } from '../../tiers/files.js';
import type { OpenClawCliOptions } from './cli.js';
import { memoryFolders } from './extra-paths.js';
import { locateOpenClaw } from './location.js';
import { removePluginFiles, uninstallPluginThroughOpenClaw } from './plugin-files.js';
import { readRecord, recordPath } from './record.js';
import { removeIntegration } from './settings-edit.js';

export interface UninstallReport {
  configPath: string;
  /** restored: the backup was put back byte for byte; edited: our additions were taken out; none: nothing of ours was there. */
  mode: 'restored' | 'edited' | 'deleted' | 'none';
  changes: string[];
  pluginRemoved: boolean;
  /** openclaw: `openclaw plugins uninstall` removed the plugin and OpenClaw's record of it; files: its files were deleted (no CLI, or OpenClaw refused: see the note). */
  pluginUninstall?: 'openclaw' | 'files' | undefined;
  pluginUninstallNote?: string | undefined;
}

export async function uninstallOpenClawIntegration(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  userHome?: string;
  cli?: OpenClawCliOptions;
}): Promise<UninstallReport> {
  const { paths } = options;
  const record = await readRecord(paths);
  const location = await locateOpenClaw(options.env, options.userHome);
  const configPath = record?.configPath ?? location.configPath;
  const pluginDir = record?.pluginDir ?? location.pluginDir;
  // OpenClaw first, while the plugin is still there for it to find (it installed it: it takes it out, with its record).
  const byOpenClaw = await uninstallPluginThroughOpenClaw(options.cli ?? { env: options.env }, configPath, pluginDir);
  let mode: UninstallReport['mode'] = 'none';
  let changes: string[] = [];
  let current: string | undefined;
  try {
    current = await readFile(configPath, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== undefined) {
    if (record && sha256(current) === record.writtenSha256 && record.createdConfig) {
      await rm(configPath, { force: true });
      mode = 'deleted';
      changes = [`deleted ${configPath} (OC-Memory had created it and it was unchanged)`];
    } else if (record?.backup && sha256(current) === record.writtenSha256 && (await exists(record.backup))) {
      const original = await readFile(record.backup, 'utf8');
      await writeFileAtomic(configPath, original, { mode: (await stat(configPath)).mode & 0o777 });
      mode = 'restored';
      changes = [`restored ${configPath} from ${record.backup}`];
    } else {
      const r = removeIntegration(current, {
        folders: record?.folders ?? memoryFolders(paths),
        created: record?.created ?? [],
        allowAdded: record?.allowAdded ?? false,
        file: configPath,
      });
      if (r.changes.length > 0) {
        const backup = `${configPath}.oc-memory-uninstall-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await writeFileAtomic(backup, current, { mode: 0o600 });
        await writeFileAtomic(configPath, r.text, { mode: (await stat(configPath)).mode & 0o777 });
        mode = 'edited';
        changes = [...r.changes, `(the file as it was is in ${backup})`];
      }
    }
  }
  // Whatever OpenClaw left of ours (everything, when it was not there to ask).
  const filesRemoved = await removePluginFiles(pluginDir);
  await rm(recordPath(paths), { force: true });
  const pluginRemoved = byOpenClaw.ok || filesRemoved;
  return {
    configPath,
    mode,
    changes,
    pluginRemoved,
    pluginUninstall: !pluginRemoved ? undefined : byOpenClaw.ok ? 'openclaw' : 'files',
    pluginUninstallNote: byOpenClaw.note,
  };
}
