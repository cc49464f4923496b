/**
 * `integrate openclaw`: one transaction over OpenClaw's folder, run through
 * the install journal (install-journal.ts), so a failure at any step puts
 * back everything it changed:
 *
 *   backed-up       openclaw.json copied aside once, before our first edit
 *   plugin-placed   the plugin in <state dir>/extensions/oc-memory (OpenClaw's
 *                   installer on a copy of the config, or copied)
 *   checked         the settings in the first shape the installed OpenClaw
 *                   accepts, validated on a temporary copy
 *   config-written  openclaw.json replaced by that result
 *   recorded        the home's record of what was done, for `--uninstall`
 *
 * Nothing is decided before a step that a later step could make wrong: the
 * file is refused when broken before anything is touched, and the real file
 * only ever receives a result OpenClaw accepted.
 */
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import { OcmError, fromSystemError } from '../../core/errors.js';
import { exists, type HomePaths } from '../../platform/home.js';
import { sha256 } from '../../tiers/files.js';
import { openClawVersion, validateOpenClawConfig, type OpenClawCliOptions } from './cli.js';
import { memoryFolders } from './extra-paths.js';
import { InstallJournal, keepFile, keepFolder, type Undo } from './install-journal.js';
import { parseConfigText } from './json5-tree.js';
import { locateOpenClaw, type OpenClawLocation } from './location.js';
import { installRecordIn, isOurPlugin, placePlugin, removePluginFiles, uninstallPluginThroughOpenClaw } from './plugin-files.js';
import { readRecord, recordPath, type IntegrationRecord } from './record.js';
import { applyIntegration, type EditResult, type PluginSettings } from './settings-edit.js';
import {
  candidateShapes,
  readsManifestProfiles,
  rejectsOurKeys,
  versionFromConfig,
  type IntegrationShape,
  type PathsKeys,
} from './shapes.js';
import { memoryToolPolicyAdvice, type ToolPolicyAdvice } from './tool-policy.js';

/** The named steps of an install, in order (the journal's points; OCM_TEST_FAIL_AT names one in tests). */
export type InstallStep = 'backed-up' | 'plugin-placed' | 'checked' | 'config-written' | 'recorded';

export interface InstallReport {
  location: OpenClawLocation;
  changes: string[];
  backup?: string | undefined;
  pluginDir: string;
  pluginFiles: string[];
  /** How the plugin got there: OpenClaw's own installer (origin recorded) or a plain copy. */
  pluginInstall: 'openclaw' | 'copied';
  /** Why the plugin was copied although OpenClaw's CLI is there. */
  pluginInstallNote?: string | undefined;
  createdConfig: boolean;
  /** The keys written. */
  shape: IntegrationShape;
  /** `openclaw --version`, when its CLI is installed. */
  openClawVersion?: string | undefined;
  /** The installed OpenClaw accepted the result (checked on a copy first), or there was no OpenClaw CLI to ask. */
  validated: 'ok' | 'not-available';
  /** What the user must add to (or take out of) their tool policy so the models are offered the memory tools ([] when nothing hides them): tool-policy.ts. */
  toolPolicy: ToolPolicyAdvice[];
}

/** The temporary copy OpenClaw checked, with the backups OpenClaw's installer made of it (`<copy>.bak`, `<copy>.bak.1`). */
async function removeCheckCopy(checkFile: string): Promise<void> {
  const name = basename(checkFile);
  const names = await readdir(dirname(checkFile)).catch(() => [] as string[]);
  for (const n of names) if (n === name || n.startsWith(`${name}.bak`)) await rm(join(dirname(checkFile), n), { force: true });
}

