// Reciprocal rank fusion: each ranked list gives an item weight / (k + rank), rank from 1, and
// the sums are the fused order. Ranks, not scores, are fused: BM25 sums and cosines live on
// scales that cannot be compared. k = 60 is the constant of the original paper (Cormack et al.,
// 2009). hipo uses k = 10 and weighs the vector list by its embedder (0.2 for averaged word
// vectors, 1 for sentence models), both chosen on the MemAware dev split (docs/search.md):
// a smaller k trusts each list's first ranks more, which suits a strong keyword list.

export interface RankedList<K> {
  items: readonly K[];
  weight: number;
}

export function reciprocalRankFusion<K>(lists: readonly RankedList<K>[], k: number): Map<K, number> {
  const fused = new Map<K, number>();
  for (const list of lists) {
    list.items.forEach((item, i) => fused.set(item, (fused.get(item) ?? 0) + list.weight / (k + i + 1)));
  }
  return fused;
}

/** Keys of `scores`, best first (ties keep insertion order). */
export function rankByScore<K>(scores: ReadonlyMap<K, number>): K[] {
  return [...scores].sort((a, b) => b[1] - a[1]).map(([key]) => key);
}
