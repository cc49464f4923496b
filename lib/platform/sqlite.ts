/**
 * Read-only SQLite access (for OpenClaw's per-agent databases) through one
 * of three drivers, tried in this order (measured: docs/sources.md,
 * "Libraries"; `npm run bench -- sqlite`):
 *
 * - `node:sqlite`, built into Node 22.13 and newer (every OpenClaw 2026.9
 *   user runs Node 24): nothing to install or compile;
 * - `better-sqlite3`, an optional dependency with a native build, on Node 20
 *   (and older 22.x) where it installed;
 * - `sql.js`, SQLite compiled to WebAssembly (its .wasm is in the npm
 *   package, no install script), on every Node: what Node 20 without a
 *   compiler reads with. It cannot take SQLite's POSIX locks or map the WAL
 *   index, so it reads a consistent copy of the files instead
 *   (`sqlite-snapshot.ts`), made again whenever the files change.
 *
 * The first two are the real SQLite C library on the live files, so locks
 * and the WAL shared-memory index work exactly as for OpenClaw's own writer.
 *
 * `OCM_SQLITE_DRIVER=node:sqlite|better-sqlite3|sql.js` forces one (tests, the
 * benchmark). Without any driver, opening a database fails with a typed
 * error that says what is missing.
 *
 * Rules for reading somebody else's live database:
 * - open read-only (`SQLITE_OPEN_READONLY`): this process never writes, never
 *   checkpoints, never creates the file;
 * - a busy timeout, so a momentary write lock is waited for briefly rather
 *   than failing; a database still locked after it is "busy" (retry later);
 * - short read transactions: callers read one bounded slice per transaction,
 *   so a WAL checkpoint is never held back for long.
 *
 * The driver is loaded on first use, so commands that never touch a
 * database never pay for it.
 */
import { statSync } from 'node:fs';
import { OcmError } from '../core/errors.js';
import { fileSignature, snapshotDatabase } from './sqlite-snapshot.js';

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

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3' | 'sql.js';

/** The few operations both drivers share, on one open read-only connection. */
interface Connection {
  all(sql: string, params: unknown[]): unknown[];
  get(sql: string, params: unknown[]): unknown;
  prepare(sql: string): (params: unknown[]) => unknown[];
  close(): void;
}

interface Driver {
  name: SqliteDriverName;
  /** The SQLite library version the driver carries. */
  sqliteVersion: string;
  open(path: string, busyTimeoutMs: number): Connection;
}

/** The part of `node:sqlite` used here (Node 20's type definitions have none of it). */
interface NodeSqliteModule {
  DatabaseSync: new (
    path: string,
    options: { readOnly: boolean },
  ) => {
    readonly isOpen: boolean;
    exec(sql: string): void;
    prepare(sql: string): { all(...params: unknown[]): unknown[]; get(...params: unknown[]): unknown };
    close(): void;
  };
}

/** A variable, so the compiler does not look for type definitions Node 20's lack. */
const NODE_SQLITE: string = 'node:sqlite';

async function loadNodeSqlite(): Promise<Driver> {
  const { DatabaseSync } = await withoutSqliteWarning(() => import(NODE_SQLITE) as Promise<NodeSqliteModule>);
  return {
    name: 'node:sqlite',
    sqliteVersion: process.versions.sqlite ?? 'unknown',
    open(path, busyTimeoutMs) {
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        // A PRAGMA rather than the `timeout` option, which Node only has from 22.16.
        db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      } catch (error) {
        db.close();
        throw error;
      }
      return {
        ...cachedStatements((sql) => db.prepare(sql)),
        close() {
          if (db.isOpen) db.close();
        },
      };
    },
  };
}

