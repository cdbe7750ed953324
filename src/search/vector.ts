// Nearest chunks to a query vector (exact cosine KNN in sqlite-vec), filters applied inside the
// search so that k results survive them.
import { stmt, type IndexDb } from '../index/db.js';
import { hasVectorTable, vectorBytes } from '../index/vectors.js';
import { vectorFilterSql, type SearchFilters } from './filters.js';

/** sqlite-vec's upper bound on k. */
const MAX_K = 4096;

/** Chunk id → cosine similarity (1 is identical), best first. */
export function nearestChunks(db: IndexDb, query: Float32Array, k: number, filters: SearchFilters = {}, opts: { within?: readonly number[]; minSimilarity?: number } = {}): Map<number, number> {
  const within = opts.within;
  const floor = opts.minSimilarity ?? -1;
  const out = new Map<number, number>();
  if (!hasVectorTable(db) || k <= 0) return out;
  const f = vectorFilterSql(filters);
  const conds = ['embedding MATCH ?', 'k = ?'];
  const params: (Buffer | number | bigint | string)[] = [vectorBytes(query), Math.min(k, MAX_K)];
  if (f.where) {
    conds.push(f.where);
    params.push(...f.params);
  }
  if (within) {
    if (within.length === 0) return out;
    conds.push(`chunk_id IN (${within.map(() => '?').join(', ')})`);
    params.push(...within.map((id) => BigInt(id)));
  }
  const sql = `SELECT chunk_id, distance FROM chunk_vec WHERE ${conds.join(' AND ')} ORDER BY distance`;
  // Statements with an id list vary in length: prepare those once per use instead of caching.
  const rows = (within ? db.prepare(sql) : stmt(db, sql)).raw().all(...params) as [number | bigint, number][];
  for (const [id, distance] of rows) if (1 - distance >= floor) out.set(Number(id), 1 - distance);
  return out;
}
