// What an index holds, for `hipo index` and the library: its file, size, files, chunks and
// vectors, and which embedder made them.
import { statSync } from 'node:fs';
import { stmt } from './db.js';
import type { SearchIndex } from './search-index.js';
import { storedEmbedder } from './vectors.js';

export interface IndexTotals {
  file: string;
  bytes: number;
  files: number;
  chunks: number;
  embedded: number;
  embedder: string | null;
  /** An embedder is configured and loadable (so waiting chunks are a failure, not a choice). */
  embedding: boolean;
}

export function indexTotals(index: SearchIndex): IndexTotals {
  const row = stmt(
    index.db,
    'SELECT (SELECT count(*) FROM files) AS files, count(*) AS chunks, coalesce(sum(embedded = 1), 0) AS embedded FROM chunks',
  ).get() as { files: number; chunks: number; embedded: number };
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    try {
      bytes += statSync(index.file + suffix).size;
    } catch {
      /* no WAL right now */
    }
  }
  return { file: index.file, bytes, ...row, embedder: storedEmbedder(index.db)?.id ?? null, embedding: index.embedder !== null };
}
