// Bringing the store up to date with the local index, file by file: a file whose stamp (its
// content hash, as the local index computed it, and how many of its chunks have vectors of which
// embedder) equals the store's is not sent again. Changed files replace their rows in one
// transaction per batch, so a reader never sees a file half pushed, and two workspaces pushing
// at once touch different rows: nothing serializes a team.
import type { PoolClient } from 'pg';
import { stmt, type IndexDb } from '../db.js';
import { readVector, storedEmbedder, vectorFloats } from '../vectors.js';
import { keywordText, tsvSql, type ChunkColumns } from './schema.js';
import { signBits } from './signs.js';
import type { PgStore } from './store.js';

export interface PushReport {
  /** Files whose rows were (re)written. */
  pushed: number;
  /** Files removed from the store because the tree no longer has them. */
  removed: number;
  /** Files the store already had as they are. */
  unchanged: number;
  chunks: number;
  ms: number;
}

interface LocalFile {
  id: number;
  path: string;
  level: string;
  period_start: string | null;
  period_end: string | null;
  status: string | null;
  stamp: string;
  chunks: number;
}

/** Chunks per transaction: big enough to be quick, small enough to keep each one short. */
const BATCH_CHUNKS = 1_000;
/** A push of at least this many chunks refreshes the planner's statistics. */
const ANALYZE_AFTER_CHUNKS = 2_000;

/** Every file of the local index with its stamp and chunk count, in one pass over the chunks. */
function localFiles(db: IndexDb, embedder: string | null): LocalFile[] {
  return stmt(
    db,
    `SELECT f.id, f.path, f.level, f.period_start, f.period_end, f.status,
       f.hash || ':' || ? || ':' || coalesce(n.embedded, 0) AS stamp, coalesce(n.chunks, 0) AS chunks
     FROM files f LEFT JOIN (
       SELECT file_id, count(*) AS chunks, sum(embedded = 1) AS embedded FROM chunks GROUP BY file_id
     ) n ON n.file_id = f.id
     ORDER BY f.path`,
  ).all(embedder ?? '') as LocalFile[];
}

interface ChunkRow extends ChunkColumns {
  id: number;
  embedded: number;
}

/** `{0.1,0.2,...}`: a REAL[] literal (the driver sends arrays of arrays badly for unnest). */
function arrayLiteral(f: Float32Array): string {
  return `{${Array.from(f, (x) => (Number.isFinite(x) ? x : 0)).join(',')}}`;
}

