// Search in the PostgreSQL store: the same query language, filters, modes and hit shape as the
// local index, over the workspaces a search may read. What differs (docs/search.md):
// - Keywords: PostgreSQL full-text search (english stemming) of text and queries folded as the
//   local index folds them (text/search-fold.ts, index/pg/schema.ts), OR-ed terms, each term's
//   `ts_rank` (headings weigh A, text B, normalised by length) weighed by its IDF over the
//   workspaces read: BM25's shape, not its exact numbers.
// - Vectors: the nearest chunks by sign bits (Hamming distance), then the exact dot product of
//   unit vectors stored as REAL[] for those, in SQL (written inline: a SQL function is not
//   inlined, and its calls cost a fifth more), for chunks of the same embedder as the query's.
// - Summary nodes do not fold into their sources (the store holds no links): each section is a
//   hit of its own, `sources` and `alsoIn` are empty.
import type { PoolClient } from 'pg';
import type { DateRange } from '../index/files.js';
import type { IndexLevel } from '../index/levels.js';
import type { ChunkColumns } from '../index/pg/schema.js';
import type { PgStore } from '../index/pg/store.js';
import type { MemoryType } from '../tree/layout.js';
import { EmbedderError, type Embedder } from '../index/embed/embedder.js';
import type { SearchFilters } from './filters.js';
import { reciprocalRankFusion, rankByScore } from './fusion.js';
import { sectionRef, type SearchHit } from './hits.js';
import type { SearchMode } from './modes.js';
import type { ExtraQuery } from './extra-queries.js';
import { parseQuery, type ParsedQuery } from './query.js';
import { makeSnippet, queryMatchers } from './snippet.js';
import { signBits } from '../index/pg/signs.js';
import { searchFold } from '../text/search-fold.js';
import { heldWorkspaces } from '../index/pg/workspaces.js';

export interface PgSearchOptions {
  mode: SearchMode;
  limit: number;
  filters: SearchFilters;
  /** The workspaces to read; a name the store does not hold is reported in the warnings. */
  workspaces: readonly string[];
  embedder: Embedder | null;
  hybrid: { k: number; bm25Weight: number; vectorWeight: number };
  minSimilarity: number;
  /** Extra wordings of the query, ranked by keywords (`vec` ones by vectors too) and fused. */
  also: readonly ExtraQuery[];
  /** The query's own lists' weight against each extra query's (search.ts ORIGINAL_WEIGHT). */
  ownWeight: number;
}

export interface PgSearchResult {
  mode: SearchMode;
  hits: SearchHit[];
  warnings: string[];
}

interface Row extends ChunkColumns {
  id: string;
  workspace: string;
  path: string;
  level: string;
  period_start: string | null;
  period_end: string | null;
  status: string | null;
  score: number;
}

/**
 * One tsquery per term, as SQL with its parameters appended to `params`. `words`: a phrase as
 * all of its words, for the stripped `lex` column (it has no positions to match a phrase by).
 */
function termQueries(q: ParsedQuery, params: unknown[], words = false): string[] {
  return q.terms.map((t) => {
    params.push(searchFold(t.words.join(' ')));
    const n = params.length;
    if (t.kind === 'phrase') return words ? `plainto_tsquery('english', $${n})` : `phraseto_tsquery('english', $${n})`;
    if (t.kind === 'cjk') return `plainto_tsquery('simple', $${n})`;
    return `plainto_tsquery('english', $${n})`;
  });
}

/** Conditions on `c` (chunks) and `f` (files) for the workspaces, filters and -excluded words. */
function whereSql(o: PgSearchOptions, q: ParsedQuery, params: unknown[]): string {
  params.push(o.workspaces);
  const parts = [`c.workspace = ANY($${params.length}::text[])`];
  const f = o.filters;
  if (f.levels?.length) {
    params.push(f.levels);
    parts.push(`f.level = ANY($${params.length}::text[])`);
  }
  if (f.since) {
    params.push(f.since);
    parts.push(`f.period_end >= $${params.length}`);
  }
  if (f.until) {
    params.push(f.until);
    parts.push(`f.period_start <= $${params.length}`);
  }
  if (f.types?.length) {
    params.push(f.types);
    parts.push(`c.type = ANY($${params.length}::text[])`);
  }
  for (const w of q.excludedWords) {
    params.push(searchFold(w));
    parts.push(`NOT c.lex @@ plainto_tsquery('english', $${params.length})`);
  }
  return parts.join(' AND ');
}

const COLUMNS = `c.id, c.workspace, c.path, c.section_line, c.line_start, c.line_end, c.heading_path, c.type, c.text,
  f.level, f.period_start, f.period_end, f.status`;
