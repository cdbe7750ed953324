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

/** The lookup table of a vocabulary: what the vectors file stores so that loading need not hash. */
export interface WordTable {
  /** Where each row's word starts in the joined words; one more entry marks the end. */
  readonly starts: Int32Array;
  /** Slot → row + 1 (0: empty); a power of two long, at least twice the words. */
  readonly slots: Int32Array;
}

export class PackedWordRows implements WordRows {
  readonly size: number;
  private readonly starts: Int32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;

  /**
   * `joined`: the words in row order, separated by single newlines. `table`: their lookup table
   * as `table()` gave it for the same words (a file's), else it is built here (tens of ms for
   * the shipped 100,000 words: most of a CLI search's embedder load). A table that does not fit
   * the words is refused.
   */
  constructor(
    private readonly joined: string,
    table?: WordTable,
  ) {
    if (table) {
      this.starts = table.starts;
      this.size = joined.length === 0 ? 0 : table.starts.length - 1;
      this.slots = table.slots;
      this.mask = table.slots.length - 1;
      if (!this.fits()) throw new Error('the word table does not fit the words');
      return;
    }
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

  /** The lookup table, to store beside the words. */
  table(): WordTable {
    return { starts: this.starts, slots: this.slots };
  }

  /**
   * Whether a stored table belongs to these words: its shape, and a sample of rows (every
   * 1,000th, and the last) found again through it. A damaged file fails here instead of giving
   * words another word's vector; lookups stay bounded whatever the table holds (slotOf, get).
   */
  private fits(): boolean {
    const { joined, starts, slots, size } = this;
    if (slots.length < Math.max(1, size * 2) || (slots.length & (slots.length - 1)) !== 0) return false;
    if (starts[0] !== 0 || starts[starts.length - 1] !== joined.length + 1) return false;
    const sample = [...Array.from({ length: Math.ceil(size / 1000) }, (_, i) => i * 1000), size - 1].filter((r) => r >= 0);
    for (const row of sample) {
      const [from, to] = [starts[row]!, starts[row + 1]! - 1];
      if (!(from >= 0 && from <= to && to <= joined.length)) return false;
      if (row + 1 < size ? joined.charCodeAt(to) !== 10 : to !== joined.length) return false;
      const found = this.get(joined.slice(from, to));
      // A word listed twice finds its last row: the same word, so the same text.
      if (found === undefined || joined.slice(starts[found]!, starts[found + 1]! - 1) !== joined.slice(from, to)) return false;
    }
    return true;
  }

  /**
   * The slot that holds the word `s[from, to)`, or the empty one where it would go; -1 when
   * every slot is taken, which only a damaged table can do (a built one is at most half full).
   */
  private slotOf(s: string, from: number, to: number): number {
    const len = to - from;
    let slot = hashOf(s, from, to) & this.mask;
    for (let probes = 0; probes <= this.mask; probes++, slot = (slot + 1) & this.mask) {
      const cur = this.slots[slot]!;
      if (cur === 0) return slot;
      const start = this.starts[cur - 1]!;
      if (this.starts[cur]! - 1 - start !== len) continue;
      let i = 0;
      while (i < len && this.joined.charCodeAt(start + i) === s.charCodeAt(from + i)) i++;
      if (i === len) return slot;
    }
    return -1;
  }

  get(word: string): number | undefined {
    const slot = this.slotOf(word, 0, word.length);
    const cur = slot < 0 ? 0 : this.slots[slot]!;
    return cur === 0 ? undefined : cur - 1;
  }

  has(word: string): boolean {
    return this.get(word) !== undefined;
  }

  *keys(): IterableIterator<string> {
    for (let row = 0; row < this.size; row++) yield this.joined.slice(this.starts[row]!, this.starts[row + 1]! - 1);
  }
}
