/**
 * JSON-lines logging to `<home>/logs/<name>.log`. `lib/` never prints: a
 * Logger is passed in; scripts decide whether to also echo to the terminal.
 *
 * Bounded: a log past MAX_LOG_BYTES is renamed to `<name>.log.1` (replacing
 * the previous one) and a new file begins, so one log takes at most twice
 * that on disk however much a job writes (docs/running.md, "Logs").
 */
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Size at which a log file is rotated. */
export const MAX_LOG_BYTES = 5 * 1024 * 1024;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LogRecord {
  time: string;
  level: LogLevel;
  event: string;
  [key: string]: unknown;
}

export interface Logger {
  log(level: LogLevel, event: string, fields?: Record<string, unknown>): void;
  /** Wait for pending writes. */
  flush(): Promise<void>;
}

export type LogSink = (record: LogRecord) => void;

/**
 * For a log something else appends to (cron's `>> schedule.log`, the
 * daemon's stdout): past `maxBytes` it becomes `<file>.1` (replacing the one
 * before). A writer that has it open goes on writing to `.1`; the next one
 * starts a new file.
 */
export async function rotateLogIfLarge(file: string, maxBytes = MAX_LOG_BYTES): Promise<void> {
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (size > maxBytes) await rename(file, `${file}.1`).catch(() => undefined);
}

/** A logger appending JSON lines to logs/<name>.log (and errors also to logs/errors.log). */
export function createFileLogger(options: {
  dir: string;
  name: string;
  level?: LogLevel;
  now?: () => Date;
  /** Also hand every record to these (e.g. the terminal in --verbose). */
  sinks?: LogSink[];
  /** Rotate at this size (default MAX_LOG_BYTES). */
  maxBytes?: number;
}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const now = options.now ?? (() => new Date());
  const maxBytes = options.maxBytes ?? MAX_LOG_BYTES;
  /** What this process believes each file's size is (read once, then counted). */
  const sizes = new Map<string, number>();
  async function append(file: string, line: string): Promise<void> {
    let size = sizes.get(file);
    if (size === undefined)
      size = await stat(file).then(
        (s) => s.size,
        () => 0,
      );
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) {
      await rename(file, `${file}.1`).catch(() => undefined);
      // Another process may have rotated it already; start from what is there now.
      size = await stat(file).then(
        (s) => s.size,
        () => 0,
      );
    }
    await appendFile(file, line, { mode: 0o600 });
    sizes.set(file, size + bytes);
  }
  let chain: Promise<void> = mkdir(options.dir, { recursive: true, mode: 0o700 }).then(
    () => undefined,
    () => undefined,
  );
  return {
    log(level, event, fields = {}) {
      const record: LogRecord = { time: now().toISOString(), level, event, ...fields };
      for (const sink of options.sinks ?? []) sink(record);
      if (ORDER[level] < min) return;
      const line = `${JSON.stringify(record)}\n`;
      chain = chain.then(async () => {
        try {
          await append(join(options.dir, `${options.name}.log`), line);
          if (level === 'error') await append(join(options.dir, 'errors.log'), line);
        } catch {
          /* logging must never break a job */
        }
      });
    },
    flush() {
      return chain;
    },
  };
}

/** A logger that keeps records in memory (tests, dry runs). */
export function createMemoryLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return {
    records,
    log(level, event, fields = {}) {
      records.push({ time: new Date().toISOString(), level, event, ...fields });
    },
    flush: async () => undefined,
  };
}
