// Words of a query, and cheap relevance by shared words: enough to prefer the lines, entries
// and turns a question is about without an index (the index does the real search).
import { tokenize } from '../summarize/keywords.js';

export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text, true).filter((w) => w.length >= 3))];
}

export function matchesAny(text: string, terms: readonly string[]): boolean {
  if (!terms.length) return false;
  const t = text.toLowerCase();
  return terms.some((w) => t.includes(w));
}

/** How many distinct terms a text contains. */
export function overlap(text: string, terms: readonly string[]): number {
  const t = text.toLowerCase();
  let n = 0;
  for (const w of terms) if (t.includes(w)) n++;
  return n;
}
