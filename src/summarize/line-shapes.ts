// Per-line work of the extractive summarizer: a line's words (its shape), its dedupe key and the
// entities it names depend on the line alone, so a resident process keeps them between cycles in
// its SummaryMemo (memo.ts); without one they are computed each time.
import { entitiesIn, type LineEntities } from './classify.js';
import { contentWords } from './keywords.js';
import type { SentenceShape, SummaryMemo } from './memo.js';

function computeShape(s: string): SentenceShape {
  const words = contentWords(s);
  return { distinct: [...new Set(words)], words: words.length, digit: /\d/.test(s), name: /\s[A-Z][a-z]+/.test(s) };
}

export function shapeOf(s: string, memo: SummaryMemo | null): SentenceShape {
  return memo ? memo.shape(s, computeShape) : computeShape(s);
}

export function lineKey(text: string, make: (t: string) => string, memo: SummaryMemo | null): string {
  return memo ? memo.key(text, make) : make(text);
}

/** The files, URLs, errors and names a line mentions. */
export function lineEntities(text: string, memo: SummaryMemo | null): LineEntities {
  return memo ? memo.lineEntities(text, entitiesIn) : entitiesIn(text);
}
