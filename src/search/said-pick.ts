// Which of the user's statements in a hit's section are worth an agent's room (said.ts).
import { clip } from '../summarize/classify.js';
import { salience } from '../summarize/facts/salience.js';
import { tokenize, wordOverlap } from '../summarize/keywords.js';
import type { Said } from './said.js';

/**
 * The salience of a plain remark ("I'm feeling pretty good about getting started"): no name,
 * number, deed or aside (salience.ts). Only statements above it are worth an agent's attention.
 */
const PLAIN = 1;
/** A statement sharing this part of its words with one already kept says it again ("I'll get a snake plant"). */
const SAME_WORDS = 0.6;
/** A statement longer than this is cut (at a word) in what the agent gets. */
const SAID_MAX = 220;

/** What a word the statement shares with the prompt adds to its salience. */
const PROMPT_WORD = 0.5;

/**
 * The statements worth the room: the most telling first (names, numbers, what the user did or
 * has: salience.ts), a little more for each word they share with the prompt, none that repeats
 * a better one, while their `cost` (the characters each takes where it is shown) fits in
 * `room`; in the order they were said.
 */
export function pickSaid(said: readonly Said[], prompt: string, room: number, cost: (s: Said) => number): Said[] {
  const promptWords = new Set(tokenize(prompt, true));
  const ranked = said
    .map((s) => ({ s: { ...s, text: clip(s.text, SAID_MAX) }, words: new Set(tokenize(s.text, true)), salience: salience(s.text) }))
    .filter((x) => x.salience > PLAIN)
    .map((x) => ({ ...x, score: x.salience + PROMPT_WORD * [...x.words].filter((w) => promptWords.has(w)).length }))
    .sort((a, b) => b.score - a.score || a.s.line - b.s.line);
  const kept: typeof ranked = [];
  let used = 0;
  for (const x of ranked) {
    if (used + cost(x.s) > room || kept.some((k) => wordOverlap(x.words, k.words) >= SAME_WORDS)) continue;
    kept.push(x);
    used += cost(x.s);
  }
  return kept.map((x) => x.s).sort((a, b) => a.line - b.line);
}