const FROM = 'hipo_chunks c JOIN hipo_files f ON f.workspace = c.workspace AND f.path = c.path';

/**
 * Chunks ranked by `tsv` per search, picked first by the words they hold (see keywordRows).
 * MemAware (596 questions): 200 rank the same as all of them (R@10 36.4, MRR 0.193 against
 * 0.192), at 57 ms p50 instead of 211. Normalisation 1 of ts_rank (rank / (1 + log length)):
 * of 0, 1, 2 and 8, the best R@10 there.
 */
const CANDIDATES = 200;

/**
 * BM25-shaped: each term's rank weighed by its IDF among the chunks of the workspaces read. One
 * statement, three steps, because reading a long chunk's positions is what costs: the chunks
 * holding any query word, from `lex` (which also counts each word's chunks, for its IDF); the
 * ones holding the most query weight; and only those ranked by `ts_rank` over `tsv`.
 */
async function keywordRows(c: PoolClient, o: PgSearchOptions, q: ParsedQuery, want: number): Promise<Row[]> {
  if (!q.terms.length) return [];
  const params: unknown[] = [o.workspaces];
  const words = termQueries(q, params, true);
  const tq = termQueries(q, params);
  const where = whereSql(o, q, params);
  params.push(Math.max(CANDIDATES, want), want);
  const each = (f: (i: number) => string, sep = ', '): string => words.map((_, i) => f(i)).join(sep);
  const r = await c.query(
    `WITH m AS MATERIALIZED (
       SELECT c.id, c.workspace, c.path, c.type, ${q.excludedWords.length ? 'c.lex' : 'NULL::tsvector AS lex'},
         ${each((i) => `c.lex @@ ${words[i]} AS h${i}`)}
       FROM hipo_chunks c WHERE c.workspace = ANY($1::text[]) AND c.lex @@ (${words.join(' || ')})),
     w AS (
       SELECT ${each((i) => `ln(1 + (n.n - d.d${i} + 0.5) / (d.d${i} + 0.5)) AS w${i}`)}
       FROM (SELECT ${each((i) => `count(*) FILTER (WHERE h${i})::float8 AS d${i}`)} FROM m) d,
         (SELECT coalesce(sum(chunks), 0)::float8 AS n FROM hipo_files WHERE workspace = ANY($1::text[])) n),
     picked AS (
       SELECT c.id, (${each((i) => `w.w${i} * c.h${i}::int`, ' + ')}) AS held
       FROM m c JOIN hipo_files f ON f.workspace = c.workspace AND f.path = c.path, w
       WHERE ${where} ORDER BY held DESC, c.id LIMIT $${params.length - 1})
     SELECT ${COLUMNS}, (${each((i) => `w.w${i} * ts_rank(c.tsv, ${tq[i]}, 1)`, ' + ')})::float8 AS score
     FROM picked p JOIN hipo_chunks c ON c.id = p.id JOIN hipo_files f ON f.workspace = c.workspace AND f.path = c.path, w
     -- a phrase's words were enough to be picked; the phrase itself must be there
     WHERE c.tsv @@ (${tq.join(' || ')})
     ORDER BY score DESC, c.id LIMIT $${params.length}`,
    params,
  );
  return r.rows as Row[];
}

/**
 * Chunks ranked by the exact dot product per vector search: the nearest by sign bits. MemAware,
 * vector mode: 1,000 give the exact scan's R@10 (23.5) at 47 ms p50 instead of 248; 400, 22.8.
 */
const VECTOR_CANDIDATES = 1_000;

async function vectorRows(c: PoolClient, o: PgSearchOptions, q: ParsedQuery, v: Float32Array, embedder: string, want: number) {
  const params: unknown[] = [];
  const where = whereSql(o, q, params);
  params.push(`{${Array.from(v).join(',')}}`, signBits(v), embedder, o.minSimilarity, Math.max(VECTOR_CANDIDATES, want), want);
  const p = params.length;
  const r = await c.query(
    `WITH picked AS (
       SELECT c.id FROM ${FROM}
       WHERE ${where} AND c.sig IS NOT NULL AND c.embedder = $${p - 3}
       ORDER BY bit_count(c.sig # $${p - 4}::bit varying), c.id LIMIT $${p - 1})
     SELECT * FROM (
       SELECT ${COLUMNS}, (SELECT sum(x::float8 * y) FROM unnest(c.embedding, $${p - 5}::real[]) AS t(x, y)) AS score
       FROM picked p JOIN hipo_chunks c ON c.id = p.id JOIN hipo_files f ON f.workspace = c.workspace AND f.path = c.path) s
     WHERE score >= $${p - 2} ORDER BY score DESC, id LIMIT $${p}`,
    params,
  );
  return r.rows as Row[];
}

