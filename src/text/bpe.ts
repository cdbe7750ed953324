// Exact BPE token counts from a compact binary rank table. Loading gpt-tokenizer's tables
// (a 1–2 MB JavaScript array turned into a 100k-entry Map) costs 60–400 ms here in every fresh
// process that counts tokens (`hipo compact`, `hipo context`, `hipo status`); the same ranks
// as one binary file, searched in place, cost about a millisecond to load. The table is made
// from gpt-tokenizer's own ranks at build time (scripts/build-tokenizers.mjs), and the counts
// are held to gpt-tokenizer's in test/text/bpe.test.ts.
/** The BPE vocabularies hipo counts with. */
export type TokenizerName = 'cl100k_base' | 'o200k_base';

// The pre-tokenizers of cl100k_base and o200k_base (tiktoken's patterns, as gpt-tokenizer
// writes them for JavaScript's regex engine): BPE runs inside each piece they cut.
const CONTRACTION = String.raw`'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])`;
const SPLIT: Record<TokenizerName, RegExp> = {
  cl100k_base: new RegExp(
    String.raw`${CONTRACTION}|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s`,
    'gu',
  ),
  o200k_base: new RegExp(
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:${CONTRACTION})?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:${CONTRACTION})?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
    'gu',
  ),
};

const MAGIC = 0x45504248; // "HBPE"
const VERSION = 1;
const HEADER = 16;

/** Token byte strings sorted bytewise, with their ranks: searched in place, never unpacked. */
export interface RankTable {
  readonly blob: Uint8Array;
  /** Start of entry i in `blob`; entry i ends where entry i + 1 starts. */
  readonly offsets: Uint32Array;
  readonly ranks: Uint32Array;
}

function compareBytes(a: Uint8Array, aFrom: number, aTo: number, b: Uint8Array, bFrom: number, bTo: number): number {
  const n = Math.min(aTo - aFrom, bTo - bFrom);
  for (let k = 0; k < n; k++) {
    const d = a[aFrom + k]! - b[bFrom + k]!;
    if (d !== 0) return d;
  }
  return aTo - aFrom - (bTo - bFrom);
}

/**
 * Serialises ranks as gpt-tokenizer holds them: index = rank, value = the token's text, or its
 * bytes when they are not valid UTF-8 (holes allowed).
 */
export function buildRankTable(byRank: readonly (string | readonly number[] | undefined)[]): Uint8Array {
  const utf8 = new TextEncoder();
  const entries: { bytes: Uint8Array; rank: number }[] = [];
  byRank.forEach((v, rank) => {
    if (v !== undefined && v !== null) entries.push({ bytes: typeof v === 'string' ? utf8.encode(v) : Uint8Array.from(v), rank });
  });
  entries.sort((x, y) => compareBytes(x.bytes, 0, x.bytes.length, y.bytes, 0, y.bytes.length));
  const blobLength = entries.reduce((n, e) => n + e.bytes.length, 0);
  const out = new Uint8Array(HEADER + 4 * (entries.length + 1) + 4 * entries.length + blobLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, entries.length, true);
  view.setUint32(12, blobLength, true);
  const offsetsAt = HEADER;
  const ranksAt = offsetsAt + 4 * (entries.length + 1);
  const blobAt = ranksAt + 4 * entries.length;
  let pos = 0;
  entries.forEach((e, i) => {
    view.setUint32(offsetsAt + 4 * i, pos, true);
    view.setUint32(ranksAt + 4 * i, e.rank, true);
    out.set(e.bytes, blobAt + pos);
    pos += e.bytes.length;
  });
  view.setUint32(offsetsAt + 4 * entries.length, pos, true);
  return out;
}

/** The table in `bytes`, or null when it is not one (wrong magic, version or size). */
export function parseRankTable(bytes: Uint8Array): RankTable | null {
  if (bytes.length < HEADER) return null;
  // Typed views over the file need 4-byte alignment; a pooled Buffer may not have it.
  const buf = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) return null;
  const n = view.getUint32(8, true);
  const blobLength = view.getUint32(12, true);
  const ranksAt = HEADER + 4 * (n + 1);
  const blobAt = ranksAt + 4 * n;
  if (blobAt + blobLength !== buf.length) return null;
  return {
    offsets: new Uint32Array(buf.buffer, buf.byteOffset + HEADER, n + 1),
    ranks: new Uint32Array(buf.buffer, buf.byteOffset + ranksAt, n),
    blob: buf.subarray(blobAt),
  };
}

const NONE = 0xffffffff;
/** Pieces longer than this go to the fallback counter (plain BPE merging is quadratic). */
const LONG_PIECE = 512;
const MAX_REMEMBERED = 100_000;

export class BpeCounter {
  private readonly utf8 = new TextEncoder();
  private readonly known = new Map<string, number>();

  /** `long` counts the rare piece over 512 bytes (a run of thousands of letters). */
  constructor(
    private readonly table: RankTable,
    private readonly name: TokenizerName,
    private readonly long: (piece: string) => number,
  ) {}

  count(text: string): number {
    if (!text) return 0;
    const split = SPLIT[this.name];
    split.lastIndex = 0;
    let total = 0;
    for (let m = split.exec(text); m !== null; m = split.exec(text)) {
      const piece = m[0];
      let n = this.known.get(piece);
      if (n === undefined) {
        n = this.countPiece(piece);
        if (this.known.size >= MAX_REMEMBERED) this.known.clear();
        this.known.set(piece, n);
      }
      total += n;
    }
    return total;
  }

  /** Rank of bytes[from, to), or NONE. */
  private rank(bytes: Uint8Array, from: number, to: number): number {
    const { blob, offsets, ranks } = this.table;
    let lo = 0;
    let hi = ranks.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareBytes(blob, offsets[mid]!, offsets[mid + 1]!, bytes, from, to);
      if (c === 0) return ranks[mid]!;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return NONE;
  }

  private countPiece(piece: string): number {
    const bytes = this.utf8.encode(piece);
    const n = bytes.length;
    if (n <= 1) return n;
    if (this.rank(bytes, 0, n) !== NONE) return 1;
    if (n > LONG_PIECE) return this.long(piece);
    // The byte-pair merge: boundaries between parts, each with the rank of the pair it starts;
    // the lowest-ranked pair (the leftmost on a tie) merges until no pair is a token.
    const starts: number[] = [];
    const pairRanks: number[] = [];
    for (let i = 0; i < n - 1; i++) {
      starts.push(i);
      pairRanks.push(this.rank(bytes, i, i + 2));
    }
    starts.push(n - 1, n);
    pairRanks.push(NONE, NONE);
    const rankAt = (i: number): number => (i + 3 < starts.length ? this.rank(bytes, starts[i]!, starts[i + 3]!) : NONE);
    for (;;) {
      let best = NONE;
      let at = -1;
      for (let i = 0; i < pairRanks.length - 1; i++) {
        if (pairRanks[i]! < best) {
          best = pairRanks[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      if (at > 0) pairRanks[at - 1] = rankAt(at - 1);
      pairRanks[at] = rankAt(at);
      starts.splice(at + 1, 1);
      pairRanks.splice(at + 1, 1);
    }
    return starts.length - 1;
  }
}
