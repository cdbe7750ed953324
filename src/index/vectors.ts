// The vector table (sqlite-vec `vec0`, cosine distance, exact search). It is created for one
// embedder's dimensions; the embedder's id and dimensions are kept in `meta`, and a different
// embedder drops the table and marks every chunk for embedding again instead of mixing spaces.
import type { IndexDb } from './db.js';
import { readMeta, stmt, writeMeta } from './db.js';

export interface VectorMeta {
  level: string;
  periodStart: string;
  periodEnd: string;
  type: string;
}

export function hasVectorTable(db: IndexDb): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vec'").get() !== undefined;
}

/** The embedder the stored vectors came from, if any. */
export function storedEmbedder(db: IndexDb): { id: string; dims: number } | null {
  const id = readMeta(db, 'embedder_id');
  const dims = Number(readMeta(db, 'embedder_dims'));
  return id && dims > 0 && hasVectorTable(db) ? { id, dims } : null;
}

/**
 * Makes the vector table fit `id`/`dims`. Returns true when existing vectors were dropped (a
 * new embedder): every chunk is then waiting for a vector again.
 */
export function prepareVectorTable(db: IndexDb, id: string, dims: number): boolean {
  const stored = storedEmbedder(db);
  if (stored && stored.id === id && stored.dims === dims) return false;
  db.transaction(() => {
    db.exec('DROP TABLE IF EXISTS chunk_vec');
    // Metadata columns let a KNN query filter inside the search, so k results survive filters.
    db.exec(`CREATE VIRTUAL TABLE chunk_vec USING vec0 (
      chunk_id INTEGER PRIMARY KEY,
      embedding float[${dims}] distance_metric=cosine,
      level TEXT, period_start TEXT, period_end TEXT, type TEXT
    )`);
    db.exec('UPDATE chunks SET embedded = 0');
    writeMeta(db, 'embedder_id', id);
    writeMeta(db, 'embedder_dims', String(dims));
  }).immediate();
  return stored !== null;
}

export function vectorBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function insertVector(db: IndexDb, chunkId: number, v: Float32Array | Buffer, meta: VectorMeta): void {
  stmt(db, 'INSERT INTO chunk_vec (chunk_id, embedding, level, period_start, period_end, type) VALUES (?, ?, ?, ?, ?, ?)').run(
    BigInt(chunkId),
    Buffer.isBuffer(v) ? v : vectorBytes(v as Float32Array),
    meta.level,
    meta.periodStart,
    meta.periodEnd,
    meta.type,
  );
}

export function deleteVector(db: IndexDb, chunkId: number): void {
  stmt(db, 'DELETE FROM chunk_vec WHERE chunk_id = ?').run(BigInt(chunkId));
}

/** A stored vector's float32 values (a view when the bytes are aligned, else a copy). */
export function vectorFloats(blob: Buffer): Float32Array {
  // A view needs 4-byte alignment; small buffers may sit anywhere in Node's pool.
  return blob.byteOffset % 4 === 0
    ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)
    : new Float32Array(Uint8Array.from(blob).buffer);
}

export function readVector(db: IndexDb, chunkId: number): Buffer | null {
  const row = stmt(db, 'SELECT embedding FROM chunk_vec WHERE chunk_id = ?').get(BigInt(chunkId)) as { embedding: Buffer } | undefined;
  return row?.embedding ?? null;
}