const sectionKey = (r: Row): string => `${r.workspace}\u0000${r.path}\u0000${r.section_line}`;

/** Sections best first, each by its best chunk (a long section's parts count once). */
function bySection(rows: readonly Row[]): Map<string, Row> {
  const best = new Map<string, Row>();
  for (const r of rows) if (!best.has(sectionKey(r))) best.set(sectionKey(r), r);
  return best;
}

async function embedQuery(e: Embedder, text: string): Promise<Float32Array | null> {
  try {
    return await e.embedQuery(text);
  } catch (err) {
    if (err instanceof EmbedderError) return null;
    throw err;
  }
}

export async function pgSearch(store: PgStore, query: string, o: PgSearchOptions): Promise<PgSearchResult> {
  const warnings: string[] = [];
  const q = parseQuery(query);
  let mode = o.mode;
  const want = Math.max(30, o.limit * 3);
  let queryVector: Float32Array | null = null;
  if (mode !== 'bm25') {
    queryVector = o.embedder ? await embedQuery(o.embedder, q.text) : null;
    if (!queryVector) {
      const why = o.embedder ? 'the query has no word the embedder knows' : 'no embedder is configured';
      warnings.push(mode === 'hybrid' ? `${why}; keyword results only` : why);
      if (mode === 'vector') return { mode, hits: [], warnings };
      mode = 'bm25';
    }
  }
  const { bm25Weight, vectorWeight, k } = o.hybrid;
  return store.use(async (c) => {
    const lists: { rows: Map<string, Row>; weight: number; kind: 'bm25' | 'vector' }[] = [];
    const { present, missing } = await heldWorkspaces(c, o.workspaces);
    if (missing.length) warnings.push(`the store holds no workspace named ${missing.map((w) => `"${w}"`).join(', ')}`);
    const read = { ...o, workspaces: present };
    const { ownWeight } = o;
    const parsed = [q];
    if (mode !== 'vector')
      lists.push({ rows: bySection(await keywordRows(c, read, q, want)), weight: bm25Weight * ownWeight, kind: 'bm25' });
    if (queryVector)
      lists.push({
        rows: bySection(await vectorRows(c, read, q, queryVector, o.embedder!.id, want)),
        weight: vectorWeight * ownWeight,
        kind: 'vector',
      });
    // The query's own lists give each hit its per-mode scores.
    const own = [...lists];
    for (const x of o.also) {
      const xq = parseQuery(x.text);
      const w = x.weight ?? 1;
      if (mode !== 'vector' && x.kind !== 'vec' && xq.terms.length) {
        parsed.push(xq);
        lists.push({
          rows: bySection(await keywordRows(c, read, { ...xq, excludedWords: q.excludedWords }, want)),
          weight: bm25Weight * w,
          kind: 'bm25',
        });
      }
      if (queryVector && x.kind !== 'lex') {
        const v = await embedQuery(o.embedder!, x.text);
        if (v)
          lists.push({ rows: bySection(await vectorRows(c, read, q, v, o.embedder!.id, want)), weight: vectorWeight * w, kind: 'vector' });
      }
    }
    const fused = reciprocalRankFusion(
      lists.map((l) => ({ items: [...l.rows.keys()], weight: l.weight })),
      k,
    );
    const matchers = parsed.flatMap((p) => queryMatchers(p));
    const hits = rankByScore(fused)
      .slice(0, o.limit)
      .map((key): SearchHit => {
        const ownScore = (kind: 'bm25' | 'vector'): number | null => own.find((l) => l.kind === kind)?.rows.get(key)?.score ?? null;
        const r = lists.map((l) => l.rows.get(key)).find((x) => x)!;
        const place = {
          path: r.path,
          level: r.level as IndexLevel,
          period: r.period_start ? ({ start: r.period_start, end: r.period_end } as DateRange) : null,
          headingPath: JSON.parse(r.heading_path) as string[],
          lineStart: r.line_start,
          lineEnd: r.line_end,
        };
        return {
          workspace: r.workspace,
          // One list: its own score (as the local index gives BM25 sums and cosines); else the fused one.
          ...sectionRef(place, lists.length === 1 ? r.score : fused.get(key)!),
          status: r.status,
          type: (r.type as MemoryType | null) ?? null,
          scores: { bm25: ownScore('bm25'), vector: ownScore('vector') },
          snippet: makeSnippet(r.text, r.line_start, matchers),
          sources: [],
          alsoIn: [],
        };
      });
    return { mode, hits, warnings };
  });
}
