// Opening the index file into a handle, with the embedder and the PostgreSQL store link its
// caller decided. openIndex (search-index.ts) decides them from the config, which loads every
// embedder's code and the store's; a hook's prompt recall searches by keywords in the local
// index and loads neither (the store's code only when the workspace searches the store).
import type { HipoConfig } from '../config/config.js';
import type { Workspace } from '../tree/layout.js';
import { redactorFor } from '../redact/workspace.js';
import { openIndexDb } from './db.js';
import type { Embedder } from './embed/embedder.js';
import { indexFile } from './location.js';
import type { PgLink } from './pg/store.js';
import type { OpenOptions, SearchIndex } from './search-index.js';

/** What the handle uses besides the file: the embedder (or why there is none) and the store link. */
export interface IndexParts {
  embedder: Embedder | null;
  embedderProblem: string | null;
  pg: PgLink | null;
}

/** Opens (creating or rebuilding when needed) the workspace's index; `parts` is asked once the file is open. */
export function openIndexWith(
  ws: Workspace,
  config: HipoConfig,
  opts: Pick<OpenOptions, 'readonly' | 'cacheMB'>,
  parts: () => IndexParts,
): SearchIndex {
  const file = indexFile(ws);
  const opened = openIndexDb(file, { readonly: opts.readonly ?? false });
  if (opts.cacheMB !== undefined) opened.db.pragma(`cache_size = -${Math.max(64, Math.round(opts.cacheMB * 1024))}`);
  let used: IndexParts;
  try {
    used = parts();
  } catch (err) {
    opened.db.close();
    throw err;
  }
  const { embedder, embedderProblem, pg } = used;
  const db = opened.db;
  return {
    ws,
    file,
    db,
    settings: {
      include: config.search.include,
      chunkChars: config.search.chunkChars,
      factChunks: config.search.factChunks,
      hybrid: { ...config.search.hybrid, vectorWeight: config.search.hybrid.vectorWeight ?? embedder?.fusionWeight ?? 1 },
      minSimilarity: config.search.minSimilarity,
      maxFileBytes: config.maxFileBytes,
    },
    redactor: redactorFor(config.redactPatterns),
    embedder,
    embedderProblem,
    warnings: opened.warnings,
    created: opened.created,
    pg,
    generation: 0,
    vectorChanges: new Set(),
    close() {
      embedder?.close();
      pg?.close();
      if (db.open) db.close();
    },
  };
}
