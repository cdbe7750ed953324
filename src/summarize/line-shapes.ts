// Per-line work of the extractive summarizer that a resident process keeps between cycles: a
// node is re-summarized whenever one of its sources changes, and nearly all its lines are the
// ones it scored last time. Only what depends on the line alone is kept (its words, its dedupe
// key); scores depend on the node's term statistics and are computed every time.
import { entitiesIn, type LineEntities } from './classify.js';
import { contentWords } from './keywords.js';

export interface SentenceShape {
  /** Distinct content words, in first-seen order. */
  distinct: string[];
  /** Content words, with repeats. */
  words: number;
  /** Has a digit; has a capitalised word after a space (a name). */
  digit: boolean;
  name: boolean;
}

const shapes = new Map<string, SentenceShape>();
const keys = new Map<string, string>();
const entities = new Map<string, LineEntities>();
/** Off by default: a one-shot command sees each line once. */
let maxChars = 0;
let chars = 0;

/** Lets a resident process keep the shapes and keys of up to `limit` characters of lines (0: off). */
export function keepLineShapes(limit: number): void {
  maxChars = limit;
  if (limit === 0) {
    shapes.clear();
    keys.clear();
    entities.clear();
    chars = 0;
  }
}

/** Drops what is kept (the limit stays): after bulk work, before a quiet spell. */
export function releaseLineShapes(): void {
  shapes.clear();
  keys.clear();
  entities.clear();
  chars = 0;
}

function remember<V>(memo: Map<string, V>, text: string, value: V): V {
  if (maxChars === 0) return value;
  if (chars > maxChars) {
    shapes.clear();
    keys.clear();
    entities.clear();
    chars = 0;
  }
  memo.set(text, value);
  chars += text.length;
  return value;
}

export function shapeOf(s: string): SentenceShape {
  const hit = shapes.get(s);
  if (hit) return hit;
  const words = contentWords(s);
  return remember(shapes, s, { distinct: [...new Set(words)], words: words.length, digit: /\d/.test(s), name: /\s[A-Z][a-z]+/.test(s) });
}

export function lineKey(text: string, make: (t: string) => string): string {
  return keys.get(text) ?? remember(keys, text, make(text));
}

/** The files, URLs, errors and names a line mentions. */
export function lineEntities(text: string): LineEntities {
  return entities.get(text) ?? remember(entities, text, entitiesIn(text));
}
