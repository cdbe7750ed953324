// `search(index, query, options)`: the ranked sections of the tree for a query, in one of three
// modes — bm25 (keywords), vector (meaning, via the embedder) or hybrid (both, fused by rank).
// Results are sections (a raw log's `##` entry, a node's section), not raw chunks: the parts of
// a long section count once, shown by their best part. Summary nodes fold into the raw sections
// their lines came from (sections.ts, votes.ts): one fact is one result, found where it was
// written, with the summary lines that repeat it (`alsoIn`); a summary hit of its own lists the
// raw sections of its period that match the query best (`sources`).
import type { IndexLevel } from '../index/levels.js';
import { stmt } from '../index/db.js';
import type { SearchIndex } from '../index/search-index.js';
import { storedEmbedder } from '../index/vectors.js';
import { EmbedderError } from '../index/embed/embedder.js';
import { bm25Scores, excludedChunks, quotedChunks, type Bm25Scores } from './bm25.js';
import { mapScores, type ChunkScores } from './scores.js';
import { allowedChunks, hasFilters, type SearchFilters } from './filters.js';
import {
  candidates,
  rankLists,
  sectionsOf,
  shownChunk,
  type ChunkList,
  type Folding,
  type Ranked,
  type RankedSections,
  type SectionKey,
} from './sections.js';
import { parseQuery, type ParsedQuery } from './query.js';
import { makeSnippet, queryMatchers } from './snippet.js';
import { nearestChunks, similarities } from './vector.js';
import { alsoInOf, fetchMeta, sectionRef, type ChunkMeta, type SearchHit, type SectionRef } from './hits.js';
import { lineQuery, summaryLinks, summaryTexts, type LineQuery } from './votes.js';
import type { PgLink } from '../index/pg/store.js';
import type { PgSearchResult } from './pg.js';
import { ORIGINAL_WEIGHT, type ExtraQuery } from './extra-queries.js';

import type { SearchMode } from './modes.js';
export { SEARCH_MODES, type SearchMode } from './modes.js';
export type { SearchHit, SectionRef } from './hits.js';

export interface SearchOptions {
  /** Default hybrid (bm25 when there is no usable embedder). */
  mode?: SearchMode;
  /** Hits to return; default 10. */
  limit?: number;
  filters?: SearchFilters;
  /** Raw sections listed under each summary-node hit; default 3, 0 for none. */
  sources?: number;
  /**
   * More ways to ask for the same thing (an agent's rephrasings, or a model's: search/expand.ts).
   * Each is ranked on its own and fused by rank with the query's lists (ORIGINAL_WEIGHT).
   */
  also?: readonly ExtraQuery[];
  /**
   * How summary nodes count (for measuring; the defaults are what ships): `fold` false ranks
   * every summary section on its own, as before links; `voteWeight` is a vote's weight beside
   * a raw section's own score (0: summaries fold but add nothing); `topicLeads` false folds
   * topic lines without leading anywhere.
   */
  tree?: { fold?: boolean; voteWeight?: number; topicLeads?: boolean };
  /**
   * With `search.store` "postgres": the workspaces to read (default: this one and
   * `search.postgres.workspaces`). A name the store does not hold is reported, not searched.
   */
  workspaces?: readonly string[];
}

/** A summary's vote for a raw section weighs this much beside the section's own score. */
const VOTE_WEIGHT = 1;

/** At most this many extra queries are run. */
const MAX_EXTRA_QUERIES = 8;

export interface SearchResult {
  query: string;
  /** The extra queries that ran (empty when none were given). */
  also: ExtraQuery[];
  /** The mode that ran (hybrid falls back to bm25 without vectors). */
  mode: SearchMode;
  hits: SearchHit[];
  warnings: string[];
  ms: number;
}

/** One search as it runs: the index, the parsed query, its filters and how summaries fold. */
interface SearchRun {
  index: SearchIndex;
  q: ParsedQuery;
  mode: SearchMode;
  bm25: Bm25Scores | null;
  /** Chunks holding a -excluded word. */
  excluded: ReadonlySet<number>;
  /** For a query of only quoted words, the chunks holding one (null: free words too). */
  quoted: ReadonlySet<number> | null;
  queryVector: Float32Array | null;
  meta: Map<number, ChunkMeta>;
  sectionOf: Map<number, SectionKey>;
  /** The query as summary lines see it. */
  lineQuery: LineQuery;
  fold: Folding | null;
  filters: SearchFilters;
}

