// Summaries vote for their sources. A hit in a summary chunk is evidence for the raw sections its
// lines were taken from (the index's chunk_links): the chunk's score is shared out over its
// lines — by how much of the query each line holds for a keyword list, alike for a vector list —
// and a line's share goes to its raw chunk (a topic line's to the sections the topic leads to).
// What no link claims stays the summary's own.
import type { SearchIndex } from '../index/search-index.js';
import { dataVersion, stmt } from '../index/db.js';
import type { ParsedQuery } from './query.js';
import { stemPrefix } from './snippet.js';

/** Where a summary chunk's lines come from, as the index's links say. */
export interface SummaryLinks {
  /** Offsets of the lines that can hold a fact (every line a link was looked for). */
  lines: Int32Array;
  /** Line offset → raw chunk ids: one for a quoted line, several for a topic line. */
  links: Map<number, number[]>;
  /** Offsets of topic lines. */
  topics: Set<number>;
  /** The vote with every line alike, and without topic leads (computed once). */
  alike: Vote;
  alikeNoLeads: Vote;
}

/** A summary chunk's text, lower-cased, and where each of its lines starts. */
export interface SummaryText {
  text: string;
  /** One entry per line, and one more: the end. */
  starts: Int32Array;
}

/**
 * The query as summary lines see it: word terms by their stem prefix (as snippets match them),
 * phrases and CJK runs by substring, each with its weight (IDF, or 1).
 */
export interface LineQuery {
  terms: { text: string; weight: number; word: boolean }[];
}

export function lineQuery(q: ParsedQuery, weights: readonly number[] | null): LineQuery {
  const terms: LineQuery['terms'] = [];
  q.terms.forEach((t, i) => {
    const weight = weights?.[i] ?? 1;
    if (weight <= 0) return;
    if (t.kind === 'word') terms.push({ text: stemPrefix(t.words[0]!), weight, word: true });
    else terms.push({ text: t.kind === 'cjk' ? t.words[0]! : t.words.join(' '), weight, word: false });
  });
  return { terms };
}

export interface Vote {
  /** Raw chunk id → share of the summary chunk's score. */
  shares: Map<number, number>;
  /** The share no link claims. */
  residual: number;
}

const HEADING = /^\s{0,3}#{1,6}\s/;
const LETTER = /[\p{L}\p{N}]/u;

/** The line holding position `pos` of the text. */
function lineAt(starts: Int32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Does a word start at `pos` (no letter or digit just before it)? */
function wordStart(text: string, pos: number): boolean {
  if (pos === 0) return true;
  const c = text.charCodeAt(pos - 1);
  if (c < 128) return !((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90));
  return !LETTER.test(text[pos - 1]!);
}

/** The query weight each line holds (each term counted once per line); headings hold none. */
function lineWeights(s: SummaryText, q: LineQuery): Float64Array {
  const n = s.starts.length - 1;
  const w = new Float64Array(n);
  const seen = new Int32Array(n).fill(-1);
  q.terms.forEach(({ text, weight, word }, t) => {
    for (let p = s.text.indexOf(text); p >= 0; p = s.text.indexOf(text, p + 1)) {
      if (word && !wordStart(s.text, p)) continue;
      const l = lineAt(s.starts, p);
      if (seen[l] === t) continue;
      seen[l] = t;
      w[l] = w[l]! + weight;
    }
  });
  for (let l = 0; l < n; l++) if (w[l]! > 0 && HEADING.test(s.text.slice(s.starts[l]!, s.starts[l + 1]!))) w[l] = 0;
  return w;
}

/** Shares of a chunk's score from line weights (indexed by line offset). */
function shareOut(s: Pick<SummaryLinks, 'links' | 'topics'>, weights: ArrayLike<number>, total: number, topicLeads: boolean): Vote {
  const vote: Vote = { shares: new Map(), residual: 0 };
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (w === 0) continue;
    const share = w / total;
    const to = s.links.get(i);
    if (!to) {
      vote.residual += share;
      continue;
    }
    if (s.topics.has(i) && !topicLeads) continue; // folded, and leads nowhere
    for (const id of to) vote.shares.set(id, (vote.shares.get(id) ?? 0) + share / to.length);
  }
  return vote;
}

/** The vote of a chunk whose lines all count alike. */
function alike(s: Pick<SummaryLinks, 'lines' | 'links' | 'topics'>, topicLeads: boolean): Vote {
  if (s.lines.length === 0) return { shares: new Map(), residual: 1 };
  const weights = new Uint8Array(s.lines[s.lines.length - 1]! + 1);
  for (const l of s.lines) weights[l] = 1;
  return shareOut(s, weights, s.lines.length, topicLeads);
}

