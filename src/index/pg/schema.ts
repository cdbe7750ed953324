// The store's schema, brought forward by hipo itself: `hipo_schema` holds the version, and each
// step runs once, in a transaction, under an advisory lock so that a team's workspaces starting
// at the same moment do not race to create the same tables. Steps are only ever appended.
import type { ClientBase } from 'pg';
import { searchFold } from '../../text/search-fold.js';

/**
 * What a chunk's keyword columns are made of: its heading's words (weight A) and its text (B),
 * folded as the local index folds its full-text rows (search-fold.ts), so that a query finds the
 * same forms in either store. The `text` column keeps the chunk as written.
 */
export function keywordText(headingPath: string, text: string): { heading: string; body: string } {
  return { heading: searchFold((JSON.parse(headingPath) as string[]).join(' ')), body: searchFold(text) };
}

/** The SQL of a chunk's `tsv`, from the SQL expressions of its keywordText. */
export function tsvSql(heading: string, body: string): string {
  return `setweight(to_tsvector('english', ${heading}), 'A') || setweight(to_tsvector('english', ${body}), 'B')`;
}

/** Chunks re-read per statement by the folding step. */
const FOLD_BATCH = 2_000;

/**
 * Schema 4: the keyword columns of folded text. They are made of the heading path and text the
 * store holds, so they are rewritten in place, for every workspace at once: nothing is pushed
 * or embedded again, and stamps stay. Only a chunk with a character beyond ASCII can fold (ASCII
 * is its own fold), and only one whose words do is written.
 */
async function foldKeywords(c: ClientBase): Promise<void> {
  let after = '0';
  for (;;) {
    const r = await c.query(
      `SELECT id, heading_path, text FROM hipo_chunks
       WHERE id > $1 AND (octet_length(text) > char_length(text) OR octet_length(heading_path) > char_length(heading_path))
       ORDER BY id LIMIT ${FOLD_BATCH}`,
      [after],
    );
    if (!r.rows.length) return;
    after = r.rows.at(-1).id;
    const ids: string[] = [];
    const headings: string[] = [];
    const bodies: string[] = [];
    for (const row of r.rows as { id: string; heading_path: string; text: string }[]) {
      const k = keywordText(row.heading_path, row.text);
      const heading = (JSON.parse(row.heading_path) as string[]).join(' ');
      if (k.heading === heading && k.body === row.text) continue;
      ids.push(row.id);
      headings.push(k.heading);
      bodies.push(k.body);
    }
    if (ids.length)
      await c.query(
        `UPDATE hipo_chunks c SET tsv = u.v, lex = strip(u.v) FROM (
           SELECT id, ${tsvSql('heading', 'body')} AS v FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t(id, heading, body)) u
         WHERE c.id = u.id`,
        [ids, headings, bodies],
      );
  }
}

type Step = string | ((c: ClientBase) => Promise<void>);

/** Step n brings the schema from version n to n + 1. */
const MIGRATIONS: readonly Step[] = [
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
  foldKeywords,
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
    for (let v = from; v < target; v++) {
      const step = MIGRATIONS[v]!;
      if (typeof step === 'string') await c.query(step);
      else await step(c);
    }
    await c.query('DELETE FROM hipo_schema');
    await c.query('INSERT INTO hipo_schema (version) VALUES ($1)', [Math.max(from, target)]);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
