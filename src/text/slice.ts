// Cutting text to a length without cutting a character in two. An emoji and other characters
// outside the Basic Multilingual Plane take two UTF-16 units in a JavaScript string; a cut
// between them leaves half a character, which is written to a file as U+FFFD ("�") and to
// JSON as a lone `\ud83d`. A chat is full of them. What a reader sees as one character can be
// several code points too: a family or a profession emoji (joined by U+200D), a flag (two
// regional indicators), a letter and its combining accent (`é` as e + U+0301), a Hangul
// syllable as macOS writes file names (its jamo). Cut between them, the text says something
// else (👨‍👩‍👧 for 👨‍👩‍👧‍👦, 🇯 for 🇯🇵, 느 for 늘), so a cut falls between graphemes (Intl.Segmenter).

/** Code points below this never join the one before or after (CR LF aside): most text is cut without the segmenter. */
const JOINS_FROM = 0x300;
/** How far back a grapheme is looked for; one longer than this (a tower of accents) may be cut. */
const WINDOW = 64;

let graphemes: Intl.Segmenter | null = null;

/** Whether a cut at `i` falls between two graphemes. */
function isBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const a = text.charCodeAt(i - 1);
  const b = text.charCodeAt(i);
  if (a < JOINS_FROM && b < JOINS_FROM) return !(a === 13 && b === 10);
  return graphemeAt(text, i)[0] === i;
}

/** The grapheme holding the unit at `i`, as [start, end). */
function graphemeAt(text: string, i: number): [number, number] {
  const from = Math.max(0, i - WINDOW);
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const seg = graphemes.segment(text.slice(from, Math.min(text.length, i + WINDOW))).containing(i - from);
  return seg ? [from + seg.index, from + seg.index + seg.segment.length] : [i, i];
}

/**
 * `text.slice(start, end)` with a boundary that falls inside a character (a grapheme) moved to
 * leave that character out: the start forward, the end back.
 */
export function sliceWhole(text: string, start: number, end: number = text.length): string {
  let s = Math.max(0, start);
  let e = Math.min(text.length, end);
  if (!isBoundary(text, s)) s = Math.max(s, graphemeAt(text, s)[1]);
  if (!isBoundary(text, e)) e = Math.min(e, graphemeAt(text, e)[0]);
  return e > s ? text.slice(s, e) : '';
}
