// The library entry point for indexing: `openIndex(ws, config)` gives a handle that the CLI,
// the daemon (which keeps one open for days and updates it after each cycle) and the agents'
// recall share. Everything runs in-process; the handle holds the database connection, the
// embedder (loaded on first use) and nothing that grows with use.
import type { HipoConfig } from '../config/config.js';
import type { Workspace } from '../tree/layout.js';
import type { Redactor } from '../redact/redactor.js';
import type { IndexDb } from './db.js';
import { EmbedderError, type Embedder } from './embed/embedder.js';
import { embedderFor } from './embed/select.js';
import { openIndexWith } from './open.js';
import { pgLink, type PgLink } from './pg/store.js';

interface IndexSettings {
  include: string[];
  chunkChars: number;
  factChunks: boolean;
  hybrid: { k: number; bm25Weight: number; vectorWeight: number };
  minSimilarity: number;
  /** Files are indexed up to this many bytes (the `maxFileBytes` setting). */
  maxFileBytes: number;
}

export interface SearchIndex {
  readonly ws: Workspace;
  /** Path of the database file. */
  readonly file: string;
  readonly db: IndexDb;
  readonly settings: IndexSettings;
  readonly redactor: Redactor;
  /** The configured embedder, or null (none configured, or it could not be set up). */
  readonly embedder: Embedder | null;
  /** Why there is no embedder although one is configured. */
  readonly embedderProblem: string | null;
  /** Said while opening: e.g. a damaged index file was rebuilt. */
  readonly warnings: string[];
  /** True when the file did not exist (or was rebuilt) and holds nothing yet. */
  readonly created: boolean;
  /** The shared PostgreSQL store the index is pushed to and searched in (`search.store`), or null. */
  readonly pg: PgLink | null;
  /** Bumped by every update that changed something. */
  generation: number;
  /**
   * Chunk ids whose stored vector was added or removed since a resident process's in-memory
   * vectors last caught up (search/vector.ts reads and empties it); 'all' once the vector table
   * was made again (a rebuild, another embedder) or too many changed to list.
   */
  vectorChanges: Set<number> | 'all';
  close(): void;
}

export { indexFile } from './location.js';

export interface OpenOptions {
  /** Use this embedder instead of the configured one (tests, benchmarks). */
  embedder?: Embedder | null;
  env?: NodeJS.ProcessEnv;
  /** Only read: an index of another version or a damaged one is an error, not rebuilt. */
  readonly?: boolean;
  /**
   * Megabytes of index pages SQLite keeps in this process (its page cache; the OS file cache
   * holds the rest). Unset: SQLite's default as built, 16 MB.
   */
  cacheMB?: number;
  /** Aborted when the owner stops (a daemon): an embeddings request in flight is abandoned. */
  signal?: AbortSignal;
}

/** Opens (creating or rebuilding when needed) the workspace's index, with the configured embedder and store. */
export function openIndex(ws: Workspace, config: HipoConfig, opts: OpenOptions = {}): SearchIndex {
  return openIndexWith(ws, config, opts, () => {
    let embedder: Embedder | null = null;
    let embedderProblem: string | null = null;
    if (opts.embedder !== undefined) embedder = opts.embedder;
    else {
      try {
        embedder = embedderFor(ws, config.search, opts.env, opts.signal);
      } catch (err) {
        if (!(err instanceof EmbedderError)) throw err;
        embedderProblem = err.message;
      }
    }
    return { embedder, embedderProblem, pg: pgLink(ws, config.search, opts.env) };
  });
}
