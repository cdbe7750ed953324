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

/** A crude stem, enough to match "deploys", "deployed", "deploying" with "deploy". */
export function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('es') && !w.endsWith('ses')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Stemmed content words of a question. */
export function recallTerms(text: string): string[] {
  return [...new Set(queryTerms(text).map(stem))];
}
