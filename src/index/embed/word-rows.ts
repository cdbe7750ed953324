// Word → row for the offline embedder's 100,000 words, without a JavaScript string and map entry
// per word: the words stay one string (as the vectors file holds them, joined by newlines), found
// through an open-addressing hash table of row numbers. A Map of the same words took ~20 MB of
// allocations to build and ~10 MB to keep, in every process that embeds (the daemon reloads it
// after each quiet spell); this takes ~2 MB. Lookups compare in place: no string is made.

/** What the embedder asks of its vocabulary. */
export interface WordRows {
  /** The word's row (its frequency rank), or undefined when it is not in the vocabulary. */
  get(word: string): number | undefined;
  has(word: string): boolean;
  readonly size: number;
  /** The words in row order. */
  keys(): IterableIterator<string>;
}

/** FNV-1a over UTF-16 code units of `s[from, to)`. */
function hashOf(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class PackedWordRows implements WordRows {
  readonly size: number;
  /** Where each row's word starts in `joined`; one more entry marks the end. */
  private readonly starts: Int32Array;
  /** Slot → row + 1 (0: empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** `joined`: the words in row order, separated by single newlines. */
  constructor(private readonly joined: string) {
    const starts: number[] = [0];
    for (let at = joined.indexOf('\n'); at >= 0; at = joined.indexOf('\n', at + 1)) starts.push(at + 1);
    starts.push(joined.length + 1);
    this.size = joined.length === 0 ? 0 : starts.length - 1;
    this.starts = Int32Array.from(starts);
    let cap = 1;
    while (cap < this.size * 2) cap <<= 1;
    this.slots = new Int32Array(cap);
    this.mask = cap - 1;
    for (let row = 0; row < this.size; row++) {
      const from = this.starts[row]!;
      const to = this.starts[row + 1]! - 1;
      let slot = hashOf(joined, from, to) & this.mask;
      for (;;) {
        const cur = this.slots[slot]!;
        // A word listed twice keeps its last row, as a Map built in order would.
        if (cur === 0 || this.sameAs(cur - 1, joined, from, to)) {
          this.slots[slot] = row + 1;
          break;
        }
        slot = (slot + 1) & this.mask;
      }
    }
  }

  /** Whether row `row`'s word is `s[from, to)`. */
  private sameAs(row: number, s: string, from: number, to: number): boolean {
    const start = this.starts[row]!;
    const len = this.starts[row + 1]! - 1 - start;
    if (len !== to - from) return false;
    for (let i = 0; i < len; i++) if (this.joined.charCodeAt(start + i) !== s.charCodeAt(from + i)) return false;
    return true;
  }

  get(word: string): number | undefined {
    if (this.size === 0) return undefined;
    const len = word.length;
    let slot = hashOf(word, 0, len) & this.mask;
    for (;;) {
      const cur = this.slots[slot]!;
      if (cur === 0) return undefined;
      const start = this.starts[cur - 1]!;
      if (this.starts[cur]! - 1 - start === len && this.joined.startsWith(word, start)) return cur - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  has(word: string): boolean {
    return this.get(word) !== undefined;
  }

  *keys(): IterableIterator<string> {
    for (let row = 0; row < this.size; row++) yield this.joined.slice(this.starts[row]!, this.starts[row + 1]! - 1);
  }
}
