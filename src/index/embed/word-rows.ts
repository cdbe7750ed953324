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
    // A word listed twice keeps its last row, as a Map built in order would.
    for (let row = 0; row < this.size; row++) this.slots[this.slotOf(joined, this.starts[row]!, this.starts[row + 1]! - 1)] = row + 1;
  }

  /** The slot that holds the word `s[from, to)`, or the empty one where it would go. */
  private slotOf(s: string, from: number, to: number): number {
    const len = to - from;
    for (let slot = hashOf(s, from, to) & this.mask; ; slot = (slot + 1) & this.mask) {
      const cur = this.slots[slot]!;
      if (cur === 0) return slot;
      const start = this.starts[cur - 1]!;
      if (this.starts[cur]! - 1 - start !== len) continue;
      let i = 0;
      while (i < len && this.joined.charCodeAt(start + i) === s.charCodeAt(from + i)) i++;
      if (i === len) return slot;
    }
  }

  get(word: string): number | undefined {
    const cur = this.slots[this.slotOf(word, 0, word.length)]!;
    return cur === 0 ? undefined : cur - 1;
  }

  has(word: string): boolean {
    return this.get(word) !== undefined;
  }

  *keys(): IterableIterator<string> {
    for (let row = 0; row < this.size; row++) yield this.joined.slice(this.starts[row]!, this.starts[row + 1]! - 1);
  }
}
