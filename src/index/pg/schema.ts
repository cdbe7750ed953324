// The store's schema, brought forward by hipo itself: `hipo_schema` holds the version, and each
// step runs once, in a transaction, under an advisory lock so that a team's workspaces starting
// at the same moment do not race to create the same tables. Steps are only ever appended.
import type { PoolClient } from 'pg';

/** Step n brings the schema from version n to n + 1. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE hipo_files (
    workspace TEXT NOT NULL,
    path TEXT NOT NULL,
    level TEXT NOT NULL,
    period_start TEXT,
    period_end TEXT,
    status TEXT,
    -- the local file's content hash and what its vectors are (push.ts): equal stamps, equal rows
    stamp TEXT NOT NULL,
    chunks INTEGER NOT NULL,
    pushed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace, path)
  );
  CREATE TABLE hipo_chunks (
    id BIGSERIAL PRIMARY KEY,
    workspace TEXT NOT NULL,
    path TEXT NOT NULL,
    section_line INTEGER NOT NULL,
    line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL,
    heading_path TEXT NOT NULL,
    type TEXT,
    text TEXT NOT NULL,
    -- headings weigh A, body text B
    tsv TSVECTOR NOT NULL,
    -- unit length, so a cosine is a dot product; NULL when the chunk has none
    embedding REAL[],
    embedder TEXT,
    FOREIGN KEY (workspace, path) REFERENCES hipo_files (workspace, path) ON DELETE CASCADE
  );
  CREATE INDEX hipo_chunks_file ON hipo_chunks (workspace, path);
  CREATE INDEX hipo_chunks_tsv ON hipo_chunks USING GIN (tsv);
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** Any value, the same for every hipo: the lock's key. */
const LOCK_KEY = 0x6869706f; // "hipo"

async function version(c: PoolClient): Promise<number> {
  const t = await c.query("SELECT to_regclass('hipo_schema') IS NOT NULL AS present");
  if (!t.rows[0].present) return 0;
  const r = await c.query('SELECT version FROM hipo_schema');
  return r.rows.length ? Number(r.rows[0].version) : 0;
}

/** Applies the steps the database lacks. A database newer than this hipo is refused. */
export async function migrate(c: PoolClient): Promise<void> {
  if ((await version(c)) === PG_SCHEMA_VERSION) return;
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await c.query('CREATE TABLE IF NOT EXISTS hipo_schema (version INTEGER NOT NULL)');
    const from = await version(c);
    if (from > PG_SCHEMA_VERSION)
      throw new Error(`the database has hipo schema version ${from}, this hipo knows up to ${PG_SCHEMA_VERSION}: upgrade hipo`);
    for (let v = from; v < PG_SCHEMA_VERSION; v++) await c.query(MIGRATIONS[v]!);
    await c.query('DELETE FROM hipo_schema');
    await c.query('INSERT INTO hipo_schema (version) VALUES ($1)', [PG_SCHEMA_VERSION]);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
