// Apostrophes as people type them. Every rule that reads what someone said ("I'm planning…",
// "I've been…", "my sister's…") is written with the keyboard's plain apostrophe. Text is read
// with the other ways of typing one made plain first:
// - typographic: phones, word processors, macOS and many models write "I’m", "don’t", "Sarah’s"
//   with U+2019 (or U+02BC); a log typed with smart punctuation lost most of its facts and named
//   topics "i’ve heard". One character for one, so offsets hold.
// - left out: people chatting quickly write "im", "ive", "dont". Only contractions that are no
//   other word are restored ("ill", "id", "wont", "were", "its" are words of their own).

const TYPOGRAPHIC = /[\u2019\u02BC]/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * `text` with the apostrophes inside its words made plain (`'`): between a letter or digit and a
 * letter ("I’m", "rock’n’roll"; not "’90s", nor a closing quote).
 */
export function plainApostrophes(text: string): string {
  if (!text.includes('\u2019') && !text.includes('\u02BC')) return text;
  // Found first, then its neighbours looked at: a lookbehind tried at every character of a
  // 16 MB history costs a fifth of a second.
  return text.replace(TYPOGRAPHIC, (m, at: number) => (WORD_CHAR.test(text[at - 1] ?? '') && /\p{L}/u.test(text[at + 1] ?? '') ? "'" : m));
}

const SPELLED: Record<string, string> = {
  im: "i'm",
  ive: "i've",
  dont: "don't",
  didnt: "didn't",
  doesnt: "doesn't",
  cant: "can't",
  couldnt: "couldn't",
  wouldnt: "wouldn't",
  shouldnt: "shouldn't",
  isnt: "isn't",
  wasnt: "wasn't",
  arent: "aren't",
  werent: "weren't",
  havent: "haven't",
  hasnt: "hasn't",
  thats: "that's",
  whats: "what's",
  youre: "you're",
  theyre: "they're",
};
/**
 * A word on its own, not part of a flag, a file name or code (`--dont-ask`, `dont.txt`); lower
 * case, or capitalised where a sentence starts ("Im", "Dont"): "IM" is an instant message, and
 * "Jony Ive" a name.
 */
const SPELLED_WORD = new RegExp(`(?<![\\w'’\\-/.\x60])(?:${Object.keys(SPELLED).join('|')})(?![\\w'’\\-/\x60]|\\.\\w)`, 'gi');
const SENTENCE_END = /(?:^|[.!?:;]["')\]]?)\s*$/;

/** `text` with the contractions typed without their apostrophe given it back ("im" → "i'm"). */
export function spelledContractions(text: string): string {
  return text.replace(SPELLED_WORD, (w, at: number) => {
    const lower = w.toLowerCase();
    if (w !== lower && (w.slice(1) !== lower.slice(1) || !SENTENCE_END.test(text.slice(Math.max(0, at - 4), at)))) return w;
    const plain = SPELLED[lower]!;
    return w === lower ? plain : plain[0]!.toUpperCase() + plain.slice(1);
  });
}

/** Text as the reading rules expect its apostrophes. */
export function plainSpeech(text: string): string {
  return spelledContractions(plainApostrophes(text));
}
