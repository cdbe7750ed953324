// Keyword ranking: BM25 with OR semantics, computed term by term so that hipo, not FTS5's
// query planner, decides how terms combine.
//
// Each term is matched on its own (`bm25()` of a one-term query is exactly that term's share of
// a document's BM25 score), then:
//   - the term weight (IDF) is recomputed over source chunks only (raw logs and other notes),
//     and never reaches zero. FTS5 clamps IDF to ~0 for a term in more than half the rows, and
//     summary nodes repeat every word of the days they summarize, so on a small tree the word
//     you search for would otherwise weigh nothing ("rate limiter" scoring 0 everywhere);
//   - a chunk's score is the sum over terms, times a bonus for covering more of the query's
//     weight: `score · (1 + COVERAGE · matched IDF / total IDF)`;
//   - headings weigh HEADING_WEIGHT times the body (porter stemming and unicode61 tokens come
//     from the FTS5 table; CJK terms are matched in the bigram column).
import { dataVersion, stmt, type IndexDb } from '../index/db.js';
import type { SearchIndex } from '../index/search-index.js';
import type { ParsedQuery } from './query.js';
import { DenseScores } from './scores.js';

/** FTS5 column weights: heading path, body, the user's statements about themselves, CJK bigrams. */
const HEADING_WEIGHT = 2;
const FACTS_WEIGHT = 3;
const COVERAGE = 0.5;

export interface Bm25Scores {
  /** Every matching chunk's score (filters not applied; chunks with an excluded word have none). */
  scores: DenseScores;
  /** Each query term's weight (IDF), in the query's order; 0 for a term nothing matches. */
  weights: number[];
}

/** One term's matches: chunk ids and the term's BM25 share in each, before the IDF. */
interface Postings {
  ids: Int32Array;
  tf: Float32Array;
  /** Matching chunks of sources (raw logs, other notes), for the IDF. */
  sourceDf: number;
}

interface Stats {
  all: number;
  sources: number;
  minId: number;
  maxId: number;
}

/**
 * Postings of recently searched terms, per open index. Reading a common word's matches out of
 * SQLite costs about a microsecond per chunk; a resident process (daemon, MCP server) asks
 * for the same words again and again. The cache holds at most MAX_CACHED postings (about
 * 8 bytes each) and is dropped whenever the index changes (this or another process).
 */
const MAX_CACHED = 4_000_000;

class PostingCache {
  token = '';
  stats: Stats | null = null;
  terms = new Map<string, Postings>();
  entries = 0;

  validate(index: SearchIndex): void {
    const token = `${index.generation}:${dataVersion(index.db)}`;
    if (token === this.token) return;
    this.token = token;
    this.stats = null;
    this.terms.clear();
    this.entries = 0;
  }

  get(term: string): Postings | undefined {
    const p = this.terms.get(term);
    if (p) {
      // Most recently used last.
      this.terms.delete(term);
      this.terms.set(term, p);
    }
    return p;
  }

  set(term: string, p: Postings): void {
    if (p.ids.length > MAX_CACHED / 4) return;
    this.terms.set(term, p);
    this.entries += p.ids.length;
    for (const [k, old] of this.terms) {
      if (this.entries <= MAX_CACHED) break;
      this.terms.delete(k);
      this.entries -= old.ids.length;
    }
  }
}

const caches = new WeakMap<SearchIndex, PostingCache>();

function cacheOf(index: SearchIndex): PostingCache {
  let c = caches.get(index);
  if (!c) {
    c = new PostingCache();
    caches.set(index, c);
  }
  c.validate(index);
  return c;
}

function statsOf(db: IndexDb, cache: PostingCache): Stats {
  cache.stats ??= (() => {
    const r = stmt(
      db,
      'SELECT count(*) AS n, coalesce(sum(id > 0), 0) AS sources, coalesce(min(id), 0) AS lo, coalesce(max(id), 0) AS hi FROM chunks',
    ).get() as { n: number; sources: number; lo: number; hi: number };
    return { all: r.n, sources: r.sources, minId: r.lo, maxId: r.hi };
  })();
  return cache.stats;
}