export async function installOpenClawIntegration(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  plugin: PluginSettings;
  keys?: PathsKeys;
  userHome?: string;
  now?: Date;
  /** How to run OpenClaw's CLI (default: `openclaw` on env.PATH). */
  cli?: OpenClawCliOptions;
  /** Called as each step is done (test hook: it may throw, as a failure at that point would). */
  onStep?: ((step: InstallStep) => void | Promise<void>) | undefined;
}): Promise<InstallReport> {
  const { paths } = options;
  const cli: OpenClawCliOptions = options.cli ?? { env: options.env };
  const location = await locateOpenClaw(options.env, options.userHome);
  if (!location.stateDirExists && !location.configExists) {
    throw new OcmError('NOT_FOUND', `OpenClaw was not found (no ${location.stateDir}).`, {
      hint: 'Install and run OpenClaw once, set OPENCLAW_HOME / OPENCLAW_STATE_DIR / OPENCLAW_CONFIG_PATH if it lives elsewhere, or print the settings with `ocm-run integrate openclaw --print`.',
    });
  }
  const folders = memoryFolders(paths);
  const previous = await readRecord(paths);
  let original = '';
  try {
    original = location.configExists ? await readFile(location.configPath, 'utf8') : '';
  } catch (error) {
    throw fromSystemError(error, `read ${location.configPath}`);
  }
  // Refuse a broken file before anything is touched.
  if (original.trim() !== '') parseConfigText(original, location.configPath);
  const version = (await openClawVersion(cli)) ?? versionFromConfig(original);
  const createdConfig = previous?.configPath === location.configPath ? previous.createdConfig : !location.configExists;
  const mode = location.configExists ? (await stat(location.configPath)).mode & 0o777 : 0o600;
  // A re-install keeps the backup of the first one (the original).
  const kept = previous?.configPath === location.configPath && previous.backup && (await exists(previous.backup)) ? previous.backup : '';
  const checkFile = join(dirname(location.configPath), `.openclaw.oc-memory-check-${process.pid}.json`);
  const journal = new InstallJournal<InstallStep>(options.onStep);
  try {
    return await journal.run(async () => {
      const backup = await backUp(journal, location, original, kept, options.now ?? new Date());
      const placed = await journal.step('plugin-placed', [await pluginUndo(location, cli)], async () => {
        // The plugin first, so OpenClaw checks our plugin entry against our manifest. Its installer
        // rewrites the config it is given its own way (plain JSON, comments gone): it gets a copy,
        // and only its install record is carried over into the user's file.
        if (location.configExists) await writeFileAtomic(checkFile, original, { mode: 0o600 });
        const placed = await placePlugin(location, paths, cli, checkFile);
        return { ...placed, installRecord: placed.how === 'openclaw' ? await installRecordIn(checkFile) : undefined };
      });
      const { shape, edit, next, validated } = await journal.step('checked', [], () =>
        chooseShape({
          cli,
          checkFile,
          original,
          folders,
          plugin: options.plugin,
          keys: options.keys ?? 'auto',
          version,
          installRecord: placed.installRecord,
          configPath: location.configPath,
        }),
      );
      await journal.step('config-written', [await keepFile(location.configPath)], async () => {
        if (next !== original) await writeFileAtomic(location.configPath, next, { mode });
      });
      // A backup of a file we did not change is no backup: it goes once the install is done.
      const backupKept = backup.madeNow && next === original ? '' : backup.path;
      const record: IntegrationRecord = {
        configPath: location.configPath,
        backup: backupKept,
        createdConfig,
        writtenSha256: sha256(next),
        created: [...(previous?.configPath === location.configPath ? previous.created : []), ...edit.created],
        allowAdded: Boolean(previous?.allowAdded) || edit.allowAdded,
        folders,
        pluginDir: location.pluginDir,
        installedAt: (options.now ?? new Date()).toISOString(),
      };
      await journal.step('recorded', [await keepFile(recordPath(paths))], () =>
        writeFileAtomic(recordPath(paths), `${JSON.stringify(record, null, 2)}\n`),
      );
      if (backup.path && !backupKept) await rm(backup.path, { force: true });
      return {
        location,
        changes: original.trim() === '' ? ['created openclaw.json with the OC-Memory settings'] : edit.changes,
        // ('' when no backup was needed.)
        backup: backupKept || undefined,
        pluginDir: location.pluginDir,
        pluginFiles: placed.files,
        pluginInstall: placed.how,
        pluginInstallNote: placed.note,
        createdConfig: original.trim() === '',
        shape,
        openClawVersion: version?.text,
        validated,
        toolPolicy: memoryToolPolicyAdvice(parseConfigText(next, location.configPath).toJSON(), {
          manifestProfiles: readsManifestProfiles(version),
        }),
      };
    });
  } finally {
    await removeCheckCopy(checkFile);
  }
}

