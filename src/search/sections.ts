// Ranking sections, not chunks: a chunk list (BM25 sums or cosines per chunk) becomes a list of
// sections — a raw log's `##` entry, a node's section — each shown by its best part, and several
// lists (keywords, vectors, extra queries) are fused by rank. A summary chunk's score goes, as
// votes, to the raw sections its matching lines were taken from (votes.ts): one fact is one
// section, ranked by the best of what it says and what its summaries say, and the summaries
// are where else it appears.
import { dataVersion, stmt, type IndexDb } from '../index/db.js';
import type { SearchIndex } from '../index/search-index.js';
import { rankByScore, reciprocalRankFusion } from './fusion.js';
import type { ChunkScores } from './scores.js';
import { voteOf, type LineQuery, type SummaryLinks, type SummaryText } from './votes.js';

/** `fileId:sectionLine`. */
export type SectionKey = string;

export interface RankedSections {
  order: SectionKey[];
  /** Best chunk and its score per section; `own` leaves out the summaries' votes (null: none). */
  best: Map<SectionKey, { id: number; score: number; own: number | null }>;
  /** Each summary chunk that voted, and its score in this list. */
  voters: Map<number, number>;
}

/** Raw chunk id → the best vote it got. */
type Votes = Map<number, number>;

/** How summary chunks vote (null: they rank as sections of their own, as any chunk). */
export interface Folding {
  /** Where summary chunks' lines come from (chunks without links are left out). */
  links: (ids: readonly number[]) => Map<number, SummaryLinks>;
  /** Summary chunks' texts, to weigh their lines by the query. */
  texts: (ids: readonly number[]) => Map<number, SummaryText>;
  /** May a vote go to this raw chunk (filters, -excluded words)? */
  allow: (id: number) => boolean;
  /** A vote's weight beside a section's own score. */
  weight: number;
  /** Do topic lines lead to (vote for) the sections of their topic? */
  topicLeads: boolean;
}

/**
 * The section of every chunk looked up so far, per open index: a resident process ranks the
 * same chunks again and again. Dropped whenever the index changes; at most MAX_KNOWN entries.
 */
const MAX_KNOWN = 1_000_000;
const known = new WeakMap<SearchIndex, { token: string; sections: Map<number, SectionKey> }>();

export function sectionsOf(index: SearchIndex): Map<number, SectionKey> {
  const token = `${index.generation}:${dataVersion(index.db)}`;
  let c = known.get(index);
  if (!c || c.token !== token || c.sections.size > MAX_KNOWN) {
    c = { token, sections: new Map() };
    known.set(index, c);
  }
  return c.sections;
}

