// Summaries vote for their sources. A hit in a summary chunk is evidence for the raw sections its
// lines were taken from (the index's chunk_links): the chunk's score is shared out over its
// lines by how much of the query each line holds, and a line's share goes to its raw chunk (a
// topic line's to the sections the topic leads to). What no link claims stays the summary's own.
import type { SearchIndex } from '../index/search-index.js';
import { stmt } from '../index/db.js';
import type { ParsedQuery } from './query.js';
import { stemPrefix } from './snippet.js';

/** A summary chunk's lines, lower-cased, and where each one comes from. */
export interface SummaryLines {
  lines: string[];
  /** Line offset → raw chunk ids: one for a quoted line, several for a topic line. */
  links: Map<number, number[]>;
  /** Offsets of topic lines. */
  topics: Set<number>;
  /** 1 for a line that can hold a fact (not blank, not a heading). */
  countable: Uint8Array;
  /** The chunk's distinct words, sorted, and the lines each is on: prefixes are found by bisection. */
  vocab: string[];
  linesOf: number[][];
}

/**
 * The query as summary lines see it: word terms by their stem prefix (as snippets match them),
 * phrases and CJK runs by substring, each with its weight (IDF, or 1).
 */
export interface LineQuery {
  prefixes: { prefix: string; weight: number }[];
  needles: { text: string; weight: number }[];
}

export function lineQuery(q: ParsedQuery, weights: readonly number[] | null): LineQuery {
  const out: LineQuery = { prefixes: [], needles: [] };
  q.terms.forEach((t, i) => {
    const weight = weights?.[i] ?? 1;
    if (weight <= 0) return;
    if (t.kind === 'word') out.prefixes.push({ prefix: stemPrefix(t.words[0]!), weight });
    else out.needles.push({ text: t.kind === 'cjk' ? t.words[0]! : t.words.join(' '), weight });
  });
  return out;
}

export interface Vote {
  /** Raw chunk id → share of the summary chunk's score. */
  shares: Map<number, number>;
  /** Raw chunk id → the summary lines (offsets) that repeat it (topic lines are not listed). */
  lines: Map<number, number[]>;
  /** The share no link claims. */
  residual: number;
}

const HEADING = /^\s{0,3}#{1,6}\s/;
const WORD = /[\p{L}\p{N}]+/gu;

