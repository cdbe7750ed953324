// Chunk scores of one query, and the few questions ranking asks of them: a chunk's score, and
// the best n chunks. Keyword scores are dense (an array over the index's chunk ids, since OR
// queries on common words touch most chunks); vector scores are a small map.

export interface ChunkScores {
  /** The chunk's score, or undefined when it has none (or is filtered out). */
  get(id: number): number | undefined;
  /** Up to `n` chunk ids, best first. */
  top(n: number): number[];
  readonly size: number;
}

export function mapScores(m: ReadonlyMap<number, number>): ChunkScores {
  return {
    get: (id) => m.get(id),
    top: (n) =>
      [...m]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, n)
        .map(([id]) => id),
    size: m.size,
  };
}

/** Scores over ids `base .. base + values.length - 1`; 0 means no score. */
export class DenseScores implements ChunkScores {
  private count = -1;

  constructor(
    readonly base: number,
    readonly values: Float64Array,
    private readonly allow: ((id: number) => boolean) | null = null,
  ) {}

  get(id: number): number | undefined {
    const i = id - this.base;
    if (i < 0 || i >= this.values.length) return undefined;
    const v = this.values[i]!;
    return v > 0 && (!this.allow || this.allow(id)) ? v : undefined;
  }

  get size(): number {
    if (this.count < 0) {
      let c = 0;
      for (let i = 0; i < this.values.length; i++) if (this.values[i]! > 0 && (!this.allow || this.allow(i + this.base))) c++;
      this.count = c;
    }
    return this.count;
  }

  /** The same scores seen through a filter. */
  restrict(allow: (id: number) => boolean): DenseScores {
    return new DenseScores(this.base, this.values, allow);
  }

  /** The scores of `ids` only, as a map (for small subsets such as one period's raw chunks). */
  pick(ids: Iterable<number>): Map<number, number> {
    const out = new Map<number, number>();
    for (const id of ids) {
      const v = this.get(id);
      if (v !== undefined) out.set(id, v);
    }
    return out;
  }

  top(n: number): number[] {
    // A bounded heap over the array, the worst kept chunk at its root: O(size · log n) without
    // sorting every score. Ties go to the lower id inside the heap too, so top(n) is the first n
    // of one order whatever n is: a ranking reads the same pages at any depth.
    if (n <= 0) return [];
    const heapScore = new Float64Array(n);
    const heapId = new Int32Array(n);
    const worse = (s1: number, i1: number, s2: number, i2: number): boolean => s1 < s2 || (s1 === s2 && i1 > i2);
    let len = 0;
    const vals = this.values;
    for (let i = 0; i < vals.length; i++) {
      const v = vals[i]!;
      if (!(v > 0)) continue;
      if (len === n && v < heapScore[0]!) continue;
      const id = i + this.base;
      if (len === n && !worse(heapScore[0]!, heapId[0]!, v, id)) continue;
      if (this.allow && !this.allow(id)) continue;
      let k: number;
      if (len < n) {
        // Sift up.
        k = len++;
        while (k > 0) {
          const p = (k - 1) >> 1;
          if (!worse(v, id, heapScore[p]!, heapId[p]!)) break;
          heapScore[k] = heapScore[p]!;
          heapId[k] = heapId[p]!;
          k = p;
        }
      } else {
        // Replace the worst and sift down.
        k = 0;
        for (;;) {
          const l = 2 * k + 1;
          if (l >= len) break;
          const r = l + 1;
          const c = r < len && worse(heapScore[r]!, heapId[r]!, heapScore[l]!, heapId[l]!) ? r : l;
          if (!worse(heapScore[c]!, heapId[c]!, v, id)) break;
          heapScore[k] = heapScore[c]!;
          heapId[k] = heapId[c]!;
          k = c;
        }
      }
      heapScore[k] = v;
      heapId[k] = id;
    }
    const out = Array.from({ length: len }, (_, i) => i);
    out.sort((a, b) => heapScore[b]! - heapScore[a]! || heapId[a]! - heapId[b]!);
    return out.map((i) => heapId[i]!);
  }
}
