/**
 * A writable SQLite connection for building test databases, on whichever
 * driver this Node has: `node:sqlite` (Node 22.13+) or better-sqlite3 (Node
 * 20) — the same choice lib/platform/sqlite.ts makes for reading, so the database
 * tests run under both (test/platform/sqlite-drivers.test.ts).
 */
import { createRequire } from 'node:module';

export interface WritableStatement {
  run(...params: unknown[]): void;
}

export interface WritableDb {
  exec(sql: string): void;
  prepare(sql: string): WritableStatement;
  /** `PRAGMA <text>`, e.g. `journal_mode = wal`. */
  pragma(text: string): void;
  close(): void;
}

interface NodeSqlite {
  DatabaseSync: new (
    path: string,
  ) => { exec(sql: string): void; prepare(sql: string): { run(...params: unknown[]): unknown }; close(): void };
}

const require = createRequire(import.meta.url);

export function openWritable(path: string): WritableDb {
  const forced = process.env.OCM_SQLITE_DRIVER;
  const nodeSqlite = forced === 'better-sqlite3' ? undefined : (process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined);
  if (nodeSqlite) {
    const db = new nodeSqlite.DatabaseSync(path);
    return {
      exec: (sql) => db.exec(sql),
      prepare(sql) {
        const statement = db.prepare(sql);
        return { run: (...params) => void statement.run(...params) };
      },
      pragma: (text) => db.exec(`PRAGMA ${text}`),
      close: () => db.close(),
    };
  }
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(path);
  return {
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      return { run: (...params) => void statement.run(...params) };
    },
    pragma: (text) => void db.pragma(text),
    close: () => db.close(),
  };
}