function postingsOf(db: IndexDb, cache: PostingCache, match: string, all: number): Postings {
  const hit = cache.get(match);
  if (hit) return hit;
  const rows = stmt(db, `SELECT rowid, bm25(chunks_fts, ${HEADING_WEIGHT}, 1, ${FACTS_WEIGHT}, 1) FROM chunks_fts WHERE chunks_fts MATCH ?`)
    .raw()
    .all(match) as [number, number][];
  // Undo FTS5's own IDF: it is one constant factor of every row of a one-term query.
  const ftsIdf = Math.max(1e-6, Math.log((all - rows.length + 0.5) / (rows.length + 0.5)));
  const ids = new Int32Array(rows.length);
  const tf = new Float32Array(rows.length);
  let sourceDf = 0;
  rows.forEach(([id, bm], i) => {
    ids[i] = id;
    tf[i] = -bm / ftsIdf;
    if (id > 0) sourceDf++;
  });
  const p = { ids, tf, sourceDf };
  cache.set(match, p);
  return p;
}

/** Lucene's BM25 IDF: positive for any document frequency. */
function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function bm25Scores(index: SearchIndex, q: ParsedQuery): Bm25Scores {
  const { db } = index;
  const cache = cacheOf(index);
  const n = statsOf(db, cache);
  const base = n.minId;
  const scores = new Float64Array(q.terms.length && n.all ? n.maxId - n.minId + 1 : 0);
  const weights = q.terms.map(() => 0);
  if (scores.length === 0) return { scores: new DenseScores(base, scores), weights };
  const covered = new Float64Array(scores.length);
  let total = 0;
  for (const [ti, t] of q.terms.entries()) {
    const p = postingsOf(db, cache, t.match, n.all);
    if (p.ids.length === 0) continue;
    const weight = n.sources > 0 ? idf(n.sources, p.sourceDf) : idf(n.all, p.ids.length);
    weights[ti] = weight;
    total += weight;
    const { ids, tf } = p;
    for (let i = 0; i < ids.length; i++) {
      const k = ids[i]! - base;
      scores[k] = scores[k]! + tf[i]! * weight;
      covered[k] = covered[k]! + weight;
    }
  }
  // The coverage bonus: a chunk matching more of the query's weight gains up to COVERAGE.
  if (total > 0)
    for (let k = 0; k < scores.length; k++) if (covered[k]! > 0) scores[k] = scores[k]! * (1 + (COVERAGE * covered[k]!) / total);
  for (const ex of q.excluded) {
    const p = postingsOf(db, cache, ex, n.all);
    for (let i = 0; i < p.ids.length; i++) scores[p.ids[i]! - base] = 0;
  }
  return { scores: new DenseScores(base, scores), weights };
}

/**
 * For a query of nothing but "quoted" words or phrases, the chunks holding one of them (else
 * null): keyword search finds nothing else, and word vectors, which find neighbours of any
 * wording, must not either. With free words beside them, quoted ones rank as terms.
 */
export function quotedChunks(index: SearchIndex, q: ParsedQuery): Set<number> | null {
  if (q.terms.length === 0 || q.terms.some((t) => !t.quoted)) return null;
  const cache = cacheOf(index);
  const n = statsOf(index.db, cache);
  const out = new Set<number>();
  for (const t of q.terms) for (const id of postingsOf(index.db, cache, t.match, n.all).ids) out.add(id);
  return out;
}

/** Chunks holding any -excluded word of the query. */
export function excludedChunks(index: SearchIndex, q: ParsedQuery): Set<number> {
  const out = new Set<number>();
  if (q.excluded.length === 0) return out;
  const cache = cacheOf(index);
  const n = statsOf(index.db, cache);
  for (const ex of q.excluded) for (const id of postingsOf(index.db, cache, ex, n.all).ids) out.add(id);
  return out;
}
