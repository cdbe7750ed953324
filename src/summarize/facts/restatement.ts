// Facts that say one thing in other words: "I just got back from a solo camping trip to Yosemite
// National Park today" and "I just started my solo camping trip to Yosemite National Park today
// and I'm really excited", said an hour apart, are one fact to a reader. A node keeps the better
// of them (the more salient, then the longer). A fact restates a kept one when at least half of
// their content words are shared (over both: "my new phone case" and "my new phone charger"
// share three of seven and stay two facts), at least three of them, and it names nothing the
// kept one does not: "I stayed at the Hilton Hotel in Downtown LA" is kept beside "I stayed at a
// hotel in Downtown LA", whatever their salience, for the name only it holds.
import { isStopWord } from '../keywords.js';

const WORD = /[\p{L}\p{N}]{3,}/gu;
const MIN_SHARED = 3;
const MIN_SHARE = 0.5;

function contentWords(text: string): string[] {
  return [...new Set((text.toLowerCase().match(WORD) ?? []).filter((w) => !isStopWord(w)))];
}

const NOT_DETAILS = new Set(['i', "i'm", "i've", "i'd", "i'll", 'i’m', 'i’ve', 'i’d', 'i’ll']);

/** Its names and numbers: the capitalised words after the first, and the tokens with a digit. */
function details(text: string): string[] {
  const out: string[] = [];
  text.split(/\s+/).forEach((token, i) => {
    if (!((i > 0 && /^[A-Z]/.test(token)) || /\d/.test(token))) return;
    const d = token.toLowerCase().replace(/^[^\p{L}\p{N}$€£]+|[^\p{L}\p{N}%]+$/gu, '');
    if (d && !NOT_DETAILS.has(d)) out.push(d);
  });
  return out;
}

/** `items` without the ones a better item restates, in their order. */
export function withoutRestatements<T>(items: readonly T[], textOf: (x: T) => string, scoreOf: (x: T) => number): T[] {
  const texts = items.map(textOf);
  const scores = items.map(scoreOf);
  const words = texts.map(contentWords);
  const best = texts.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || texts[b]!.length - texts[a]!.length || a - b);
  // Kept items by word: only those sharing a word with a candidate are compared with it.
  const byWord = new Map<string, number[]>();
  const kept = new Set<number>();
  for (const i of best) {
    const mine = words[i]!;
    const shared = new Map<number, number>();
    for (const w of mine) for (const k of byWord.get(w) ?? []) shared.set(k, (shared.get(k) ?? 0) + 1);
    // Its names and numbers, read only when a kept item shares enough words with it.
    let named: string[] | null = null;
    let restated = false;
    for (const [k, n] of shared) {
      if (n < MIN_SHARED || n < MIN_SHARE * (mine.length + words[k]!.length - n)) continue;
      named ??= details(texts[i]!);
      const other = texts[k]!.toLowerCase();
      if (named.every((d) => other.includes(d))) {
        restated = true;
        break;
      }
    }
    if (restated) continue;
    kept.add(i);
    for (const w of mine) {
      const list = byWord.get(w);
      if (list) list.push(i);
      else byWord.set(w, [i]);
    }
  }
  return items.filter((_, i) => kept.has(i));
}