function rankByMode(ctx: SearchRun, inputs: readonly ChunkList[], want: number, fold = ctx.fold): Ranked {
  return rankLists(ctx.index.db, ctx.sectionOf, inputs, want, { k: ctx.index.settings.hybrid.k, wide: ctx.mode === 'hybrid', fold });
}

/** The query's own BM25 and vector lists, weighed as the hybrid settings say. */
function ownLists(ctx: SearchRun, bm25: ChunkScores | null, vector: ChunkScores | null, weight = 1): ChunkList[] {
  const { bm25Weight, vectorWeight } = ctx.index.settings.hybrid;
  const out: ChunkList[] = [];
  if (bm25) out.push({ kind: 'bm25', scores: bm25, weight: bm25Weight * weight, lineQuery: ctx.lineQuery });
  if (vector) out.push({ kind: 'vector', scores: vector, weight: vectorWeight * weight, lineQuery: null });
  return out;
}

/** Leaves out of a vector list the chunks the query's words rule out (-excluded, only "quoted"). */
function dropRuledOut(ctx: SearchRun, vector: Map<number, number>): void {
  for (const id of ctx.excluded) vector.delete(id);
  if (ctx.quoted) for (const id of vector.keys()) if (!ctx.quoted.has(id)) vector.delete(id);
}

const SUMMARY_WITH_PERIOD = new Set<IndexLevel>(['daily', 'weekly', 'monthly']);

/** The raw sections of a summary node's period that match the query best. */
function sourcesOf(ctx: SearchRun, m: ChunkMeta, n: number): SectionRef[] {
  if (n <= 0 || !SUMMARY_WITH_PERIOD.has(m.level) || !m.period) return [];
  const { db } = ctx.index;
  // The query's dates and types hold for the sources too: a week or month that overlaps the
  // range by a day has days outside it. (Its levels do not: sources are raw by definition.)
  const { since, until, types } = ctx.filters;
  const ids = allowedChunks(db, {
    levels: ['raw'],
    since: since && since > m.period.start ? since : m.period.start,
    until: until && until < m.period.end ? until : m.period.end,
    types,
  });
  if (ids.size === 0) return [];
  const bm25 = ctx.bm25 ? ctx.bm25.scores.pick(ids) : null;
  const vector = ctx.queryVector ? similarities(ctx.index, ctx.queryVector, [...ids], ctx.index.settings.minSimilarity) : null;
  if (vector) dropRuledOut(ctx, vector);
  const b = bm25?.size ? mapScores(bm25) : null;
  const v = vector?.size ? mapScores(vector) : null;
  if (!b && !v) return [];
  const ranked = rankByMode(ctx, ownLists(ctx, b, v), n, null);
  const shown = ranked.order.map((key) => shownChunk(ranked, key));
  fetchMeta(db, shown, ctx.meta);
  return ranked.order.map((key, i) => sectionRef(ctx.meta.get(shown[i]!)!, ranked.fused.get(key)!));
}

/**
 * The lists of the extra queries: `lex` by BM25, `vec` by vectors, as far as the mode allows
 * (bm25 mode ranks every extra query by keywords, vector mode by vectors). The query's filters
 * and -excluded words hold for them too.
 */
async function extraLists(
  ctx: SearchRun,
  also: readonly ExtraQuery[],
  filters: SearchFilters,
  keep: (id: number) => boolean,
  limit: number,
): Promise<{ lists: ChunkList[]; parsed: ParsedQuery[] }> {
  const { index } = ctx;
  const { bm25Weight, vectorWeight } = index.settings.hybrid;
  const lists: ChunkList[] = [];
  const parsed: ParsedQuery[] = [];
  const byVectors = async (text: string, weight: number): Promise<boolean> => {
    let v: Float32Array | null;
    try {
      v = await queryVectorOf(index, text);
    } catch (err) {
      if (err instanceof EmbedderError) return false;
      throw err;
    }
    if (!v) return false;
    const near = nearestChunks(index, v, candidates(limit) * 3, filters, { minSimilarity: index.settings.minSimilarity });
    for (const id of near.keys()) if (!keep(id)) near.delete(id);
    if (near.size) lists.push({ kind: 'vector', scores: mapScores(near), weight: vectorWeight * weight, lineQuery: null });
    return true;
  };
  const byKeywords = (text: string, weight: number): void => {
    const q = parseQuery(text);
    if (q.terms.length === 0) return;
    parsed.push(q);
    const b = bm25Scores(index, q);
    const scores = b.scores.restrict(keep);
    if (scores.size) lists.push({ kind: 'bm25', scores, weight: bm25Weight * weight, lineQuery: lineQuery(q, b.weights) });
  };
  const vectors = ctx.queryVector !== null && ctx.mode !== 'bm25';
  for (const x of also) {
    const w = x.weight ?? 1;
    const embedded = vectors && (ctx.mode === 'vector' || x.kind !== 'lex') ? await byVectors(x.text, w) : false;
    // A `vec` line the embedder cannot read still counts, by its words.
    if (ctx.mode !== 'vector' && (x.kind !== 'vec' || !embedded)) byKeywords(x.text, w);
  }
  return { lists, parsed };
}

