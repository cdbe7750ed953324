// Which rules' keywords occur in a text, in one pass: a trie of the (ASCII, lower-case) keywords,
// walked only from positions whose first three characters may begin a keyword (a 64 K-entry
// table of hashed three-character starts). Testing each of the ~300 keywords with `includes`
// reads a large text 300 times; this reads it once. Two-character keywords (`sk`, `ey`) occur
// in almost any text and are tested on their own.

interface TrieNode {
  next: Map<number, TrieNode>;
  /** The keyword ending here, if one does. */
  word: number;
}

const lower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);
const start3 = (a: number, b: number, c: number): number => (lower(a) * 961 + lower(b) * 31 + lower(c)) & 0xffff;

export class KeywordScanner {
  private readonly root: TrieNode = { next: new Map(), word: -1 };
  private readonly starts = new Uint8Array(65536);
  private readonly short: { word: number; re: RegExp }[] = [];

  constructor(readonly words: readonly string[]) {
    words.forEach((w, i) => {
      if (w.length < 2 || /[^\x00-\x7f]/.test(w)) throw new Error(`keyword "${w}": two or more ASCII characters expected`);
      if (w.length === 2) {
        this.short.push({ word: i, re: new RegExp(w.replace(/[^a-z0-9]/g, '\\$&'), 'i') });
        return;
      }
      this.starts[start3(w.charCodeAt(0), w.charCodeAt(1), w.charCodeAt(2))] = 1;
      let node = this.root;
      for (let k = 0; k < w.length; k++) {
        const c = w.charCodeAt(k);
        let n = node.next.get(c);
        if (!n) node.next.set(c, (n = { next: new Map(), word: -1 }));
        node = n;
      }
      node.word = i;
    });
  }

  /** Indexes (into `words`) of the keywords found in `text`, case-insensitively for ASCII. */
  scan(text: string): Set<number> {
    const found = new Set<number>();
    for (const s of this.short) if (s.re.test(text)) found.add(s.word);
    const total = this.words.length;
    const starts = this.starts;
    const root = this.root.next;
    const n = text.length - 2;
    for (let i = 0; i < n && found.size < total; i++) {
      const a = text.charCodeAt(i);
      if (!starts[start3(a, text.charCodeAt(i + 1), text.charCodeAt(i + 2))]) continue;
      let node = root.get(lower(a));
      for (let j = i + 1; node; j++) {
        if (node.word >= 0) found.add(node.word);
        if (j >= text.length) break;
        node = node.next.get(lower(text.charCodeAt(j)));
      }
    }
    return found;
  }
}
