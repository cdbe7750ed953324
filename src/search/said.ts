// What the user said about themselves in the conversation a search hit fell in. A request rarely
// names the fact it depends on: "throw pillows for my rest area" shares no word with "I
// repainted my bedroom walls a lighter shade of gray". A keyword search often finds the right
// conversation by its other words, and then its snippet shows the lines that share them, most
// often the assistant's advice. What the user said of themselves in that conversation is what an
// agent should be reminded of. Read from the index (redacted text), never from the files.
import { stmt, type IndexDb } from '../index/db.js';
import { userFactsByLine } from '../index/facts.js';
import { clip } from '../summarize/classify.js';
import { salience } from '../summarize/facts/salience.js';
import { tokenize } from '../summarize/keywords.js';
import type { SearchHit } from './hits.js';

export interface Said {
  /** The file line it was said on. */
  line: number;
  text: string;
}

/** Chunks of a section read around the hit: a day-long capture is one section of hundreds. */
const NEAR_CHUNKS = 8;
/**
 * The salience of a plain remark ("I'm feeling pretty good about getting started"): no name,
 * number, deed or aside (salience.ts). Only statements above it are worth an agent's attention.
 */
const PLAIN = 1;
/** A statement sharing this part of its words with one already kept says it again ("I'll get a snake plant"). */
const SAME_WORDS = 0.6;
/** A statement longer than this is cut (at a word) in what the agent gets. */
const SAID_MAX = 220;

/**
 * The user's statements about themselves in the section of `path` holding `line` (its chunks
 * nearest the line), each once, in file order.
 */
function saidInSection(db: IndexDb, path: string, line: number): Said[] {
  const rows = stmt(
    db,
    `SELECT c.line_start AS start, c.text AS text FROM chunks c JOIN files f ON f.id = c.file_id
     WHERE f.path = ? AND c.section_line = (
       SELECT c2.section_line FROM chunks c2 WHERE c2.file_id = f.id AND c2.line_start <= ? AND c2.line_end >= ? LIMIT 1)
     ORDER BY abs(c.line_start - ?) LIMIT ${NEAR_CHUNKS}`,
  ).all(path, line, line, line) as { start: number; text: string }[];
  const byLine = new Map<number, string[]>();
  for (const r of rows) for (const [l, facts] of userFactsByLine(r.text.split('\n'), r.start)) byLine.set(l, facts);
  const seen = new Set<string>();
  const out: Said[] = [];
  for (const l of [...byLine.keys()].sort((a, b) => a - b)) {
    for (const text of byLine.get(l)!) {
      const key = text.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ line: l, text });
    }
  }
  return out;
}

/** What a word the statement shares with the prompt adds to its salience. */
const PROMPT_WORD = 0.5;

/** What the user said in a hit's section, but not in the lines its snippet shows. */
export function saidBeside(db: IndexDb, hit: SearchHit): Said[] {
  return saidOutside(db, hit.path, hit.snippet.line, hit.snippet.line + hit.snippet.text.split('\n').length - 1);
}

/** What the user said in the section of `path` holding line `from`, outside the lines `from`..`to` shown already. */
export function saidOutside(db: IndexDb, path: string, from: number, to: number): Said[] {
  return saidInSection(db, path, from).filter((s) => s.line < from || s.line > to);
}

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
    if (used + cost(x.s) > room || kept.some((k) => overlap(x.words, k.words) >= SAME_WORDS)) continue;
    kept.push(x);
    used += cost(x.s);
  }
  return kept.map((x) => x.s).sort((a, b) => a.line - b.line);
}

/** The part of the shorter set's words the other holds. */
function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return common / Math.max(1, Math.min(a.size, b.size));
}