/** Step backed-up: openclaw.json copied aside once, before our first edit (`kept`: the backup of an earlier install, kept). */
async function backUp(
  journal: InstallJournal<InstallStep>,
  location: OpenClawLocation,
  original: string,
  kept: string,
  now: Date,
): Promise<{ path: string; madeNow: boolean }> {
  if (kept || !location.configExists) return journal.step('backed-up', [], async () => ({ path: kept, madeNow: false }));
  const path = `${location.configPath}.oc-memory-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  return journal.step('backed-up', [await keepFile(path)], async () => {
    await writeFileAtomic(path, original, { mode: 0o600 });
    return { path, madeNow: true };
  });
}

/**
 * The way back from placing the plugin: a plugin that was not there is
 * uninstalled through OpenClaw (which then forgets the install record its
 * installer wrote; nothing happens without its CLI), and the plugin's folder
 * gets back exactly the files it had (none, or the older release's).
 */
async function pluginUndo(location: OpenClawLocation, cli: OpenClawCliOptions): Promise<Undo> {
  const wasOurs = await isOurPlugin(location.pluginDir);
  const folder = await keepFolder(location.pluginDir);
  return async () => {
    if (!wasOurs) {
      await uninstallPluginThroughOpenClaw(cli, location.configPath, location.pluginDir);
      await removePluginFiles(location.pluginDir);
    }
    await folder();
  };
}

/**
 * Step checked: the settings in each candidate shape, most likely first,
 * checked by the installed OpenClaw on a copy — the real file (which a
 * running gateway reloads) only ever gets a result it accepts. Throws when
 * it accepts none.
 */
async function chooseShape(o: {
  cli: OpenClawCliOptions;
  checkFile: string;
  original: string;
  folders: string[];
  plugin: PluginSettings;
  keys: PathsKeys;
  version: ReturnType<typeof versionFromConfig>;
  installRecord: unknown;
  configPath: string;
}): Promise<{ shape: IntegrationShape; edit: EditResult; next: string; validated: InstallReport['validated'] }> {
  const rejections: string[] = [];
  for (const shape of candidateShapes(o.keys, o.version)) {
    const base = o.original.trim() === '' ? '{\n}\n' : o.original;
    const edit = applyIntegration(base, {
      folders: o.folders,
      plugin: o.plugin,
      shape,
      installRecord: o.installRecord,
      file: o.configPath,
    });
    const next =
      o.original.trim() === ''
        ? `// OpenClaw configuration (JSON5). Created by OC-Memory's \`ocm-run integrate openclaw\`.\n${applyIntegration('{}', { folders: o.folders, plugin: o.plugin, shape, installRecord: o.installRecord }).text}\n`
        : edit.text;
    await writeFileAtomic(o.checkFile, next, { mode: 0o600 });
    const check = await validateOpenClawConfig(o.cli, o.checkFile);
    if (!check.available) return { shape, edit, next, validated: 'not-available' };
    if (check.ok) return { shape, edit, next, validated: 'ok' };
    rejections.push(check.output);
    if (!rejectsOurKeys(check.output)) break;
  }
  const said = rejections[rejections.length - 1] ?? '';
  throw new OcmError(
    'CONFIG_INVALID',
    `OpenClaw${o.version ? ` ${o.version.text}` : ''} does not accept openclaw.json with OC-Memory's settings, so nothing was changed:\n${said.split('\n').slice(0, 8).join('\n')}`,
    {
      hint: rejectsOurKeys(said)
        ? 'Print the settings with `ocm-run integrate openclaw --print` and add what your OpenClaw accepts by hand, or report the OpenClaw version.'
        : 'OpenClaw rejects the file for a reason of its own: fix that first (`openclaw doctor` helps), then run `ocm-run integrate openclaw` again.',
    },
  );
}