/** The section each chunk belongs to, for ranking (a lighter read than full metadata). */
function fetchSections(db: IndexDb, ids: readonly number[], into: Map<number, SectionKey>): void {
  const missing = ids.filter((id) => !into.has(id));
  if (missing.length === 0) return;
  for (const [id, file, line] of stmt(db, 'SELECT id, file_id, section_line FROM chunks WHERE id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify(missing)) as [number, number, number][]) {
    into.set(id, `${file}:${line}`);
  }
}

/**
 * A long section cut into parts matches in several of them: its score is its best part's plus
 * SECTION_REST times the others' (BM25; a vector list uses the best part alone).
 */
const SECTION_REST = 0.1;

/**
 * Sections gathered before the top `want` are taken, at least: how deep the chunk ranking is
 * read must not depend on how many results were asked for, or a long section's other parts
 * would count more for `-n 50` than for `-n 5` and the first results would change order.
 */
const MIN_SECTIONS = 150;
/** Chunks read per step down the ranking. */
const PAGE = 300;
/** Summary chunks' links are read this many chunks at a time. */
const LINK_SLICE = 50;

/**
 * Top `want` sections of chunk scores, reading the chunk ranking page by page until
 * max(want, MIN_SECTIONS) sections are seen. With `fold`, a summary chunk (id < 0) keeps as its
 * own only the share of its score that no link claims; each linked line's share is a vote for
 * the raw section it names, and a raw section scores the best of its own score and its votes:
 * a fact found in a summary ranks where the summary would have, and a fact repeated at three
 * levels does not count three times.
 */
function rankSections(
  db: IndexDb,
  scores: ChunkScores,
  want: number,
  sectionOf: Map<number, SectionKey>,
  rest: number,
  fold: (Folding & { lineQuery: LineQuery | null }) | null,
): RankedSections {
  const sections = new Map<SectionKey, { id: number; best: number; others: number }>();
  const votes: Votes = new Map();
  const voters = new Map<number, number>();
  const enough = Math.max(want, MIN_SECTIONS);
  // Chunks come best first: once `want` raw sections are seen, a later summary chunk can lift
  // no section into the top `want` (its votes are at most its score), nor be there itself.
  let rawSeen = 0;
  const votesDone = (): boolean => fold !== null && fold.weight <= 1 && rawSeen >= want;
  // Folded summary chunks add no section of their own, so a folding ranking reads several pages:
  // the best chunks are picked once for them (the same order, so the same pages).
  let list = scores.top(fold ? PAGE * 4 : PAGE);
  let start = 0;
  for (;;) {
    const page = list.slice(start, start + PAGE);
    fetchSections(db, page, sectionOf);
    let summaries: Map<number, SummaryLinks> | null = null;
    let texts: Map<number, SummaryText> | null = null;
    for (let i = 0; i < page.length; i++) {
      // Summary chunks' links (and texts) are read a slice at a time, and only while votes can
      // still count: a keyword list is often done with them within its first few dozen chunks.
      if (fold && i % LINK_SLICE === 0) {
        const summaryIds = votesDone() ? [] : page.slice(i, i + LINK_SLICE).filter((id) => id < 0);
        summaries = summaryIds.length ? fold.links(summaryIds) : null;
        // Texts only where lines are weighed by the query's words (keyword lists).
        texts = summaries && fold.lineQuery ? fold.texts([...summaries.keys()]) : null;
      }
      const id = page[i]!;
      const key = sectionOf.get(id);
      if (!key) continue;
      let score = scores.get(id)!;
      if (id < 0 && votesDone()) continue;
      const links = summaries?.get(id);
      if (fold && links) {
        const v = voteOf(links, texts?.get(id) ?? null, fold.lineQuery, fold.topicLeads);
        let kept = v.residual;
        for (const [raw, share] of v.shares) {
          // A source the filters leave out gets nothing: the summary keeps that share.
          if (!fold.allow(raw)) {
            kept += share;
            continue;
          }
          const vote = score * share * fold.weight;
          if (vote > (votes.get(raw) ?? 0)) votes.set(raw, vote);
        }
        voters.set(id, score);
        score *= kept;
        if (score <= 0) continue;
      }
      const s = sections.get(key);
      if (!s) {
        sections.set(key, { id, best: score, others: 0 });
        if (id > 0) rawSeen++;
      } else if (score > s.best) {
        s.others += s.best;
        s.best = score;
        s.id = id;
      } else s.others += score;
    }
    start += page.length;
    if (sections.size >= enough || page.length === 0) break;
    // Not enough distinct sections among the best chunks: go on down the ranking.
    if (start >= list.length) list = scores.top(Math.min(scores.size, list.length * 4));
  }
  const own = new Map<SectionKey, number | null>([...sections].map(([key, s]) => [key, s.best + rest * s.others]));
  const total = new Map([...own].map(([key, v]) => [key, v ?? 0]));
  // A vote only matters if it lifts its section above the `want`-th own score: the others are
  // kept (they name where else a fact appears) but need not be placed.
  const ranked = [...total.values()].sort((x, y) => y - x);
  const cut = ranked.length >= want ? ranked[want - 1]! : 0;
  const lifting = [...votes].filter(([, vote]) => vote > cut);
  fetchSections(
    db,
    lifting.map(([raw]) => raw),
    sectionOf,
  );
  for (const [raw, vote] of lifting) {
    const key = sectionOf.get(raw);
    if (!key) continue;
    if (!sections.has(key)) {
      // A section only its summaries found: shown by the part they quote.
      const mine = scores.get(raw) ?? null;
      sections.set(key, { id: raw, best: mine ?? 0, others: 0 });
      own.set(key, mine);
      total.set(key, mine ?? 0);
    }
    total.set(key, Math.max(total.get(key)!, vote));
  }
  const order = rankByScore(total).slice(0, want);
  return {
    order,
    best: new Map(order.map((key) => [key, { id: sections.get(key)!.id, score: total.get(key)!, own: own.get(key) ?? null }])),
    voters,
  };
}

/** Sections each list ranks before fusion: enough for the fused top `limit`. */
export function candidates(limit: number): number {
  return Math.max(limit * 3, MIN_SECTIONS);
}

/** One ranked list of chunks to fuse: BM25 sums or cosines, and its weight in the fusion. */
export interface ChunkList {
  kind: 'bm25' | 'vector';
  scores: ChunkScores;
  weight: number;
  /** The query as summary lines see it, to share a summary's score over its lines (null: alike). */
  lineQuery: LineQuery | null;
}

export interface Ranked {
  order: SectionKey[];
  /** Per input list, in order: its sections. */
  lists: RankedSections[];
  fused: Map<SectionKey, number>;
  /** Each summary chunk that voted, and its score in the first list it was in. */
  voters: Map<number, number>;
}

/**
 * Sections ranked from one or more chunk lists: one list keeps its own scores, several are
 * fused by rank. A long section's other parts add to BM25 sums, not to cosines.
 */
export function rankLists(
  db: IndexDb,
  sectionOf: Map<number, SectionKey>,
  inputs: readonly ChunkList[],
  want: number,
  opts: { k: number; wide: boolean; fold: Folding | null },
): Ranked {
  if (inputs.length === 0) return { order: [], lists: [], fused: new Map(), voters: new Map() };
  const n = inputs.length > 1 || opts.wide ? candidates(want) : want;
  const lists = inputs.map((l) =>
    rankSections(
      db,
      l.scores,
      n,
      sectionOf,
      l.kind === 'bm25' ? SECTION_REST : 0,
      opts.fold ? { ...opts.fold, lineQuery: l.lineQuery } : null,
    ),
  );
  let fused: Map<SectionKey, number>;
  if (lists.length > 1) {
    fused = reciprocalRankFusion(
      lists.map((r, i) => ({ items: r.order, weight: inputs[i]!.weight })),
      opts.k,
    );
  } else {
    const only = lists[0]!;
    fused = new Map(only.order.map((key) => [key, only.best.get(key)!.score]));
  }
  const voters = new Map<number, number>();
  for (const l of lists) for (const [id, score] of l.voters) if (!voters.has(id)) voters.set(id, score);
  return { order: rankByScore(fused).slice(0, want), lists, fused, voters };
}

/** The chunk a section is shown by: its best part in the first list that has it. */
export function shownChunk(r: Ranked, key: SectionKey): number {
  for (const l of r.lists) {
    const b = l.best.get(key);
    if (b) return b.id;
  }
  throw new Error(`section ${key} is in no list`);
}
