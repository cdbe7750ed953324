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
import { stmt, type IndexDb } from '../index/db.js';
import type { ParsedQuery } from './query.js';

/** FTS5 column weights: heading path, body, the user's statements about themselves, CJK bigrams. */
export const HEADING_WEIGHT = 2;
export const FACTS_WEIGHT = 3;
export const COVERAGE = 0.5;

export interface Bm25Scores {
  /** Chunk id → score (higher is better). */
  scores: Map<number, number>;
  /** Per-term postings over the whole index, kept for scoring a subset (a node's raw sections). */
  terms: TermPostings[];
  /** Chunks holding an excluded (`-word`) term. */
  excluded: ReadonlySet<number>;
}

export interface TermPostings {
  idf: number;
  /** Chunk id → the term's BM25 share in it (already multiplied by the IDF). */
  shares: Map<number, number>;
}

interface Counts {
  all: number;
  sources: number;
}

function counts(db: IndexDb): Counts {
  const row = stmt(db, 'SELECT count(*) AS all_, sum(id > 0) AS sources FROM chunks').get() as { all_: number; sources: number | null };
  return { all: row.all_, sources: row.sources ?? 0 };
}

/** Lucene's BM25 IDF: positive for any document frequency. */
function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function bm25Scores(db: IndexDb, q: ParsedQuery, allowed: ReadonlySet<number> | null): Bm25Scores {
  const terms: TermPostings[] = [];
  if (q.terms.length === 0) return { scores: new Map(), terms, excluded: new Set() };
  const n = counts(db);
  const termStmt = stmt(db, `SELECT rowid, bm25(chunks_fts, ${HEADING_WEIGHT}, 1, ${FACTS_WEIGHT}, 1) FROM chunks_fts WHERE chunks_fts MATCH ?`).raw();
  for (const t of q.terms) {
    const rows = termStmt.all(t.match) as [number, number][];
    if (rows.length === 0) continue;
    let sourceDf = 0;
    for (const r of rows) if (r[0] > 0) sourceDf++;
    // Undo FTS5's own IDF (it is a constant factor of every row of a one-term query).
    const ftsIdf = Math.max(1e-6, Math.log((n.all - rows.length + 0.5) / (rows.length + 0.5)));
    const weight = n.sources > 0 ? idf(n.sources, sourceDf) : idf(n.all, rows.length);
    const shares = new Map<number, number>();
    for (const [id, bm] of rows) shares.set(id, (-bm / ftsIdf) * weight);
    terms.push({ idf: weight, shares });
  }
  const excluded = new Set<number>();
  for (const ex of q.excluded) for (const [id] of termStmt.all(ex) as [number, number][]) excluded.add(id);
  const scores = combine(terms, new Map(), allowed, excluded);
  return { scores, terms, excluded };
}

/** Sums term shares with the coverage bonus, over chunks in `only` (all when null), minus `skip`. */
export function combine(terms: readonly TermPostings[], into: Map<number, number>, only: ReadonlySet<number> | null, skip: ReadonlySet<number>): Map<number, number> {
  const total = terms.reduce((a, t) => a + t.idf, 0);
  const covered = new Map<number, number>();
  for (const t of terms) {
    for (const [id, share] of t.shares) {
      if ((only && !only.has(id)) || skip.has(id)) continue;
      into.set(id, (into.get(id) ?? 0) + share);
      covered.set(id, (covered.get(id) ?? 0) + t.idf);
    }
  }
  if (total > 0) for (const [id, s] of into) into.set(id, s * (1 + (COVERAGE * (covered.get(id) ?? 0)) / total));
  return into;
}