/**
 * How a summary chunk's score is shared: with its text and a query, each line by the query
 * weight it holds; otherwise (a vector list, or no line holding any query word) its lines alike.
 */
export function voteOf(s: SummaryLinks, text: SummaryText | null, q: LineQuery | null, topicLeads = true): Vote {
  if (text && q?.terms.length) {
    const weights = lineWeights(text, q);
    const total = weights.reduce((a, b) => a + b, 0);
    if (total > 0) return shareOut(s, weights, total, topicLeads);
  }
  return topicLeads ? s.alike : s.alikeNoLeads;
}

/**
 * Links and texts of recently searched summary chunks, per open index: a resident process asks
 * for the same chunks again and again. Links are small and kept for every chunk asked about;
 * texts up to MAX_CACHED_CHARS (about 32 MB), oldest out first. Dropped whenever the index
 * changes.
 */
const MAX_CACHED_CHARS = 16_000_000;

interface Cache {
  token: string;
  links: Map<number, SummaryLinks>;
  texts: Map<number, SummaryText>;
  chars: number;
}

const caches = new WeakMap<SearchIndex, Cache>();

function cacheOf(index: SearchIndex): Cache {
  const token = `${index.generation}:${dataVersion(index.db)}`;
  let c = caches.get(index);
  if (!c || c.token !== token) {
    c = { token, links: new Map(), texts: new Map(), chars: 0 };
    caches.set(index, c);
  }
  return c;
}

/** The links of summary chunks `ids` (chunks without any are left out). */
export function summaryLinks(index: SearchIndex, ids: readonly number[]): Map<number, SummaryLinks> {
  const cache = cacheOf(index);
  const missing = ids.filter((id) => !cache.links.has(id));
  if (missing.length) {
    const rows = stmt(
      index.db,
      'SELECT chunk_id, line_offset, source_id, kind FROM chunk_links WHERE chunk_id IN (SELECT value FROM json_each(?)) ORDER BY chunk_id, line_offset',
    )
      .raw()
      .all(JSON.stringify(missing)) as [number, number, number | null, number][];
    const found = new Map<number, { lines: number[]; links: Map<number, number[]>; topics: Set<number> }>();
    for (const [id, offset, source, kind] of rows) {
      let s = found.get(id);
      if (!s) found.set(id, (s = { lines: [], links: new Map(), topics: new Set() }));
      if (s.lines[s.lines.length - 1] !== offset) s.lines.push(offset);
      if (source === null) continue;
      if (kind === 1) s.topics.add(offset);
      const to = s.links.get(offset);
      if (to) to.push(source);
      else s.links.set(offset, [source]);
    }
    const none = { lines: new Int32Array(0), links: new Map<number, number[]>(), topics: new Set<number>() };
    for (const id of missing) {
      const f = found.get(id);
      const s = f ? { ...f, lines: Int32Array.from(f.lines) } : none;
      cache.links.set(id, { ...s, alike: alike(s, true), alikeNoLeads: alike(s, false) });
    }
  }
  const out = new Map<number, SummaryLinks>();
  for (const id of ids) {
    const s = cache.links.get(id)!;
    if (s.links.size) out.set(id, s);
  }
  return out;
}

/** The texts of summary chunks `ids`, lower-cased, with their line starts. */
export function summaryTexts(index: SearchIndex, ids: readonly number[]): Map<number, SummaryText> {
  const cache = cacheOf(index);
  const missing = ids.filter((id) => !cache.texts.has(id));
  if (missing.length) {
    // Summary chunks only (their ids are negative).
    for (const [id, text] of stmt(index.db, 'SELECT id, text FROM chunks WHERE id < 0 AND id IN (SELECT value FROM json_each(?))')
      .raw()
      .all(JSON.stringify(missing)) as [number, string][]) {
      const lower = text.toLowerCase();
      const lines = lower.split('\n');
      const starts = new Int32Array(lines.length + 1);
      for (let i = 0; i < lines.length; i++) starts[i + 1] = starts[i]! + lines[i]!.length + 1;
      cache.texts.set(id, { text: lower, starts });
      cache.chars += lower.length;
    }
    for (const [id, s] of cache.texts) {
      if (cache.chars <= MAX_CACHED_CHARS) break;
      cache.texts.delete(id);
      cache.chars -= s.text.length;
    }
  }
  const out = new Map<number, SummaryText>();
  for (const id of ids) {
    const s = cache.texts.get(id);
    if (s) out.set(id, s);
  }
  return out;
}
