// Ranking sections, not chunks: a chunk list (BM25 sums or cosines per chunk) becomes a list of
// sections — a raw log's `##` entry, a node's section — each shown by its best part, and several
// lists (keywords, vectors, extra queries) are fused by rank.
import { stmt, type IndexDb } from '../index/db.js';
import { rankByScore, reciprocalRankFusion } from './fusion.js';
import type { ChunkScores } from './scores.js';

/** `fileId:sectionLine`. */
export type SectionKey = string;

export interface RankedSections {
  order: SectionKey[];
  /** Best chunk and its score per section. */
  best: Map<SectionKey, { id: number; score: number }>;
}

/** The section each chunk belongs to, for ranking (a lighter read than full metadata). */
function fetchSections(db: IndexDb, ids: readonly number[], into: Map<number, SectionKey>): void {
  const missing = ids.filter((id) => !into.has(id));
  if (missing.length === 0) return;
  for (const [id, file, line] of stmt(db, 'SELECT id, file_id, section_line FROM chunks WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(missing)) as [number, number, number][]) {
    into.set(id, `${file}:${line}`);
  }
}

/**
 * A long section cut into parts matches in several of them: its score is its best part's plus
 * SECTION_REST times the others' (BM25; a vector list uses the best part alone).
 */
export const SECTION_REST = 0.1;

/**
 * Sections gathered before the top `want` are taken, at least: how deep the chunk ranking is
 * read must not depend on how many results were asked for, or a long section's other parts
 * would count more for `-n 50` than for `-n 5` and the first results would change order.
 */
const MIN_SECTIONS = 150;
/** Chunks read per step down the ranking. */
const PAGE = 300;

/**
 * Top `want` sections of chunk scores, reading the chunk ranking page by page until
 * max(want, MIN_SECTIONS) sections are seen.
 */
function rankSections(db: IndexDb, scores: ChunkScores, want: number, sectionOf: Map<number, SectionKey>, rest: number): RankedSections {
  const sections = new Map<SectionKey, { id: number; best: number; others: number }>();
  const enough = Math.max(want, MIN_SECTIONS);
  let list = scores.top(PAGE);
  let start = 0;
  for (;;) {
    const page = list.slice(start, start + PAGE);
    fetchSections(db, page, sectionOf);
    for (const id of page) {
      const key = sectionOf.get(id);
      if (!key) continue;
      const score = scores.get(id)!;
      const s = sections.get(key);
      if (!s) sections.set(key, { id, best: score, others: 0 });
      else s.others += score;
    }
    start += page.length;
    if (sections.size >= enough || page.length === 0) break;
    // Not enough distinct sections among the best chunks: go on down the ranking.
    if (start >= list.length) list = scores.top(Math.min(scores.size, list.length * 4));
  }
  const total = new Map([...sections].map(([key, s]) => [key, s.best + rest * s.others]));
  const order = rankByScore(total).slice(0, want);
  return { order, best: new Map(order.map((key) => [key, { id: sections.get(key)!.id, score: total.get(key)! }])) };
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
}

export interface Ranked {
  order: SectionKey[];
  /** Per input list, in order: its sections. */
  lists: RankedSections[];
  fused: Map<SectionKey, number>;
}

/**
 * Sections ranked from one or more chunk lists: one list keeps its own scores, several are
 * fused by rank. A long section's other parts add to BM25 sums, not to cosines.
 */
export function rankLists(db: IndexDb, sectionOf: Map<number, SectionKey>, inputs: readonly ChunkList[], want: number, opts: { k: number; wide: boolean }): Ranked {
  if (inputs.length === 0) return { order: [], lists: [], fused: new Map() };
  const n = inputs.length > 1 || opts.wide ? candidates(want) : want;
  const lists = inputs.map((l) => rankSections(db, l.scores, n, sectionOf, l.kind === 'bm25' ? SECTION_REST : 0));
  let fused: Map<SectionKey, number>;
  if (lists.length > 1) {
    fused = reciprocalRankFusion(lists.map((r, i) => ({ items: r.order, weight: inputs[i]!.weight })), opts.k);
  } else {
    const only = lists[0]!;
    fused = new Map(only.order.map((key) => [key, only.best.get(key)!.score]));
  }
  return { order: rankByScore(fused).slice(0, want), lists, fused };
}

/** The chunk a section is shown by: its best part in the first list that has it. */
export function shownChunk(r: Ranked, key: SectionKey): number {
  for (const l of r.lists) {
    const b = l.best.get(key);
    if (b) return b.id;
  }
  throw new Error(`section ${key} is in no list`);
}
