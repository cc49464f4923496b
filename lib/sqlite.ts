/**
 * Read-only SQLite access (for OpenClaw's per-agent databases), through
 * better-sqlite3: the real SQLite C library, so POSIX locks and the WAL
 * shared-memory index work exactly as for OpenClaw's own writer. (A
 * WebAssembly SQLite cannot do either from Node: it would read a live WAL
 * database without coordinating with the writer.)
 *
 * Rules for reading somebody else's live database:
 * - open read-only (`SQLITE_OPEN_READONLY`): this process never writes, never
 *   checkpoints, never creates the file;
 * - a busy timeout, so a momentary write lock is waited for briefly rather
 *   than failing; a database still locked after it is "busy" (retry later);
 * - short read transactions: callers read one bounded slice per transaction,
 *   so a WAL checkpoint is never held back for long.
 *
 * The native module is loaded on first use, so commands that never touch a
 * database never pay for it.
 */
import { OcmError } from './errors.js';

export interface ReadOnlyDatabase {
  readonly path: string;
  all<T>(sql: string, ...params: unknown[]): T[];
  get<T>(sql: string, ...params: unknown[]): T | undefined;
  /** Prepare once, run many times (each run is its own short read transaction). */
  prepare<T>(sql: string): (...params: unknown[]) => T[];
  /** A PRAGMA's single value, e.g. user_version. */
  pragma(name: string): unknown;
  hasTable(name: string): boolean;
  /** Column names of a table (empty when the table does not exist). */
  columns(table: string): Set<string>;
  close(): void;
}

export interface OpenOptions {
  /** How long to wait for a lock before giving up (default 2000 ms). */
  busyTimeoutMs?: number;
}

type BetterSqlite3 = typeof import('better-sqlite3');
let driver: BetterSqlite3 | undefined;

async function loadDriver(): Promise<BetterSqlite3> {
  if (driver) return driver;
  try {
    const module = (await import('better-sqlite3')) as unknown as { default: BetterSqlite3 };
    driver = module.default;
    return driver;
  } catch (error) {
    throw new OcmError('INTERNAL', `The SQLite module (better-sqlite3) could not be loaded: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'Its native part is built when the package is installed. Run `npm rebuild better-sqlite3` in the OC-Memory folder (it needs python3, make and a C++ compiler).',
      cause: error,
    });
  }
}

/** SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock; try again later. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** The schema is not what was expected (a migration in progress, or a version we do not know). */
export function isSchemaError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message ?? '';
  return (typeof code === 'string' && code.startsWith('SQLITE_SCHEMA')) || /no such (table|column)/i.test(message);
}

/** The file is not a database, or is damaged. */
export function isCorruptError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Open an existing database read-only. */
export async function openReadOnly(path: string, options: OpenOptions = {}): Promise<ReadOnlyDatabase> {
  const Database = await loadDriver();
  let db: import('better-sqlite3').Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: options.busyTimeoutMs ?? 2000 });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_CANTOPEN') {
      throw new OcmError('NOT_FOUND', `Cannot open the database ${path}.`, {
        hint: 'Check that the file exists and that this user may read it and its folder.',
        cause: error,
      });
    }
    throw error;
  }
  const api: ReadOnlyDatabase = {
    path,
    all: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
    get: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T | undefined,
    prepare<T>(sql: string) {
      const statement = db.prepare(sql);
      return (...params: unknown[]) => statement.all(...params) as T[];
    },
    pragma(name) {
      if (!IDENTIFIER.test(name)) throw new OcmError('INTERNAL', `not a pragma name: ${name}`);
      return db.pragma(name, { simple: true });
    },
    hasTable(name) {
      return db.prepare("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?").get(name) !== undefined;
    },
    columns(table) {
      if (!IDENTIFIER.test(table)) return new Set();
      const rows = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as Array<{ name: string }>;
      return new Set(rows.map((r) => r.name));
    },
    close() {
      if (db.open) db.close();
    },
  };
  return api;
}

/** Open, run `fn`, always close. */
export async function withReadOnlyDatabase<T>(path: string, fn: (db: ReadOnlyDatabase) => T | Promise<T>, options: OpenOptions = {}): Promise<T> {
  const db = await openReadOnly(path, options);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}
