// What the full-text index and a keyword query see of a text, so that forms a writer treats as
// the same letters meet: full-width Latin letters and digits (`Ｒｅｄｉｓ`, common in Japanese
// writing) and decomposed letters (NFD, as macOS file names give Hangul and accents) become
// their usual form (NFKC), Russian ё is е (writers use either) and German ß is ss (`Straße`,
// `Strasse`). Case and other diacritics are folded by FTS5's unicode61 tokenizer itself. Only
// what FTS5 indexes and what a query searches for is folded: chunk text, snippets, line numbers,
// chunk hashes and vectors are the file's own.

const EXTRA = /[ёЁßẞ]/g;
const EXTRA_TO: Record<string, string> = { ё: 'е', Ё: 'Е', ß: 'ss', ẞ: 'SS' };

export function searchFold(text: string): string {
  // ASCII text is its own NFKC and has none of the extra letters: skip the work for it.
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  return text.normalize('NFKC').replace(EXTRA, (c) => EXTRA_TO[c]!);
}
