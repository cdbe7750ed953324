// The store's schema, brought forward by hipo itself: `hipo_schema` holds the version, and each
// step runs once, in a transaction, under an advisory lock so that a team's workspaces starting
// at the same moment do not race to create the same tables. Steps are only ever appended.
import type { ClientBase } from 'pg';

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
  // The words alone (strip(tsv): no positions, no weights), a third smaller: a search first picks
  // its candidates by which words they hold, reading these, then ranks only those by `tsv`
  // (search/pg.ts). MemAware, one question's 4,759 matching chunks: 92 ms read whole, 26 ms so.
  `
  ALTER TABLE hipo_chunks ADD COLUMN lex TSVECTOR;
  UPDATE hipo_chunks SET lex = strip(tsv);
  ALTER TABLE hipo_chunks ALTER COLUMN lex SET NOT NULL;
  CREATE INDEX hipo_chunks_lex ON hipo_chunks USING GIN (lex);
  DROP INDEX hipo_chunks_tsv;
  `,
  // A vector's signs as bits: the Hamming distance between two of them follows the angle between
  // the vectors (SimHash), and bit_count(a # b) costs far less than a dot product in SQL. A
  // search takes the nearest by bits first, then ranks only those by the exact dot product.
  `
  ALTER TABLE hipo_chunks ADD COLUMN sig BIT VARYING;
  UPDATE hipo_chunks SET sig = (
    SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)
    FROM unnest(embedding) WITH ORDINALITY AS u(x, i))::bit varying
  WHERE embedding IS NOT NULL;
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** A chunk's columns as both stores name them (the local `chunks` table and `hipo_chunks`). */
export interface ChunkColumns {
  section_line: number;
  line_start: number;
  line_end: number;
  heading_path: string;
  type: string | null;
  text: string;
}

/** Any value, the same for every hipo: the lock's key. */
const LOCK_KEY = 0x6869706f; // "hipo"

async function version(c: ClientBase): Promise<number> {
  const t = await c.query("SELECT to_regclass('hipo_schema') IS NOT NULL AS present");
  if (!t.rows[0].present) return 0;
  const r = await c.query('SELECT version FROM hipo_schema');
  return r.rows.length ? Number(r.rows[0].version) : 0;
}

/**
 * Applies the steps the database lacks, up to `target` (tests stop early to check a later step
 * on existing rows). A database newer than this hipo is refused.
 */
export async function migrate(c: ClientBase, target = PG_SCHEMA_VERSION): Promise<void> {
  if ((await version(c)) === target) return;
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await c.query('CREATE TABLE IF NOT EXISTS hipo_schema (version INTEGER NOT NULL)');
    const from = await version(c);
    if (from > PG_SCHEMA_VERSION)
      throw new Error(`the database has hipo schema version ${from}, this hipo knows up to ${PG_SCHEMA_VERSION}: upgrade hipo`);
    for (let v = from; v < target; v++) await c.query(MIGRATIONS[v]!);
    await c.query('DELETE FROM hipo_schema');
    await c.query('INSERT INTO hipo_schema (version) VALUES ($1)', [Math.max(from, target)]);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