async function loadBetterSqlite3(): Promise<Driver> {
  const Database = ((await import('better-sqlite3')) as unknown as { default: typeof import('better-sqlite3') }).default;
  // Loading the JavaScript part succeeds without the native part; this opens it.
  const probe = new Database(':memory:');
  const version = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  probe.close();
  return {
    name: 'better-sqlite3',
    sqliteVersion: version,
    open(path, busyTimeoutMs) {
      const db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
      return {
        ...cachedStatements((sql) => db.prepare(sql)),
        close() {
          if (db.open) db.close();
        },
      };
    },
  };
}

/** The part of sql.js used here. */
interface SqlJsStatement {
  bind(params: unknown[]): boolean;
  step(): boolean;
  getAsObject(): Record<string, unknown>;
  reset(): void;
  free(): void;
}
interface SqlJsDatabase {
  prepare(sql: string): SqlJsStatement;
  close(): void;
}
interface SqlJsModule {
  Database: new (data: Uint8Array) => SqlJsDatabase;
}

/** A variable, so the compiler does not ask for type definitions (the few calls used are typed above). */
const SQL_JS: string = 'sql.js';

async function loadSqlJs(): Promise<Driver> {
  const init = ((await import(SQL_JS)) as unknown as { default: () => Promise<SqlJsModule> }).default;
  const SQL = await init();
  const probe = new SQL.Database(new Uint8Array(0));
  const version = String(rowsOf(probe.prepare('SELECT sqlite_version() AS v'), [])[0]?.v);
  probe.close();
  return {
    name: 'sql.js',
    sqliteVersion: version,
    open(path) {
      // A copy as of the last commit, read again when the files have changed since.
      // Only the signature is kept: the image lives on in sql.js's own memory, not twice.
      const load = (): [signature: string, db: SqlJsDatabase] => {
        const { image, signature } = snapshotDatabase(path);
        return [signature, withSqliteCodes(() => new SQL.Database(image))];
      };
      let [signature, db] = load();
      let statements = new Map<string, SqlJsStatement>();
      const current = (): Map<string, SqlJsStatement> => {
        if (fileSignature(path) !== signature) {
          const [nextSignature, nextDb] = load();
          for (const s of statements.values()) s.free();
          db.close();
          [signature, db, statements] = [nextSignature, nextDb, new Map()];
        }
        return statements;
      };
      const statement = (sql: string): SqlJsStatement => {
        const cache = current();
        let s = cache.get(sql);
        if (!s) {
          s = withSqliteCodes(() => db.prepare(sql));
          cache.set(sql, s);
        }
        return s;
      };
      let open = true;
      return {
        all: (sql, params) => withSqliteCodes(() => rowsOf(statement(sql), params)),
        get: (sql, params) => withSqliteCodes(() => rowsOf(statement(sql), params, 1)[0]),
        prepare: (sql) => (params) => withSqliteCodes(() => rowsOf(statement(sql), params)),
        close() {
          if (!open) return;
          open = false;
          for (const s of statements.values()) s.free();
          db.close();
        },
      };
    },
  };
}

function rowsOf(statement: SqlJsStatement, params: unknown[], limit = Infinity): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  try {
    if (params.length) statement.bind(params);
    while (rows.length < limit && statement.step()) rows.push(statement.getAsObject());
  } finally {
    statement.reset();
  }
  return rows;
}

/** sql.js throws SQLite's message without its code: the codes this module tells apart, from the message. */
const SQLJS_CODES: Array<[RegExp, string]> = [
  [/database disk image is malformed/i, 'SQLITE_CORRUPT'],
  [/file is not a database/i, 'SQLITE_NOTADB'],
  [/database schema has changed/i, 'SQLITE_SCHEMA'],
  [/database is locked/i, 'SQLITE_BUSY'],
];

function withSqliteCodes<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof Error && !(error as { code?: unknown }).code) {
      const code = SQLJS_CODES.find(([pattern]) => pattern.test(error.message))?.[1];
      if (code) Object.assign(error, { code });
    }
    throw error;
  }
}

/** Statements kept per connection (the reader runs a handful of fixed queries, many times each). */
const STATEMENT_CACHE_SIZE = 64;

interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}

/**
 * `all`/`get`/`prepare` over one connection, each SQL text prepared once: an
 * idle tick asks every session the same few questions, and preparing them
 * again each time was most of its cost. SQLite re-prepares a statement by
 * itself when the schema changes under it.
 */
function cachedStatements(prepare: (sql: string) => Statement): Pick<Connection, 'all' | 'get' | 'prepare'> {
  const cache = new Map<string, Statement>();
  const statement = (sql: string): Statement => {
    let s = cache.get(sql);
    if (!s) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      s = prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  return {
    all: (sql, params) => statement(sql).all(...params),
    get: (sql, params) => statement(sql).get(...params),
    prepare(sql) {
      const s = statement(sql);
      return (params) => s.all(...params);
    },
  };
}

/**
 * Node 22.x prints "ExperimentalWarning: SQLite is an experimental feature"
 * when `node:sqlite` is loaded; that line is noise on a CLI's stderr. Only
 * that warning is held back, only while the module loads.
 */
async function withoutSqliteWarning<T>(load: () => Promise<T>): Promise<T> {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (/SQLite is an experimental feature/i.test(text) || (type === 'ExperimentalWarning' && /sqlite/i.test(text))) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

const LOADERS: Record<SqliteDriverName, () => Promise<Driver>> = {
  'node:sqlite': loadNodeSqlite,
  'better-sqlite3': loadBetterSqlite3,
  'sql.js': loadSqlJs,
};

/** The order drivers are tried in: the real SQLite on the live files first, the WebAssembly copy last. */
const DRIVER_ORDER = ['node:sqlite', 'better-sqlite3', 'sql.js'] as const satisfies readonly SqliteDriverName[];

let driver: Promise<Driver> | undefined;

/** The driver in use: `OCM_SQLITE_DRIVER` if set, else the first of DRIVER_ORDER that loads. */
export function sqliteDriver(): Promise<Driver> {
  driver ??= pickDriver(process.env.OCM_SQLITE_DRIVER);
  return driver;
}

/** Which driver, and which SQLite, this process uses (for `doctor`); the typed error when none loads. */
export async function describeSqliteDriver(): Promise<{ name: SqliteDriverName; sqliteVersion: string }> {
  const { name, sqliteVersion } = await sqliteDriver();
  return { name, sqliteVersion };
}

async function pickDriver(forced: string | undefined): Promise<Driver> {
  if (forced !== undefined && forced !== '') {
    if (!(DRIVER_ORDER as readonly string[]).includes(forced)) {
      throw new OcmError(
        'BAD_INPUT',
        `OCM_SQLITE_DRIVER must be one of ${DRIVER_ORDER.map((d) => `"${d}"`).join(', ')}, not ${JSON.stringify(forced.slice(0, 40))}.`,
        {
          hint: 'Unset OCM_SQLITE_DRIVER to let OC-Memory choose.',
        },
      );
    }
    try {
      return await LOADERS[forced as SqliteDriverName]();
    } catch (error) {
      throw noDriver([[forced as SqliteDriverName, error]]);
    }
  }
  const failures: Array<[SqliteDriverName, unknown]> = [];
  for (const name of DRIVER_ORDER) {
    try {
      return await LOADERS[name]();
    } catch (error) {
      failures.push([name, error]);
    }
  }
  throw noDriver(failures);
}

function noDriver(failures: Array<[SqliteDriverName, unknown]>): OcmError {
  const reasons = failures.map(([name, error]) => `${name}: ${firstLine(error)}`).join('; ');
  return new OcmError(
    'DEPENDENCY_MISSING',
    `Reading SQLite databases (OpenClaw's agent databases) needs SQLite, and none could be loaded on Node ${process.versions.node} (${reasons}).`,
    {
      hint:
        'OC-Memory carries a WebAssembly SQLite (the sql.js package) that works on every Node: reinstall OC-Memory ' +
        '(`npm ci` in its folder, or `npm install -g` the package again) so that sql.js is there. ' +
        'Node 22.13 or newer has SQLite built in as well. docs/sources.md, "Libraries", has the details.',
      details: { driversTried: failures.map(([name]) => name) },
      cause: failures.at(-1)?.[1],
    },
  );
}

function firstLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split('\n')[0]!.slice(0, 200);
}

/**
 * SQLite's result code as a name (`SQLITE_BUSY`, …) for an error from either
 * driver: better-sqlite3 sets `code` to the (extended) name; node:sqlite sets
 * `code: 'ERR_SQLITE_ERROR'` and the numeric `errcode`.
 */
function sqliteCode(error: unknown): string | undefined {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return PRIMARY_CODES[errcode & 0xff];
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** The primary result codes this module tells apart (sqlite3.h). */
const PRIMARY_CODES: Record<number, string> = {
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  11: 'SQLITE_CORRUPT',
  14: 'SQLITE_CANTOPEN',
  17: 'SQLITE_SCHEMA',
  26: 'SQLITE_NOTADB',
};

/** SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock; try again later. */
export function isBusyError(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** The schema is not what was expected (a migration in progress, or a version we do not know). */
export function isSchemaError(error: unknown): boolean {
  const code = sqliteCode(error);
  const message = (error as Error).message ?? '';
  return code?.startsWith('SQLITE_SCHEMA') || /no such (table|column)/i.test(message);
}

/** The file is not a database, or is damaged. */
export function isCorruptError(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Open an existing database read-only. */
export async function openReadOnly(path: string, options: OpenOptions = {}): Promise<ReadOnlyDatabase> {
  // SQLite opens a FIFO and then waits for a writer for ever: only regular files (symbolic links followed).
  let regular = true;
  try {
    regular = statSync(path).isFile();
  } catch {
    // missing: SQLite's own error below says so
  }
  if (!regular) {
    throw new OcmError('NOT_FOUND', `Cannot open the database ${path}: it is not a regular file.`, {
      hint: 'Point OC-Memory at the database file itself, not at a pipe or a device.',
    });
  }
  const sqlite = await sqliteDriver();
  let db: Connection;
  try {
    db = sqlite.open(path, options.busyTimeoutMs ?? 2000);
  } catch (error) {
    if (sqliteCode(error) === 'SQLITE_CANTOPEN') {
      throw new OcmError('NOT_FOUND', `Cannot open the database ${path}.`, {
        hint: 'Check that the file exists and that this user may read it and its folder.',
        cause: error,
      });
    }
    throw error;
  }
  const api: ReadOnlyDatabase = {
    path,
    all: <T>(sql: string, ...params: unknown[]) => db.all(sql, params) as T[],
    get: <T>(sql: string, ...params: unknown[]) => db.get(sql, params) as T | undefined,
    prepare<T>(sql: string) {
      const run = db.prepare(sql);
      return (...params: unknown[]) => run(params) as T[];
    },
    pragma(name) {
      if (!IDENTIFIER.test(name)) throw new OcmError('INTERNAL', `not a pragma name: ${name}`);
      const row = db.get(`PRAGMA ${name}`, []) as Record<string, unknown> | undefined;
      return row === undefined ? undefined : Object.values(row)[0];
    },
    hasTable(name) {
      return db.get("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", [name]) !== undefined;
    },
    columns(table) {
      if (!IDENTIFIER.test(table)) return new Set();
      const rows = db.all(`SELECT name FROM pragma_table_info('${table}')`, []) as Array<{ name: string }>;
      return new Set(rows.map((r) => r.name));
    },
    close() {
      db.close();
    },
  };
  return api;
}

/** Open, run `fn`, always close. */
export async function withReadOnlyDatabase<T>(
  path: string,
  fn: (db: ReadOnlyDatabase) => T | Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  const db = await openReadOnly(path, options);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}
