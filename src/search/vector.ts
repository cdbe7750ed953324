// Nearest chunks to a query vector: exact cosine search, filters applied inside the search so
// that k results survive them.
//
// A one-shot process (`hipo search`) asks sqlite-vec, which scans the vector table on disk. A
// resident process (daemon, MCP server) that searches the same index again keeps the vectors
// in memory instead, as one Float32Array with their filter columns, and scans that: several
// times faster than sqlite-vec's scan. It is built from the second query on, only when it fits
// MAX_RESIDENT_FLOATS (64 MB), patched after this process's own updates (they say which vectors
// they changed) and dropped when another process changed the index.
import { dataVersion, stmt, type IndexDb } from '../index/db.js';
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
  /** SQLite's data_version when the token was taken: it moves only when another process writes. */
  version: number;
  queries: number;
  resident: Resident | null;
}

const caches = new WeakMap<SearchIndex, VectorCache>();

function cacheOf(index: SearchIndex): VectorCache {
  const version = dataVersion(index.db);
  const token = `${index.generation}:${version}`;
  let c = caches.get(index);
  if (!c || c.token !== token) {
    // This process's own updates said which vectors they changed: a resident copy is patched (a
    // daemon searching after every change would otherwise read all of them again each time).
    // Another process's writes, or a table made again: read again from the second query on.
    const changes = index.vectorChanges;
    const patched = c?.resident && c.version === version && changes !== 'all' ? patchResident(index.db, c.resident, changes) : null;
    c = patched ? { token, version, queries: c!.queries, resident: patched } : { token, version, queries: 0, resident: null };
    caches.set(index, c);
  }
  index.vectorChanges = new Set();
  return c;
}

/** A stored vector's row as read from chunk_vec: id, float32 bytes, filter columns. */
type VectorRow = [id: number | bigint, blob: Buffer, level: string, start: string, end: string, type: string];
const VECTOR_ROW = 'SELECT chunk_id, embedding, level, period_start, period_end, type FROM chunk_vec';

/** An empty in-memory copy of `n` rows; `put` fills them in turn, `rows` says how many are. */
function residentOf(
  dims: number,
  n: number,
): { r: Resident; put: (id: number, v: Float32Array, ...cols: string[]) => void; rows: () => number } {
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
  const put = (id: number, v: Float32Array, ...[level, start, end, type]: string[]): void => {
    r.ids[i] = id;
    r.vectors.set(v, i * dims);
    r.rowOf.set(id, i);
    r.level.push(level!);
    r.start.push(start!);
    r.end.push(end!);
    r.type.push(type!);
    i++;
  };
  return { r, put, rows: () => i };
}

function loadResident(db: IndexDb, dims: number): Resident | null {
  const n = (stmt(db, 'SELECT count(*) AS n FROM chunk_vec').get() as { n: number }).n;
  if (n * dims > MAX_RESIDENT_FLOATS) return null;
  const b = residentOf(dims, n);
  for (const [id, blob, ...cols] of stmt(db, VECTOR_ROW).raw().iterate() as Iterable<VectorRow>) {
    if (b.rows() >= n || blob.byteLength !== dims * 4) continue;
    b.put(Number(id), vectorFloats(blob), ...cols);
  }
  return b.rows() === n ? b.r : null;
}

/** `r` without the rows of `changed` chunks, with their vectors as stored now; null when they do not fit. */
function patchResident(db: IndexDb, r: Resident, changed: ReadonlySet<number>): Resident | null {
  if (changed.size === 0) return r;
  const dims = r.dims;
  const one = stmt(db, `${VECTOR_ROW} WHERE chunk_id = ?`).raw();
  const fresh: VectorRow[] = [];
  for (const id of changed) {
    const row = one.get(BigInt(id)) as VectorRow | undefined;
    if (!row) continue; // removed
    if (row[1].byteLength !== dims * 4) return null;
    fresh.push(row);
  }
  const kept: number[] = [];
  for (let row = 0; row < r.ids.length; row++) if (!changed.has(r.ids[row]!)) kept.push(row);
  if ((kept.length + fresh.length) * dims > MAX_RESIDENT_FLOATS) return null;
  const b = residentOf(dims, kept.length + fresh.length);
  for (const row of kept)
    b.put(r.ids[row]!, r.vectors.subarray(row * dims, (row + 1) * dims), r.level[row]!, r.start[row]!, r.end[row]!, r.type[row]!);
  for (const [id, blob, ...cols] of fresh) b.put(Number(id), vectorFloats(blob), ...cols);
  return b.r;
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
