// The offline embedder's word vectors: 8-bit rows that keep each vector's direction, the shipped
// file preferred, a damaged one never trusted.
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode, encode, type FloatVectors, isCurrentFormat, loadWordVectors, rowVector } from '../../src/index/embed/wink-vectors.js';

function vectors(words: string[], dims: number, seed: number): FloatVectors {
  let x = seed;
  const rnd = (): number => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const v = new Float32Array(words.length * dims);
  for (let i = 0; i < v.length; i++) v[i] = rnd() * (1 + (i % 7));
  return { dims, rows: new Map(words.map((w, i) => [w, i])), vectors: v };
}

const cosine = (a: Float32Array, b: Float32Array): number => {
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! ** 2;
    bb += b[i]! ** 2;
  }
  return ab / Math.sqrt(aa * bb);
};

describe('word vectors file', () => {
  it('round-trips words and keeps every row within half a quantization step', () => {
    const wv = vectors(['the', 'über', 'commute', 'zero'], 100, 7);
    wv.vectors.fill(0, 300, 400); // an all-zero row stays zero
    const back = decode(encode(wv));
    expect([...back.rows.keys()]).toEqual(['the', 'über', 'commute', 'zero']);
    for (let r = 0; r < 3; r++) {
      const row = wv.vectors.subarray(r * 100, r * 100 + 100);
      const step = Math.max(...row.map(Math.abs)) / 127;
      const got = rowVector(back, r);
      for (let d = 0; d < 100; d++) expect(Math.abs(got[d]! - row[d]!)).toBeLessThanOrEqual(step / 2 + 1e-6);
      expect(cosine(row, got)).toBeGreaterThan(0.9999);
    }
    expect([...rowVector(back, 3)].every((v) => v === 0)).toBe(true);
    // Held as the file holds them: one byte per component and a scale per row.
    expect([back.q.length, back.scales.length]).toEqual([400, 4]);
  });

  it('loads the shipped file when it holds the vocabulary asked for, and ignores a damaged one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hipo-wv-'));
    const shipped = join(dir, 'wink-sg-100d.bin');
    const own = vectors(['alpha', 'beta', 'gamma'], 100, 3);
    writeFileSync(shipped, encode(own));
    expect([...loadWordVectors(3, [], shipped).rows.keys()]).toEqual(['alpha', 'beta', 'gamma']);
    // Cut short: not trusted; the package's own first words are converted instead.
    const bytes = encode(own);
    writeFileSync(shipped, bytes.subarray(0, bytes.length - 10));
    const fallback = loadWordVectors(3, [join(dir, 'cache')], shipped);
    expect(fallback.rows.size).toBe(3);
    expect(fallback.rows.has('alpha')).toBe(false);
    expect(existsSync(join(dir, 'cache'))).toBe(true);
  });

  it('carries its lookup table: a file of the older layout or with a damaged table is not read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hipo-wv-'));
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`);
    const bytes = encode(vectors(words, 100, 5));
    const back = decode(bytes);
    expect(words.every((w, i) => back.rows.get(w) === i)).toBe(true);
    writeFileSync(join(dir, 'now.bin'), bytes);
    expect(isCurrentFormat(join(dir, 'now.bin'))).toBe(true);
    // The layout before the table (HWV2): the build writes the file again, a load refuses it.
    const older = Buffer.from(bytes);
    older.write('HWV2', 0, 'latin1');
    writeFileSync(join(dir, 'older.bin'), older);
    expect([isCurrentFormat(join(dir, 'older.bin')), isCurrentFormat(join(dir, 'missing.bin'))]).toEqual([false, false]);
    expect(() => decode(older)).toThrow(/not a hipo word-vector file/);
    // Zeros over the table (a disk error, a bad copy): refused, not read as other words' rows.
    const header = bytes.readUInt32LE(4);
    const { wordBytes } = JSON.parse(bytes.toString('utf8', 8, 8 + header)) as { wordBytes: number };
    const damaged = Buffer.from(bytes);
    damaged.fill(0, 8 + header + wordBytes + 4, 8 + header + wordBytes + 4 + 64 * 1024);
    expect(() => decode(damaged)).toThrow(/does not fit/);
  });

  const built = resolve(import.meta.dirname, '../../dist/vectors/wink-sg-100d.bin');
  it.skipIf(!existsSync(built))('the build ships 100,000 words in about 13 MB (skipped: run npm run build first)', () => {
    const wv = loadWordVectors(100_000, [], built);
    expect(wv.rows.size).toBe(100_000);
    expect(statSync(built).size / 1e6).toBeGreaterThan(12);
    expect(statSync(built).size / 1e6).toBeLessThan(14);
    expect(wv.rows.get('the')).toBeLessThan(5);
    const row = (w: string): Float32Array => rowVector(wv, wv.rows.get(w)!);
    expect(cosine(row('dog'), row('puppy'))).toBeGreaterThan(cosine(row('dog'), row('invoice')));
    expect(existsSync(resolve(built, '..', 'NOTICE.md'))).toBe(true);
  });
});
