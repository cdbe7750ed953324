// Where the rules' keywords occur in a text, found in one pass of one regular expression: the
// keywords as a trie of alternatives (`gh(?:p_|o_|…)|sk(?:-|_live_)|…`), which the regex engine
// scans at native speed. Testing each of ~200 keywords with `includes` would read a large text
// 200 times, and most of it is prose without a single keyword.

// A keyword in another script (`пароль`, `パスワード`) is matched case-insensitively as the regex's `i`
// flag does: by the character's own lower case.
const lower = (c: number): number => (c < 128 ? (c >= 65 && c <= 90 ? c + 32 : c) : String.fromCharCode(c).toLowerCase().charCodeAt(0));
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

type Trie = Map<string, Trie>;

/** The alternatives of `words` as a trie; a branch stops at the shortest keyword on it. */
function trieSource(words: readonly string[]): string {
  const root: Trie = new Map();
  for (const w of words) {
    let node = root;
    for (const ch of `${w}\0`) {
      if (!node.has(ch)) node.set(ch, new Map());
      node = node.get(ch)!;
    }
  }
  const emit = (node: Trie): string => {
    // A keyword ends here: the hit is found, longer keywords are checked at the hit.
    if (node.has('\0')) return '';
    const alts = [...node].map(([ch, next]) => escape(ch) + emit(next));
    return alts.length === 1 ? alts[0]! : `(?:${alts.join('|')})`;
  };
  return emit(root);
}

export class KeywordScanner {
  private readonly re: RegExp | null;
  /** Keyword indexes by their first character's code. */
  private readonly byFirst = new Map<number, number[]>();

  constructor(readonly words: readonly string[]) {
    words.forEach((w, i) => {
      // A character the `i` flag folds differently from toLowerCase (ß, ﬁ, İ) would be missed.
      if (w.length < 2 || w !== w.toLowerCase() || [...w].some((ch) => ch.toUpperCase().toLowerCase() !== ch))
        throw new Error(`keyword "${w}": two or more lower-case characters expected`);
      const c = w.charCodeAt(0);
      this.byFirst.set(c, [...(this.byFirst.get(c) ?? []), i]);
    });
    this.re = words.length ? new RegExp(trieSource(words), 'gi') : null;
  }

  /**
   * Calls `hit(word, at)` for each occurrence of each keyword, case-insensitively, in
   * text order; keywords that overlap (`pass`, `password`, `sk-`, `sk-ant-`) are all reported.
   */
  scan(text: string, hit: (word: number, at: number) => void): void {
    const re = this.re;
    if (!re) return;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const at = m.index;
      re.lastIndex = at + 1;
      for (const w of this.byFirst.get(lower(text.charCodeAt(at))) ?? []) {
        const word = this.words[w]!;
        let k = 1;
        while (k < word.length && lower(text.charCodeAt(at + k)) === word.charCodeAt(k)) k++;
        if (k === word.length) hit(w, at);
      }
    }
  }
}

/** Characters of the tokens keys are made of: base64, base64url, and the dots and dashes between parts. */
const TOKEN = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_.-') TOKEN[ch.charCodeAt(0)] = 1;
const isToken = (c: number): boolean => c < 128 && TOKEN[c] === 1;

/**
 * The runs of token characters at least `min` long, as [start, end) pairs. Any such run holds a
 * multiple of `min`, so only every `min`th character is looked at until one is a token
 * character: prose is mostly passed over, not read.
 */
export function tokenRuns(text: string, min: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = min - 1; i < text.length; i += min) {
    if (!isToken(text.charCodeAt(i))) continue;
    let a = i;
    while (a > 0 && isToken(text.charCodeAt(a - 1))) a--;
    let b = i + 1;
    while (b < text.length && isToken(text.charCodeAt(b))) b++;
    if (b - a >= min) runs.push([a, b]);
    // The next sample after this run's end.
    i = b + min - 1 - min;
  }
  return runs;
}
