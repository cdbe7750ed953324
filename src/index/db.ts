// The index file: one SQLite database (`.hipo/index.db`, WAL) holding files, chunks, a full-text
// table (FTS5 over folded text, porter stemming, with a CJK side column) and a vector table
// (sqlite-vec). It is a cache of the tree: a missing, corrupt or outdated file is rebuilt, never
// trusted.
import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import { CHUNKER_VERSION } from './chunker-version.js';
import { ensureStateDir } from '../state/dir.js';

/**
 * Bumped when the schema (or what is stored in it) changes. An index one step behind is brought
 * forward in place when MIGRATIONS has every step (an index is added, full-text rows are left
 * to the next update to write again; chunks and vectors stay); anything older is rebuilt.
 */
const SCHEMA_VERSION = 7;

/**
 * The hash of a file whose chunks have no full-text rows (MIGRATIONS[5]): never a file's real
 * hash, so the next update reads it again, and writes the rows of the chunks it keeps.
 */
export const FTS_DUE = '';

/** From version n to n + 1, in place. */
const MIGRATIONS: Record<number, string> = {
  // Summary lines by topic: ROOT's topic lines look up the daily lines about their topic on every
  // update (link-update.ts); without it each lookup read the whole table (~0.2 s per update at
  // 10 years).
  2: 'CREATE INDEX IF NOT EXISTS chunk_links_topic ON chunk_links (topic, kind);',
  // ...and the latest days' lines first: read in the index's order, a lookup stops at the few it
  // keeps instead of sorting every line about a frequent topic (~100 → ~40 ms per ROOT at 10 years).
  3: 'DROP INDEX IF EXISTS chunk_links_topic; CREATE INDEX IF NOT EXISTS chunk_links_topic_day ON chunk_links (topic, kind, day);',
  // What the links still wait for. An index of an earlier hipo may have been stopped between its
  // files and their links (which then were never made): every summary is linked again, once.
  4: `CREATE TABLE IF NOT EXISTS links_due (seq INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER, day TEXT);
    INSERT INTO links_due (file_id) SELECT id FROM files WHERE level IN ('daily', 'weekly', 'monthly', 'root');`,
  // Full-text rows of folded text (text/search-fold.ts). The table is contentless, so its rows
  // cannot be rewritten from themselves, and a chunk's facts column comes from its whole file:
  // every file is read and chunked again by the next update, which writes the full-text rows of
  // the chunks it keeps. Chunks, their hashes and vectors stay: nothing is embedded again.
  5: `INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all'); UPDATE files SET hash = '${FTS_DUE}', mtime_ms = -1;`,
  // ROOT's profile and rules lines name their day by a link (`([05-29](daily/2023-05-29.md))`),
  // which earlier links did not read: ROOT is linked again, once, so that they fold into the
  // sections they quote.
  6: "INSERT INTO links_due (file_id) SELECT id FROM files WHERE level = 'root';",
};

const BUSY_TIMEOUT_MS = 15_000;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  level TEXT NOT NULL,
  period_start TEXT,
  period_end TEXT,
  status TEXT,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  hash TEXT NOT NULL,
  indexed_at INTEGER NOT NULL
);
CREATE INDEX files_level ON files (level, period_start, period_end);
-- Chunk ids of summary nodes (daily, weekly, monthly, root) are negative, so ranking can tell
-- summary text (which repeats its sources' words) from source text without a lookup.
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  section_line INTEGER NOT NULL,
  line_start INTEGER NOT NULL,
  line_end INTEGER NOT NULL,
  heading_path TEXT NOT NULL,
  type TEXT,
  hash TEXT NOT NULL,
  text TEXT NOT NULL,
  -- 0: waiting for a vector; 1: has one; 2: nothing to embed (no known word)
  embedded INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX chunks_file ON chunks (file_id);
CREATE INDEX chunks_hash ON chunks (hash);
CREATE INDEX chunks_pending ON chunks (embedded) WHERE embedded = 0;
-- Where a summary chunk's lines come from (links.ts, link-update.ts): one row per line that
-- quotes a raw section (kind 0) or names a topic leading to one (kind 1). source_id is the raw
-- chunk, NULL while none is found; day is the day the line speaks of ('' for its whole period);
-- topic the topic it is filed under ('' for none).
CREATE TABLE chunk_links (
  chunk_id INTEGER NOT NULL,
  line_offset INTEGER NOT NULL,
  day TEXT NOT NULL,
  topic TEXT NOT NULL,
  kind INTEGER NOT NULL,
  source_id INTEGER
);
CREATE INDEX chunk_links_chunk ON chunk_links (chunk_id);
CREATE INDEX chunk_links_source ON chunk_links (source_id);
CREATE INDEX chunk_links_day ON chunk_links (day);
CREATE INDEX chunk_links_topic_day ON chunk_links (topic, kind, day);
-- What chunk_links must still be brought up to date for: a summary file to link again entirely
-- (file_id) or a raw day that was added, changed or removed (day). Written in the transaction
-- that changes the file and emptied once the links are written, so an update stopped between
-- the two (killed, a full disk) leaves the work to the next one instead of losing it. seq never
-- goes back, so an update lets go of the notes it read and not of one written meanwhile.
CREATE TABLE links_due (seq INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER, day TEXT);
-- heading: the chunk's heading path; facts: what the user said about themselves (facts.ts);
-- cjk: unigrams and bigrams of Korean/Japanese/Chinese runs (cjk.ts).
CREATE VIRTUAL TABLE chunks_fts USING fts5 (
  heading, body, facts, cjk,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

export type IndexDb = Database.Database;

export interface OpenedDb {
  db: IndexDb;
  /** Why the file was rebuilt, if it was. */
  warnings: string[];
  /** True when the index was created (or recreated) by this call. */
  created: boolean;
}

const CORRUPT_CODES = new Set([
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT_VTAB',
  'SQLITE_CORRUPT_INDEX',
  'SQLITE_CORRUPT_SEQUENCE',
]);

/** True for errors that mean the file itself is damaged (as opposed to busy or read-only). */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return typeof code === 'string' && (CORRUPT_CODES.has(code) || code.startsWith('SQLITE_CORRUPT'));
}

function configure(db: IndexDb): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // A deleted or rewritten row's bytes are overwritten, not left in the page: the redaction rules
  // may change (index/reredact.ts), and what they take out must not stay in the file.
  db.pragma('secure_delete = ON');
  sqliteVec.load(db);
}

