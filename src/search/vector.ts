// Nearest chunks to a query vector: exact cosine search, filters applied inside the search so
// that k results survive them.
//
// A one-shot process (`hipo search`) asks sqlite-vec, which scans the vector table on disk. A
// resident process (daemon, MCP server) that searches the same index again keeps the vectors
// in memory instead, as float32 rows with their filter columns, and scans them (in WebAssembly
// SIMD where it can, dots.ts): several times faster than sqlite-vec's scan. It is built from the
// second query on, only when it fits MAX_RESIDENT_FLOATS (64 MB), patched after this process's
// own updates (they say which vectors they changed) and dropped when another process changed
// the index.
import { dataVersion, stmt, type IndexDb } from '../index/db.js';
import type { SearchIndex } from '../index/search-index.js';
import { hasVectorTable, vectorBytes, vectorFloats } from '../index/vectors.js';
import { dot, dotsModule, vectorRows, type VectorRows } from './dots.js';
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

/**
 * The vectors in memory, with room to grow: rows 0 … rows − 1 are in use, except free ones
 * (id 0: chunk ids are never 0) left by removed chunks, which new ones take first. Patched in
 * place: a change to a few chunks costs those rows, not a copy of every vector (18 MB at 10
 * years, on every search after a change in a daemon). Row order does not matter to a search:
 * ties are settled by chunk id.
 */
interface Resident {
  dims: number;
  rows: number;
  ids: Int32Array;
  /** The vectors, scanned in WebAssembly where it can be (dots.ts). */
  store: VectorRows;
  rowOf: Map<number, number>;
  free: number[];
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

/** Rows a resident copy of `n` vectors has room for: a few changes' worth more. */
const capacityFor = (n: number): number => n + Math.max(256, n >> 5);

function emptyResident(dims: number, capacity: number): Resident {
  return {
    dims,
    rows: 0,
    ids: new Int32Array(capacity),
    store: vectorRows(dims, capacity, dotsModule()),
    rowOf: new Map(),
    free: [],
    level: [],
    start: [],
    end: [],
    type: [],
  };
}

/** Puts chunk `id`'s vector and filter columns in row `at`. */
function setRow(r: Resident, at: number, id: number, v: Float32Array, [level, start, end, type]: string[]): void {
  r.ids[at] = id;
  r.store.vectors.set(v, at * r.dims);
  r.rowOf.set(id, at);
  r.level[at] = level!;
  r.start[at] = start!;
  r.end[at] = end!;
  r.type[at] = type!;
}

/** A row for a new chunk: a free one, else the next one, else room made (null: it would not fit). */
function newRow(r: Resident): number | null {
  const free = r.free.pop();
  if (free !== undefined) return free;
  if (r.rows === r.ids.length) {
    const capacity = capacityFor(r.rows);
    if (capacity * r.dims > MAX_RESIDENT_FLOATS) return null;
    const ids = new Int32Array(capacity);
    ids.set(r.ids);
    r.ids = ids;
    r.store.grow(capacity);
  }
  return r.rows++;
}

function loadResident(db: IndexDb, dims: number): Resident | null {
  const n = (stmt(db, 'SELECT count(*) AS n FROM chunk_vec').get() as { n: number }).n;
  if (n * dims > MAX_RESIDENT_FLOATS) return null;
  const r = emptyResident(dims, Math.min(capacityFor(n), Math.floor(MAX_RESIDENT_FLOATS / dims)));
  for (const [id, blob, ...cols] of stmt(db, VECTOR_ROW).raw().iterate() as Iterable<VectorRow>) {
    if (r.rows >= n || blob.byteLength !== dims * 4) continue;
    setRow(r, r.rows++, Number(id), vectorFloats(blob), cols);
  }
  return r.rows === n ? r : null;
}

/** `r` with the `changed` chunks' rows as stored now (removed ones freed), in place; null when they do not fit. */
function patchResident(db: IndexDb, r: Resident, changed: ReadonlySet<number>): Resident | null {
  const dims = r.dims;
  const one = stmt(db, `${VECTOR_ROW} WHERE chunk_id = ?`).raw();
  for (const id of changed) {
    const row = one.get(BigInt(id)) as VectorRow | undefined;
    const at = r.rowOf.get(id);
    if (!row) {
      // Removed (or waiting for its vector): its row is free for the next new chunk.
      if (at !== undefined) {
        r.ids[at] = 0;
        r.rowOf.delete(id);
        r.free.push(at);
      }
      continue;
    }
    const [, blob, ...cols] = row;
    if (blob.byteLength !== dims * 4) return null;
    const slot = at ?? newRow(r);
    if (slot === null) return null;
    setRow(r, slot, id, vectorFloats(blob), cols);
  }
  return r;
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
    const sums = r.store.scan(query, r.rows);
    const best: [number, number][] = [];
    let worst = -Infinity;
    const ids = r.ids;
    for (let row = 0; row < r.rows; row++) {
      const sum = sums[row]!;
      // Rounding moves a sum by at most 5e-7: one further below the bar cannot reach it.
      if (sum < floor - 1e-6 || (best.length >= k && sum < worst - 1e-6) || ids[row] === 0) continue; // (0: a free row)
      const dot = roundSimilarity(sum);
      // Equal to the worst kept is kept too: ties are settled by chunk id below.
      if (dot < floor || (best.length >= k && dot < worst) || (ok && !ok(row))) continue;
      best.push([ids[row]!, dot]);
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
    if (r && row !== undefined) v = r.store.vectors.subarray(row * r.dims, (row + 1) * r.dims);
    else {
      const got = one.get(BigInt(id)) as [Buffer] | undefined;
      if (got) v = vectorFloats(got[0]);
    }
    if (!v || v.length !== query.length) continue;
    // Added as the scan adds them: a chunk's similarity is the same whichever way it is asked.
    const sim = roundSimilarity(dot(v, 0, query));
    if (sim >= floor) out.set(id, sim);
  }
  return out;
}
