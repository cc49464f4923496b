/**
 * The home's `.env` file: KEY=value lines holding the secrets config.yaml
 * refers to as `${KEY}`. Light (no parser library): read by every process
 * that loads config.
 */
import { readFile } from 'node:fs/promises';
import { fromSystemError, isNotFound } from '../core/errors.js';

/** Parse a dotenv file: KEY=value lines, `#` comments, optional quotes, `export ` prefix. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2] ?? '';
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
      if (m[2]!.startsWith('"')) value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    out[m[1]!] = value;
  }
  return out;
}

/** The variables of a .env file ({} when there is none). */
export async function loadDotEnv(path: string): Promise<Record<string, string>> {
  try {
    return parseDotEnv(await readFile(path, 'utf8'));
  } catch (error) {
    if (isNotFound(error)) return {};
    throw fromSystemError(error, `read ${path}`);
  }
}