function createSchema(db: IndexDb): void {
  db.transaction(() => {
    db.exec(SCHEMA);
    const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    put.run('schema_version', String(SCHEMA_VERSION));
    put.run('chunker_version', String(CHUNKER_VERSION));
  }).immediate();
}

const statements = new WeakMap<IndexDb, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per connection (the set of statements is fixed). */
export function stmt(db: IndexDb, sql: string): Database.Statement {
  let byDb = statements.get(db);
  if (!byDb) {
    byDb = new Map();
    statements.set(db, byDb);
  }
  let s = byDb.get(sql);
  if (!s) {
    s = db.prepare(sql);
    byDb.set(sql, s);
  }
  return s;
}

export function readMeta(db: IndexDb, key: string): string | null {
  const row = stmt(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function writeMeta(db: IndexDb, key: string, value: string | null): void {
  if (value === null) db.prepare('DELETE FROM meta WHERE key = ?').run(key);
  else db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Applies the in-place steps from the file's schema version to this one, when there are all of them. */
function migrate(db: IndexDb): void {
  const version = Number(readMeta(db, 'schema_version'));
  if (!Number.isInteger(version) || version >= SCHEMA_VERSION) return;
  for (let v = version; v < SCHEMA_VERSION; v++) if (!MIGRATIONS[v]) return;
  db.transaction(() => {
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    writeMeta(db, 'schema_version', String(SCHEMA_VERSION));
  }).immediate();
}

/** Why an existing file cannot be used as it is, or null when it can. */
function staleness(db: IndexDb, readonly: boolean): string | null {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return 'it is not a hipo index';
  if (!readonly) migrate(db);
  const version = readMeta(db, 'schema_version');
  if (version !== String(SCHEMA_VERSION)) return `it has schema version ${version ?? 'none'}, this hipo uses ${SCHEMA_VERSION}`;
  if (readMeta(db, 'chunker_version') !== String(CHUNKER_VERSION)) return 'it was chunked by another hipo version';
  return null;
}

function removeFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

/**
 * Opens the index at `file`, creating it when missing. A damaged file, or one written by
 * another version, is deleted and created again (the caller reindexes), with a warning.
 */
export function openIndexDb(file: string, opts: { readonly?: boolean } = {}): OpenedDb {
  const warnings: string[] = [];
  const existed = existsSync(file);
  if (existed) {
    let db: IndexDb | null = null;
    let problem: string | null = null;
    try {
      db = new Database(file, { fileMustExist: true });
      configure(db);
      problem = staleness(db, !!opts.readonly);
      if (!problem) {
        // Touch every table once: a damaged page usually shows up here.
        db.prepare('SELECT count(*) FROM files').get();
        db.prepare('SELECT count(*) FROM chunks').get();
        return { db, warnings, created: false };
      }
    } catch (err) {
      if (!isCorruption(err)) {
        db?.close();
        throw err;
      }
      problem = `it is damaged (${(err as Error).message})`;
    }
    db?.close();
    if (opts.readonly) throw new Error(`${file}: ${problem}`);
    warnings.push(`${file}: rebuilding the search index because ${problem}`);
    removeFiles(file);
  }
  // The state folder only, never the workspace above it: a compaction whose workspace was removed
  // or moved away under it must not leave a folder where it was.
  ensureStateDir({ stateDir: dirname(file) });
  const db = new Database(file);
  configure(db);
  createSchema(db);
  return { db, warnings, created: true };
}

/** True while some file's chunks wait for their full-text rows (FTS_DUE): an update must read it. */
export function hasFtsDue(db: IndexDb): boolean {
  return stmt(db, 'SELECT 1 FROM files WHERE hash = ? LIMIT 1').get(FTS_DUE) !== undefined;
}

/** Empties the index in place (readers keep a valid, if empty, file), keeping its schema. */
export function clearIndex(db: IndexDb): void {
  db.transaction(() => {
    db.exec('DELETE FROM links_due; DELETE FROM chunk_links; DELETE FROM chunks; DELETE FROM files; DROP TABLE IF EXISTS chunk_vec;');
    db.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all');");
    db.prepare("DELETE FROM meta WHERE key IN ('embedder_id', 'embedder_dims')").run();
  }).immediate();
}

/**
 * SQLite's data_version: it moves when another connection commits, so caches of what the index
 * holds know when to let go. A prepared statement: `db.pragma()` prepares one on every call,
 * which cost a search ~0.5 ms of its ~13 at 10 years (four caches ask it per query).
 */
export function dataVersion(db: IndexDb): number {
  return stmt(db, 'PRAGMA data_version').pluck().get() as number;
}
