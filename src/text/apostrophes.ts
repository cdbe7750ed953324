// Typographic apostrophes. Phones, word processors, macOS and many models write "I’m", "don’t",
// "Sarah’s" with U+2019 (or U+02BC) where a keyboard writes "I'm". Every rule that reads what
// someone said ("I'm planning…", "I've been…", "my sister's…") is written with the plain one; a
// log typed with smart punctuation would otherwise lose most of its facts and name topics
// "i’ve heard". Text is read with them made plain. One character for one, so offsets and line
// numbers hold.

/** An apostrophe inside a word: between two letters or digits ("I’m", "rock’n’roll", "’90s" not). */
const IN_WORD = /(?<=[\p{L}\p{N}])[\u2019\u02BC](?=\p{L})/gu;

/** `text` with the apostrophes inside its words made plain (`'`); closing quotes stay. */
export function plainApostrophes(text: string): string {
  return text.includes('\u2019') || text.includes('\u02BC') ? text.replace(IN_WORD, "'") : text;
}