export async function search(index: SearchIndex, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
  const t0 = performance.now();
  const warnings: string[] = [];
  const limit = Math.max(1, Math.floor(opts.limit ?? 10));
  const q = parseQuery(query);
  let mode: SearchMode = opts.mode ?? 'hybrid';
  const also = (opts.also ?? [])
    .map((x) => ({ ...x, text: x.text.trim() }))
    .filter((x) => x.text !== '')
    .slice(0, MAX_EXTRA_QUERIES);
  const done = (hits: SearchHit[]): SearchResult => ({ query: q.text, also, mode, hits, warnings, ms: performance.now() - t0 });
  if (q.text === '') return done([]);

  if (index.pg) {
    const shared = await storeSearch(index, index.pg, query, { ...opts, mode, limit, also });
    warnings.push(...shared.warnings);
    if (shared.result) {
      mode = shared.result.mode;
      return done(shared.result.hits);
    }
  } else if (opts.workspaces?.length) {
    warnings.push('other workspaces are read only with "search.store": "postgres"; searched this workspace');
  }

  // Vectors are usable only if the index holds them for the configured embedder.
  let queryVector: Float32Array | null = null;
  if (mode !== 'bm25') {
    const problem = vectorProblem(index);
    if (problem) {
      warnings.push(mode === 'hybrid' ? `${problem}; keyword results only` : problem);
      if (mode === 'vector') return done([]);
      mode = 'bm25';
    } else {
      try {
        queryVector = await queryVectorOf(index, q.text);
      } catch (err) {
        if (!(err instanceof EmbedderError)) throw err;
        queryVector = null;
        warnings.push(mode === 'hybrid' ? `${err.message}; keyword results only` : err.message);
        if (mode === 'vector') return done([]);
        mode = 'bm25';
      }
      const pending = (stmt(index.db, 'SELECT count(*) AS n FROM chunks WHERE embedded = 0').get() as { n: number }).n;
      if (pending > 0) warnings.push(`${pending} chunk(s) have no vector yet (run "hipo index")`);
    }
  }

  const filters = opts.filters ?? {};
  const allowed = hasFilters(filters) ? allowedChunks(index.db, filters) : null;
  const bm25 = mode !== 'vector' ? bm25Scores(index, q) : null;
  const excluded = excludedChunks(index, q);
  const quoted = quotedChunks(index, q);
  const keep = (id: number): boolean => !excluded.has(id) && (!quoted || quoted.has(id)) && (!allowed || allowed.has(id));
  const tree = opts.tree ?? {};
  const fold: Folding | null =
    tree.fold === false
      ? null
      : {
          links: (ids) => summaryLinks(index, ids),
          texts: (ids) => summaryTexts(index, ids),
          allow: keep,
          weight: tree.voteWeight ?? VOTE_WEIGHT,
          topicLeads: tree.topicLeads ?? true,
        };
  const ctx: SearchRun = {
    index,
    q,
    mode,
    bm25,
    excluded,
    quoted,
    queryVector,
    meta: new Map(),
    sectionOf: sectionsOf(index),
    lineQuery: lineQuery(q, bm25?.weights ?? null),
    fold,
    filters,
  };
  let vector: Map<number, number> | null = null;
  if (queryVector) {
    vector = nearestChunks(index, queryVector, candidates(limit) * 3, filters, { minSimilarity: index.settings.minSimilarity });
    dropRuledOut(ctx, vector);
  } else if (queryVector === null && mode !== 'bm25') {
    // Said in hybrid mode too: the results are then keywords' alone, as the mode shown says.
    warnings.push(
      mode === 'hybrid' ? 'the query has no word the embedder knows; keyword results only' : 'the query has no word the embedder knows',
    );
  }
  if (mode !== 'bm25' && mode !== 'vector' && !vector) mode = 'bm25';

  const bm25List = bm25 ? (allowed ? bm25.scores.restrict((id) => allowed.has(id)) : bm25.scores) : null;
  const extra = await extraLists(ctx, also, filters, keep, limit);
  const own = ownLists(ctx, bm25List, vector ? mapScores(vector) : null, extra.lists.length ? ORIGINAL_WEIGHT : 1);
  const ranked = rankByMode(ctx, [...own, ...extra.lists], limit);
  // The query's own lists come first: their sections give each hit its per-mode scores.
  const ownRanked = (kind: ChunkList['kind']): RankedSections | undefined => {
    const i = own.findIndex((l) => l.kind === kind);
    return i < 0 ? undefined : ranked.lists[i];
  };
  const shown = ranked.order.map((key) => shownChunk(ranked, key));
  const texts = new Map(
    (
      stmt(index.db, 'SELECT id, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(shown)) as {
        id: number;
        text: string;
      }[]
    ).map((r) => [r.id, r.text]),
  );
  // Snippets show the query's words, or an extra query's when the hit came from one.
  const matchers = [...queryMatchers(q), ...extra.parsed.flatMap((p) => queryMatchers(p))];
  fetchMeta(index.db, shown, ctx.meta);
  const ownBm25 = ownRanked('bm25');
  const ownVector = ownRanked('vector');
  const alsoIn = ctx.fold ? alsoInOf(index.db, ranked.voters, ranked.order, ctx.meta) : [];
  const hits: SearchHit[] = ranked.order.map((key, i) => {
    const shownId = shown[i]!;
    const m = ctx.meta.get(shownId)!;
    return {
      ...sectionRef(m, ranked.fused.get(key)!),
      status: m.status,
      type: m.type,
      scores: { bm25: ownBm25?.best.get(key)?.own ?? null, vector: ownVector?.best.get(key)?.own ?? null },
      snippet: makeSnippet(texts.get(shownId) ?? '', m.lineStart, matchers),
      sources: sourcesOf(ctx, m, opts.sources ?? 3),
      alsoIn: alsoIn[i] ?? [],
    };
  });
  return done(hits);
}

