// Fitting a markdown body into an allowance: keep every section's heading and its first lines
// (most important sections first), then fill with the rest in the same order. Lines that match
// the query go first within their section. The output keeps the document's order.
import { clip } from '../summarize/classify.js';
import { queryTerms, matchesAny } from './terms.js';

export type Measure = (text: string) => number;

interface Section {
  heading: string | null;
  lines: string[];
  rank: number;
  index: number;
}

export interface Fitted {
  text: string;
  cost: number;
  /** Lines left out. */
  dropped: number;
}

/** Splits a body into `##`-and-deeper sections; text before the first heading is its own. */
function sections(body: string, rankOf: (heading: string) => number): Section[] {
  const out: Section[] = [];
  let cur: Section = { heading: null, lines: [], rank: 0, index: 0 };
  let fence = false;
  for (const line of body.split('\n')) {
    // Code is left out of a trimmed body: half a code block is worse than none.
    if (/^ {0,3}(```|~~~)/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    if (/^#{1,6}\s/.test(line)) {
      if (cur.heading !== null || cur.lines.some((l) => l.trim())) out.push(cur);
      cur = { heading: line, lines: [], rank: rankOf(line.replace(/^#+\s*/, '')), index: out.length + 1 };
      continue;
    }
    cur.lines.push(line);
  }
  if (cur.heading !== null || cur.lines.some((l) => l.trim())) out.push(cur);
  for (const s of out) while (s.lines.length && !s.lines[s.lines.length - 1]!.trim()) s.lines.pop();
  return out;
}

export function fitBody(
  body: string,
  allowance: number,
  measure: Measure,
  opts: {
    rankOf?: (heading: string) => number;
    query?: string;
    firstLines?: number;
    /** Nothing at all unless the first line of the most important section fits (a node's topics, not its file list). */
    leadOrNothing?: boolean;
    /** Lines that go first in their section, query or not (a line dating the section). */
    pinned?: (line: string) => boolean;
  } = {},
): Fitted {
  const secs = sections(body, opts.rankOf ?? (() => 0));
  const full = body.trim();
  const fullCost = measure(full);
  if (fullCost <= allowance) return { text: full, cost: fullCost, dropped: 0 };
  const terms = opts.query ? queryTerms(opts.query) : [];
  const order = [...secs].sort((a, b) => a.rank - b.rank || a.index - b.index);
  const keep = new Map<Section, Set<number>>(secs.map((s) => [s, new Set<number>()]));
  const lineCost = new Map<string, number>();
  const costOf = (l: string): number => {
    let c = lineCost.get(l);
    if (c === undefined) {
      c = measure(l) + 1;
      lineCost.set(l, c);
    }
    return c;
  };
  let spent = 0;
  const headingShown = new Set<Section>();
  const take = (s: Section, i: number): boolean => {
    const line = s.lines[i]!;
    if (!line.trim()) return true;
    const extra = costOf(line) + (headingShown.has(s) || s.heading === null ? 0 : costOf(s.heading) + 1);
    if (spent + extra > allowance) return false;
    spent += extra;
    headingShown.add(s);
    keep.get(s)!.add(i);
    return true;
  };
  const orderOf = (s: Section): number[] => {
    const idx = s.lines.map((_, i) => i);
    const pinned = opts.pinned;
    const top = pinned ? idx.filter((i) => pinned(s.lines[i]!)) : [];
    const rest = pinned ? idx.filter((i) => !pinned(s.lines[i]!)) : idx;
    if (!terms.length) return [...top, ...rest];
    return [...top, ...rest.filter((i) => matchesAny(s.lines[i]!, terms)), ...rest.filter((i) => !matchesAny(s.lines[i]!, terms))];
  };
  const first = opts.firstLines ?? 2;
  const lead = order.find((s) => s.lines.some((l) => l.trim()));
  if (opts.leadOrNothing && lead && !take(lead, orderOf(lead).find((i) => lead.lines[i]!.trim())!)) {
    const all = secs.reduce((n, s) => n + s.lines.filter((l) => l.trim()).length, 0);
    return { text: '', cost: 0, dropped: all };
  }
  for (const s of order) {
    let n = 0;
    for (const i of orderOf(s)) {
      if (n >= first) break;
      if (!s.lines[i]!.trim()) continue;
      if (keep.get(s)!.has(i) || take(s, i)) n++; // the lead's first line is taken already
    }
  }
  for (const s of order) for (const i of orderOf(s)) if (!keep.get(s)!.has(i)) take(s, i);
  const out: string[] = [];
  let dropped = 0;
  for (const s of secs) {
    const kept = keep.get(s)!;
    const nonBlank = s.lines.filter((l) => l.trim()).length; // code lines are not counted
    dropped += nonBlank - kept.size;
    if (!headingShown.has(s)) continue;
    if (out.length) out.push('');
    if (s.heading !== null) out.push(s.heading);
    const lines = s.lines.filter((l, i) => kept.has(i) && l.trim());
    out.push(...lines);
    if (kept.size < nonBlank) out.push(`- … ${nonBlank - kept.size} more line${nonBlank - kept.size === 1 ? '' : 's'} in the file`);
  }
  const text = out.join('\n');
  return { text, cost: measure(text), dropped };
}

/** Room for at least this many characters of a line, or it is not cut but left out. */
const MIN_CUT_CHARS = 40;

/**
 * The body read from the top: whole lines while they fit, the first that does not cut at a word
 * when a useful part of it fits, then a count of the lines left. For a log entry, whose lines
 * follow one another (a conversation's turns), where fitBody's "every line that fits" would
 * skip a user's long question and keep the short lines of the answer after it. Code is left out,
 * as fitBody leaves it out of a trimmed body.
 */
export function fitPrefix(body: string, allowance: number, measure: Measure): Fitted {
  const full = body.trim();
  const fullCost = measure(full);
  if (fullCost <= allowance) return { text: full, cost: fullCost, dropped: 0 };
  const lines: string[] = [];
  let fence = false;
  for (const l of full.split('\n')) {
    if (/^ {0,3}(```|~~~)/.test(l)) fence = !fence;
    else if (!fence) lines.push(l);
  }
  const more = (n: number): string => `- … ${n} more line${n === 1 ? '' : 's'} in the file`;
  const nonBlank = lines.filter((l) => l.trim()).length;
  const kept: string[] = [];
  let shown = 0;
  const fits = (extra: string[], left: number): boolean =>
    measure([...kept, ...extra, ...(left ? [more(left)] : [])].join('\n')) <= allowance;
  for (const l of lines) {
    const counts = l.trim() ? 1 : 0;
    if (fits([l], nonBlank - shown - counts)) {
      kept.push(l);
      shown += counts;
      continue;
    }
    // The line that does not fit: as much of it as fits, cut at a word.
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits([clip(l, mid)], nonBlank - shown - 1)) lo = mid;
      else hi = mid - 1;
    }
    if (lo >= MIN_CUT_CHARS && counts) {
      kept.push(clip(l, lo));
      shown++;
    }
    break;
  }
  while (kept.length && !kept[kept.length - 1]!.trim()) kept.pop();
  if (nonBlank > shown) kept.push(more(nonBlank - shown));
  const text = kept.join('\n');
  return { text, cost: measure(text), dropped: nonBlank - shown };
}
