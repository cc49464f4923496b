/**
 * JSON-lines logging to `<home>/logs/<name>.log`. `lib/` never prints: a
 * Logger is passed in; scripts decide whether to also echo to the terminal.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

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

/** A logger appending JSON lines to logs/<name>.log (and errors also to logs/errors.log). */
export function createFileLogger(options: {
  dir: string;
  name: string;
  level?: LogLevel;
  now?: () => Date;
  /** Also hand every record to these (e.g. the terminal in --verbose). */
  sinks?: LogSink[];
}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const now = options.now ?? (() => new Date());
  let chain: Promise<void> = mkdir(options.dir, { recursive: true, mode: 0o700 }).then(() => undefined, () => undefined);
  return {
    log(level, event, fields = {}) {
      const record: LogRecord = { time: now().toISOString(), level, event, ...fields };
      for (const sink of options.sinks ?? []) sink(record);
      if (ORDER[level] < min) return;
      const line = `${JSON.stringify(record)}\n`;
      chain = chain.then(async () => {
        try {
          await appendFile(join(options.dir, `${options.name}.log`), line, { mode: 0o600 });
          if (level === 'error') await appendFile(join(options.dir, 'errors.log'), line, { mode: 0o600 });
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
