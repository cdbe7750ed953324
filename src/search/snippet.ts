// The lines of a hit worth showing: the line with the most query terms (stems matched loosely,
// CJK by substring), with a line of context before and up to two after, at most MAX_CHARS.
import type { ParsedQuery } from './query.js';
import { searchFold } from '../text/search-fold.js';
import { sliceWhole } from '../text/slice.js';

const MAX_SNIPPET_CHARS = 300;

export interface Snippet {
  /** File line of the first line shown. */
  line: number;
  text: string;
  /** Query terms found in it. */
  matched: number;
}

/** A crude stem: enough to find "scratching" for "scratches" in a line. */
export function stemPrefix(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4) return w;
  const stripped = w.replace(/(?:ingly|edly|ing|ied|ies|ed|es|ly|s)$/, '');
  return stripped.length >= 4 ? stripped : w.slice(0, 4);
}

/** What may follow a short word in a line that says it: an ending ("adds", "added", "testing"), then no letter. */
const SHORT_WORD_END = '(?:s|es|d|ed|ing|ings|[b-df-hj-np-tv-z]ed|[b-df-hj-np-tv-z]ing)?(?![\\p{L}\\p{N}])';

export interface Matcher {
  test(lowerLine: string): boolean;
  /** Position of the first match in the line (folded: about where it is in the line), or -1. */
  find(lowerLine: string): number;
}

/** One matcher per query term; build once per query, use for every snippet. */
export function queryMatchers(q: ParsedQuery): Matcher[] {
  return q.terms.map(matcherFor);
}

/** A line as matchers see it: folded as the index folds it (see searchFold), lower-case. */
function matchable(line: string): string {
  return searchFold(line).toLowerCase();
}

function matcherFor(term: ParsedQuery['terms'][number]): Matcher {
  if (term.kind === 'cjk' || term.kind === 'phrase') {
    const needle = matchable(term.kind === 'cjk' ? term.words[0]! : term.words.join(' '));
    return { test: (l) => l.includes(needle), find: (l) => l.indexOf(needle) };
  }
  const word = matchable(term.words[0]!);
  const stem = stemPrefix(word);
  const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A short word is its own stem, and as a bare prefix it would find other words: "use" in
  // every transcript's "User:", "add" in "address". It takes an ending, then the word stops.
  const end = word.length <= 4 ? SHORT_WORD_END : '';
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}${end}`, 'u');
  return { test: (l) => re.test(l), find: (l) => l.search(re) };
}

export function makeSnippet(text: string, firstLine: number, matchers: readonly Matcher[]): Snippet {
  const lines = text.split('\n');
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < lines.length; i++) {
    const lower = matchable(lines[i]!);
    let score = 0;
    for (const m of matchers) if (m.test(lower)) score++;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  if (best < 0) {
    // No term on any line (a vector hit): the chunk's first lines with text.
    best = Math.max(
      0,
      lines.findIndex((l) => l.trim() !== ''),
    );
  }
  let from = Math.max(0, best - 1);
  let to = Math.min(lines.length - 1, best + 2);
  while (from < best && lines[from]!.trim() === '') from++;
  while (to > best && lines[to]!.trim() === '') to--;
  let shown = lines.slice(from, to + 1).join('\n');
  if (shown.length > MAX_SNIPPET_CHARS) {
    // Keep the best line's match in view: cut around its first hit.
    const offset = lines.slice(from, best).reduce((a, l) => a + l.length + 1, 0);
    const hit = Math.max(
      0,
      ...matchers
        .map((m) => m.find(matchable(lines[best]!)))
        .filter((p) => p >= 0)
        .slice(0, 1),
    );
    const centre = offset + hit;
    const start = Math.max(0, Math.min(centre - 80, shown.length - MAX_SNIPPET_CHARS));
    const skipped = shown.slice(0, start).split('\n').length - 1;
    const cut = sliceWhole(shown, start, start + MAX_SNIPPET_CHARS).trim();
    shown = `${start > 0 ? '…' : ''}${cut}${start + MAX_SNIPPET_CHARS < shown.length ? '…' : ''}`;
    from += skipped;
  }
  return { line: firstLine + from, text: shown, matched: bestScore };
}