/** Why vector search cannot run on this index now, or null when it can. */
/**
 * A query's vector, if it can be compared with the stored ones: an endpoint that now returns
 * vectors of another size under the same model name is an EmbedderError (the next update that
 * embeds something starts the vectors over; until then only a rebuild does).
 */
async function queryVectorOf(index: SearchIndex, text: string): Promise<Float32Array | null> {
  const v = await index.embedder!.embedQuery(text);
  const dims = storedEmbedder(index.db)?.dims;
  if (v && dims && v.length !== dims)
    throw new EmbedderError(
      `the embedder now returns ${v.length}-dimensional vectors, the index holds ${dims}-dimensional ones (run "hipo index --rebuild")`,
    );
  return v;
}

function vectorProblem(index: SearchIndex): string | null {
  if (!index.embedder) return index.embedderProblem ?? 'no embedder is configured ("search.embedder" is "none")';
  const stored = storedEmbedder(index.db);
  if (!stored) return 'the index holds no vectors yet (run "hipo index")';
  if (stored.id !== index.embedder.id)
    return `the index holds vectors of ${stored.id}, not of the configured ${index.embedder.id} (run "hipo index")`;
  return null;
}

/**
 * The search in the shared store, or null with a warning when it cannot run: the local index
 * still answers for this workspace, so an unreachable server never leaves an agent without memory.
 */
async function storeSearch(
  index: SearchIndex,
  link: PgLink,
  query: string,
  o: SearchOptions & { mode: SearchMode; limit: number; also: ExtraQuery[] },
): Promise<{ result: PgSearchResult | null; warnings: string[] }> {
  const fallback = "searched this workspace's local index only";
  if (!link.settings) return { result: null, warnings: [`${link.problem}; ${fallback}`] };
  const workspaces = o.workspaces?.length ? [...new Set(o.workspaces)] : link.settings.reads;
  // The store's search code only for a workspace that searches the store.
  const [{ pgSearch }, { PgStoreError }] = await Promise.all([import('./pg.js'), import('../index/pg/store.js')]);
  try {
    const result = await pgSearch(await link.store(), query, {
      mode: o.mode,
      limit: o.limit,
      filters: o.filters ?? {},
      workspaces,
      embedder: index.embedder,
      hybrid: index.settings.hybrid,
      minSimilarity: index.settings.minSimilarity,
      also: o.also,
      ownWeight: o.also.length ? ORIGINAL_WEIGHT : 1,
    });
    return { result, warnings: result.warnings };
  } catch (err) {
    if (!(err instanceof PgStoreError)) throw err;
    return { result: null, warnings: [`${err.message}; ${fallback}`] };
  }
}
