/**
 * Reading config.yaml from disk, bounded: only a regular file, at most
 * MAX_CONFIG_BYTES (docs/trust.md). Kept apart from config.ts so the cached
 * fast path (config-cache.ts) reads the file the same way without loading
 * the YAML parser and the schema.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ConfigError, fromSystemError, isNotFound } from '../core/errors.js';

/** A config is a few KB; more is a mistake or an attack, and is not read. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Read config.yaml, or undefined when it does not exist. Only a regular file
 * of at most MAX_CONFIG_BYTES is read (a folder, a FIFO or a 50 MB file gets
 * a clear error, never a raw EISDIR or a hang).
 */
export async function readConfigText(file: string): Promise<string | undefined> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw fromSystemError(error, `read ${file}`);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) {
      throw new ConfigError(`${file} is a folder, not a config file.`, {
        hint: `Move the folder away (or pass --config to another file); \`ocm-run setup\` writes a new config.yaml.`,
      });
    }
    if (!info.isFile()) {
      throw new ConfigError(`${file} is not a regular file.`, {
        hint: 'config.yaml must be a plain text file; replace it, or pass --config to another file.',
      });
    }
    if (info.size > MAX_CONFIG_BYTES) {
      throw new ConfigError(
        `${file} is ${formatBytes(info.size)}; a config is a few KB, and at most ${formatBytes(MAX_CONFIG_BYTES)} is read.`,
        {
          hint: 'Restore it from templates/config.yaml or a backup (it may have been overwritten by mistake).',
        },
      );
    }
    const bytes = await handle.readFile();
    if (bytes.byteLength > MAX_CONFIG_BYTES) {
      throw new ConfigError(`${file} grew past ${formatBytes(MAX_CONFIG_BYTES)} while it was read.`, {
        hint: 'Restore it from templates/config.yaml or a backup.',
      });
    }
    return bytes.toString('utf8');
  } catch (error) {
    throw fromSystemError(error, `read ${file}`);
  } finally {
    await handle.close();
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
