// The best n chunks of a query: always the first n of one order (score, then lower id), whatever
// n is, ties and filters included; held to a plain sort.
import { describe, expect, it } from 'vitest';
import { DenseScores } from '../../src/search/scores.js';

function plainTop(base: number, values: Float64Array, n: number, allow: ((id: number) => boolean) | null): number[] {
  return [...values]
    .map((v, i) => ({ v, id: i + base }))
    .filter((x) => x.v > 0 && (!allow || allow(x.id)))
    .sort((a, b) => b.v - a.v || a.id - b.id)
    .slice(0, n)
    .map((x) => x.id);
}

describe('DenseScores.top', () => {
  it('is the first n of one order for every n, with many ties', () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (const [base, size] of [
      [-300, 1000],
      [1, 5000],
    ] as const) {
      // Few distinct scores: most values tie with others, zeros included.
      const values = Float64Array.from({ length: size }, () => Math.floor(rnd() * 8) / 2);
      const allow = (id: number): boolean => id % 7 !== 0;
      for (const filter of [null, allow]) {
        const scores = new DenseScores(base, values, filter);
        const all = plainTop(base, values, size, filter);
        for (const n of [1, 3, 10, 300, 1200, size]) expect(scores.top(n)).toEqual(all.slice(0, n));
      }
    }
  });
});
