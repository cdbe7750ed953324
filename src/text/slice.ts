// Cutting text to a length without cutting a character in two. An emoji and other characters
// outside the Basic Multilingual Plane take two UTF-16 units in a JavaScript string; a cut
// between them leaves half a character, which is written to a file as U+FFFD ("�") and to
// JSON as a lone `\ud83d`. A chat is full of them.

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * `text.slice(start, end)` with a boundary that falls inside a character moved to leave that
 * character out: the start forward, the end back.
 */
export function sliceWhole(text: string, start: number, end: number = text.length): string {
  let s = Math.max(0, start);
  let e = Math.min(text.length, end);
  if (s > 0 && s < text.length && isLow(text.charCodeAt(s)) && isHigh(text.charCodeAt(s - 1))) s++;
  if (e > 0 && e < text.length && isHigh(text.charCodeAt(e - 1)) && isLow(text.charCodeAt(e))) e--;
  return e > s ? text.slice(s, e) : '';
}
