// Korean, Japanese and Chinese text for the full-text index. SQLite's unicode61 tokenizer keeps a
// run of CJK characters as one token ("회의에서", a whole Japanese sentence), so a query word
// inside it never matches. The index keeps a side column of character unigrams and bigrams of
// every CJK run; a query's CJK runs are searched there as bigrams (or a unigram for a single
// character). Bigrams are the usual compromise for these scripts: no dictionary, and a
// two-character word (회의, 会议, 会議) is exactly one bigram.

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;

/** The CJK runs of a text, in order. */
export function cjkRuns(text: string): string[] {
  return text.match(CJK_RUN) ?? [];
}

/** The side-column text of a document: every unigram and bigram of its CJK runs. */
export function cjkIndexText(text: string): string {
  const out: string[] = [];
  for (const run of cjkRuns(text)) {
    const chars = [...run];
    for (let i = 0; i < chars.length; i++) {
      out.push(chars[i]!);
      if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
    }
  }
  return out.join(' ');
}

/** The terms a query's CJK runs are searched by: bigrams, or the character of a 1-char run. */
export function cjkQueryTerms(text: string): string[] {
  const out: string[] = [];
  for (const run of cjkRuns(text)) {
    const chars = [...run];
    if (chars.length === 1) out.push(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return [...new Set(out)];
}