async function writeBatch(c: PoolClient, db: IndexDb, workspace: string, files: LocalFile[], embedder: string | null): Promise<number> {
  const cols = {
    path: [] as string[],
    section: [] as number[],
    start: [] as number[],
    end: [] as number[],
    headingPath: [] as string[],
    heading: [] as string[],
    type: [] as (string | null)[],
    text: [] as string[],
    body: [] as string[],
    embedding: [] as (string | null)[],
    sig: [] as (string | null)[],
  };
  const counts: number[] = [];
  for (const f of files) {
    const rows = stmt(
      db,
      'SELECT id, section_line, line_start, line_end, heading_path, type, text, embedded FROM chunks WHERE file_id = ? ORDER BY id',
    ).all(f.id) as ChunkRow[];
    counts.push(rows.length);
    for (const r of rows) {
      cols.path.push(f.path);
      cols.section.push(r.section_line);
      cols.start.push(r.line_start);
      cols.end.push(r.line_end);
      cols.headingPath.push(r.heading_path);
      const k = keywordText(r.heading_path, r.text);
      cols.heading.push(k.heading);
      cols.type.push(r.type);
      cols.text.push(r.text);
      cols.body.push(k.body);
      const blob = r.embedded === 1 && embedder ? readVector(db, r.id) : null;
      const v = blob ? vectorFloats(blob) : null;
      cols.embedding.push(v ? arrayLiteral(v) : null);
      cols.sig.push(v ? signBits(v) : null);
    }
  }
  const paths = files.map((f) => f.path);
  await c.query('BEGIN');
  try {
    await c.query('DELETE FROM hipo_files WHERE workspace = $1 AND path = ANY($2::text[])', [workspace, paths]);
    await c.query(
      `INSERT INTO hipo_files (workspace, path, level, period_start, period_end, status, stamp, chunks)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[])`,
      [
        workspace,
        paths,
        files.map((f) => f.level),
        files.map((f) => f.period_start),
        files.map((f) => f.period_end),
        files.map((f) => f.status),
        files.map((f) => f.stamp),
        counts,
      ],
    );
    if (cols.path.length)
      await c.query(
        `INSERT INTO hipo_chunks
           (workspace, path, section_line, line_start, line_end, heading_path, type, text, tsv, lex, embedding, sig, embedder)
         SELECT $1, path, section, line_start, line_end, heading_path, type, text, v, strip(v), embedding, sig, embedder FROM (
           SELECT t.path, t.section, t.line_start, t.line_end, t.heading_path, t.type, t.text,
             t.embedding::real[] AS embedding, t.sig::bit varying AS sig,
             ${tsvSql('t.heading', 't.body')} AS v,
             CASE WHEN t.embedding IS NULL THEN NULL ELSE $11 END AS embedder
           FROM unnest($2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[],
             $10::text[], $12::text[], $13::text[])
             AS t(path, section, line_start, line_end, heading_path, heading, type, text, embedding, sig, body)) s`,
        [
          workspace,
          cols.path,
          cols.section,
          cols.start,
          cols.end,
          cols.headingPath,
          cols.heading,
          cols.type,
          cols.text,
          cols.embedding,
          embedder,
          cols.sig,
          cols.body,
        ],
      );
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
  return cols.path.length;
}

/**
 * Makes the store's rows of `workspace` what the local index holds. `rebuild` first drops them
 * all (`hipo index --rebuild`: the store is a cache of the tree, like the local file).
 */
export async function pushIndex(store: PgStore, db: IndexDb, opts: { rebuild?: boolean } = {}): Promise<PushReport> {
  const t0 = performance.now();
  const { workspace } = store.settings;
  const report: PushReport = { pushed: 0, removed: 0, unchanged: 0, chunks: 0, ms: 0 };
  const embedder = storedEmbedder(db)?.id ?? null;
  const files = localFiles(db, embedder);
  await store.use(async (c) => {
    if (opts.rebuild) await c.query('DELETE FROM hipo_files WHERE workspace = $1', [workspace]);
    const remote = new Map(
      (await c.query('SELECT path, stamp FROM hipo_files WHERE workspace = $1', [workspace])).rows.map((r) => [
        r.path as string,
        r.stamp as string,
      ]),
    );
    const local = new Set(files.map((f) => f.path));
    const gone = [...remote.keys()].filter((p) => !local.has(p));
    if (gone.length) {
      await c.query('DELETE FROM hipo_files WHERE workspace = $1 AND path = ANY($2::text[])', [workspace, gone]);
      report.removed = gone.length;
    }
    const changed = files.filter((f) => remote.get(f.path) !== f.stamp);
    report.unchanged = files.length - changed.length;
    let batch: LocalFile[] = [];
    let size = 0;
    const flush = async (): Promise<void> => {
      if (!batch.length) return;
      report.chunks += await writeBatch(c, db, workspace, batch, embedder);
      report.pushed += batch.length;
      batch = [];
      size = 0;
    };
    for (const f of changed) {
      batch.push(f);
      size += f.chunks;
      if (size >= BATCH_CHUNKS) await flush();
    }
    await flush();
    // Fresh statistics after a large push: without them the planner guesses one row per table
    // and scans every chunk instead of the full-text index (MemAware: 35 → 13 ms a query).
    // A user who does not own the tables gets a server warning, not an error.
    if (report.chunks >= ANALYZE_AFTER_CHUNKS) await c.query('ANALYZE hipo_files; ANALYZE hipo_chunks');
  });
  report.ms = Math.round(performance.now() - t0);
  return report;
}