/** First index of `sorted` not less than `x`. */
function lowerBound(sorted: readonly string[], x: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The query weight each line holds: each term counted once per line. */
function lineWeights(s: SummaryLines, q: LineQuery): Float64Array {
  const w = new Float64Array(s.lines.length);
  const seen = new Int32Array(s.lines.length).fill(-1);
  q.prefixes.forEach(({ prefix, weight }, t) => {
    for (let i = lowerBound(s.vocab, prefix); i < s.vocab.length && s.vocab[i]!.startsWith(prefix); i++) {
      for (const l of s.linesOf[i]!) {
        if (seen[l] === t) continue;
        seen[l] = t;
        w[l] = w[l]! + weight;
      }
    }
  });
  for (const { text, weight } of q.needles) s.lines.forEach((l, i) => (l.includes(text) ? (w[i] = w[i]! + weight) : 0));
  return w;
}

/**
 * How a summary chunk's score is shared: each line by the query weight it holds (every line
 * alike when none holds any: a vector hit), headings only when nothing else matched.
 */
export function voteOf(s: SummaryLines, q: LineQuery | null, topicLeads = true): Vote {
  const countable = s.countable;
  let weights: ArrayLike<number> = q ? lineWeights(s, q) : [];
  let total = 0;
  for (let i = 0; i < weights.length; i++) if (countable[i]) total += weights[i]!;
  if (total === 0) {
    weights = countable;
    for (let i = 0; i < weights.length; i++) total += weights[i]!;
  }
  const vote: Vote = { shares: new Map(), lines: new Map(), residual: total === 0 ? 1 : 0 };
  if (total === 0) return vote;
  for (let i = 0; i < s.lines.length; i++) {
    const w = weights[i]!;
    if (w === 0 || !countable[i]) continue;
    const share = w / total;
    const to = s.links.get(i);
    if (!to || to.length === 0) {
      vote.residual += share;
      continue;
    }
    const isTopic = s.topics.has(i);
    if (isTopic && !topicLeads) continue; // folded, and leads nowhere
    for (const id of to) {
      vote.shares.set(id, (vote.shares.get(id) ?? 0) + share / to.length);
      if (isTopic) continue;
      const ls = vote.lines.get(id);
      if (ls) ls.push(i);
      else vote.lines.set(id, [i]);
    }
  }
  return vote;
}

/** Words of each line, as a sorted vocabulary with the lines each word is on. */
function vocabularyOf(lines: readonly string[]): { vocab: string[]; linesOf: number[][] } {
  const at = new Map<string, number[]>();
  lines.forEach((l, i) => {
    for (const w of l.match(WORD) ?? []) {
      const ls = at.get(w);
      if (!ls) at.set(w, [i]);
      else if (ls[ls.length - 1] !== i) ls.push(i);
    }
  });
  const vocab = [...at.keys()].sort();
  return { vocab, linesOf: vocab.map((w) => at.get(w)!) };
}

/**
 * Summary lines of recently searched chunks, per open index: a resident process asks for the
 * same summary chunks again and again. At most MAX_CACHED_CHARS of text; dropped whenever the
 * index changes.
 */
const MAX_CACHED_CHARS = 8_000_000;

interface LinesCache {
  token: string;
  chunks: Map<number, SummaryLines>;
  chars: number;
}

const caches = new WeakMap<SearchIndex, LinesCache>();

function cacheOf(index: SearchIndex): LinesCache {
  const token = `${index.generation}:${index.db.pragma('data_version', { simple: true }) as number}`;
  let c = caches.get(index);
  if (!c || c.token !== token) {
    c = { token, chunks: new Map(), chars: 0 };
    caches.set(index, c);
  }
  return c;
}

/** The lines and links of summary chunks `ids`. */
export function summaryLines(index: SearchIndex, ids: readonly number[]): Map<number, SummaryLines> {
  const cache = cacheOf(index);
  const out = new Map<number, SummaryLines>();
  const missing: number[] = [];
  for (const id of ids) {
    const s = cache.chunks.get(id);
    if (s) out.set(id, s);
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  const json = JSON.stringify(missing);
  const fresh = new Map<number, SummaryLines>();
  // Summary chunks only (their ids are negative).
  for (const [id, text] of stmt(index.db, 'SELECT id, text FROM chunks WHERE id < 0 AND id IN (SELECT value FROM json_each(?))').raw().all(json) as [number, string][]) {
    const lines = text.toLowerCase().split('\n');
    const countable = Uint8Array.from(lines, (l) => (l.trim() !== '' && !HEADING.test(l) ? 1 : 0));
    fresh.set(id, { lines, links: new Map(), topics: new Set(), countable, ...vocabularyOf(lines) });
    cache.chars += text.length;
  }
  const rows = stmt(index.db, 'SELECT chunk_id, line_offset, source_id, kind FROM chunk_links WHERE chunk_id IN (SELECT value FROM json_each(?)) AND source_id IS NOT NULL').raw().all(json) as [number, number, number, number][];
  for (const [id, offset, source, kind] of rows) {
    const s = fresh.get(id);
    if (!s) continue;
    const links = s.links;
    if (kind === 1) s.topics.add(offset);
    const to = links.get(offset);
    if (to) to.push(source);
    else links.set(offset, [source]);
  }
  for (const [id, s] of fresh) {
    cache.chunks.set(id, s);
    out.set(id, s);
  }
  for (const [id, s] of cache.chunks) {
    if (cache.chars <= MAX_CACHED_CHARS) break;
    cache.chunks.delete(id);
    cache.chars -= s.lines.reduce((a, l) => a + l.length + 1, 0);
  }
  return out;
}
