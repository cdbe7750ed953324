// Nearest chunks to a query vector: exact cosine search, filters applied inside the search so
// that k results survive them.
//
// A one-shot process (`hipo search`) asks sqlite-vec, which scans the vector table on disk. A
// resident process (daemon, MCP server) that searches the same index again keeps the vectors
// in memory instead, as one Float32Array with their filter columns, and scans that: several
// times faster than sqlite-vec's scan. It is built from the second query on, dropped whenever
// the index changes, and only when it fits MAX_RESIDENT_FLOATS (64 MB).
import { stmt, type IndexDb } from '../index/db.js';
import type { SearchIndex } from '../index/search-index.js';
import { hasVectorTable, vectorBytes, vectorFloats } from '../index/vectors.js';
import { vectorFilterSql, type SearchFilters } from './filters.js';

/**
 * Similarities are kept to 6 decimals. sqlite-vec computes them in single precision, the
 * in-memory scan in double: without rounding, the first query of a process and the next ones
 * could order near-equal chunks (a node and the raw log it copies) differently.
 */
function roundSimilarity(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** sqlite-vec's upper bound on k. */
const MAX_K = 4096;
const MAX_RESIDENT_FLOATS = 16_000_000;

interface Resident {
  dims: number;
  ids: Int32Array;
  vectors: Float32Array;
  rowOf: Map<number, number>;
  level: string[];
  start: string[];
  end: string[];
  type: string[];
}

interface VectorCache {
  token: string;
  queries: number;
  resident: Resident | null;
}

const caches = new WeakMap<SearchIndex, VectorCache>();

function cacheOf(index: SearchIndex): VectorCache {
  const token = `${index.generation}:${index.db.pragma('data_version', { simple: true }) as number}`;
  let c = caches.get(index);
  if (!c || c.token !== token) {
    c = { token, queries: 0, resident: null };
    caches.set(index, c);
  }
  return c;
}

function loadResident(db: IndexDb, dims: number): Resident | null {
  const n = (stmt(db, 'SELECT count(*) AS n FROM chunk_vec').get() as { n: number }).n;
  if (n * dims > MAX_RESIDENT_FLOATS) return null;
  const r: Resident = {
    dims,
    ids: new Int32Array(n),
    vectors: new Float32Array(n * dims),
    rowOf: new Map(),
    level: [],
    start: [],
    end: [],
    type: [],
  };
  let i = 0;
  for (const [id, blob, level, start, end, type] of stmt(
    db,
    'SELECT chunk_id, embedding, level, period_start, period_end, type FROM chunk_vec',
  )
    .raw()
    .iterate() as Iterable<[number | bigint, Buffer, string, string, string, string]>) {
    if (i >= n || blob.byteLength !== dims * 4) continue;
    r.ids[i] = Number(id);
    r.vectors.set(vectorFloats(blob), i * dims);
    r.rowOf.set(Number(id), i);
    r.level.push(level);
    r.start.push(start);
    r.end.push(end);
    r.type.push(type);
    i++;
  }
  return i === n ? r : null;
}

/** The in-memory vectors, when this index has been searched before and they fit. */
function resident(index: SearchIndex, dims: number): Resident | null {
  const c = cacheOf(index);
  c.queries++;
  if (!c.resident && c.queries >= 2) c.resident = loadResident(index.db, dims);
  return c.resident && c.resident.dims === dims ? c.resident : null;
}

function allowedBy(r: Resident, f: SearchFilters): ((row: number) => boolean) | null {
  const levels = f.levels?.length ? new Set<string>(f.levels) : null;
  const types = f.types?.length ? new Set<string>(f.types) : null;
  if (!levels && !types && !f.since && !f.until) return null;
  return (row) =>
    (!levels || levels.has(r.level[row]!)) &&
    (!types || types.has(r.type[row]!)) &&
    (!f.since || (r.end[row] !== '' && r.end[row]! >= f.since)) &&
    (!f.until || (r.start[row] !== '' && r.start[row]! <= f.until));
}

/** Chunk id → cosine similarity (1 is identical), best first, at least `minSimilarity`. */
export function nearestChunks(
  index: SearchIndex,
  query: Float32Array,
  k: number,
  filters: SearchFilters = {},
  opts: { minSimilarity?: number } = {},
): Map<number, number> {
  const { db } = index;
  const floor = opts.minSimilarity ?? -1;
  const out = new Map<number, number>();
  if (!hasVectorTable(db) || k <= 0) return out;
  const r = resident(index, query.length);
  if (r) {
    const ok = allowedBy(r, filters);
    const dims = r.dims;
    const vectors = r.vectors;
    // Four terms per step, added in the same order as one at a time: the same sums, bit for bit.
    const four = dims - (dims % 4);
    const best: [number, number][] = [];
    let worst = -Infinity;
    for (let row = 0; row < r.ids.length; row++) {
      let sum = 0;
      const base = row * dims;
      let d = 0;
      for (; d < four; d += 4) {
        const b = base + d;
        sum =
          sum +
          vectors[b]! * query[d]! +
          vectors[b + 1]! * query[d + 1]! +
          vectors[b + 2]! * query[d + 2]! +
          vectors[b + 3]! * query[d + 3]!;
      }
      for (; d < dims; d++) sum += vectors[base + d]! * query[d]!;
      const dot = roundSimilarity(sum);
      // Equal to the worst kept is kept too: ties are settled by chunk id below.
      if (dot < floor || (best.length >= k && dot < worst) || (ok && !ok(row))) continue;
      best.push([r.ids[row]!, dot]);
      if (best.length > k * 2) {
        best.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        best.length = k;
        worst = best[k - 1]![1];
      }
    }
    best.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return new Map(best.slice(0, k));
  }
  const f = vectorFilterSql(filters);
  const conds = ['embedding MATCH ?', 'k = ?'];
  const params: (Buffer | number | string)[] = [vectorBytes(query), Math.min(k, MAX_K)];
  if (f.where) {
    conds.push(f.where);
    params.push(...f.params);
  }
  const rows = stmt(db, `SELECT chunk_id, distance FROM chunk_vec WHERE ${conds.join(' AND ')} ORDER BY distance`)
    .raw()
    .all(...params) as [number | bigint, number][];
  const found: [number, number][] = [];
  for (const [id, distance] of rows) {
    const sim = roundSimilarity(1 - distance);
    if (sim >= floor) found.push([Number(id), sim]);
  }
  // Best first; equal similarities by chunk id, as the in-memory scan orders them.
  found.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return new Map(found);
}

/** Cosine similarity of the query to each of `ids` that has a vector (at least `floor`). */
export function similarities(index: SearchIndex, query: Float32Array, ids: readonly number[], floor = -1): Map<number, number> {
  const out = new Map<number, number>();
  if (ids.length === 0 || !hasVectorTable(index.db)) return out;
  const r = caches.get(index)?.resident ?? null;
  const one = stmt(index.db, 'SELECT embedding FROM chunk_vec WHERE chunk_id = ?').raw();
  for (const id of ids) {
    let v: Float32Array | null = null;
    const row = r?.rowOf.get(id);
    if (r && row !== undefined) v = r.vectors.subarray(row * r.dims, (row + 1) * r.dims);
    else {
      const got = one.get(BigInt(id)) as [Buffer] | undefined;
      if (got) v = vectorFloats(got[0]);
    }
    if (!v || v.length !== query.length) continue;
    let sum = 0;
    for (let i = 0; i < v.length; i++) sum += v[i]! * query[i]!;
    const dot = roundSimilarity(sum);
    if (dot >= floor) out.set(id, dot);
  }
  return out;
}
