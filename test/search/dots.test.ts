// The resident vector scan in WebAssembly SIMD gives the same sums, bit for bit, as the plain
// JavaScript loop and as one row's `dot` (a chunk's similarity must not depend on which path
// computed it), keeps its rows when it grows, and is the module its .wat source compiles to.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileDots } from '../../scripts/build-wasm.mjs';
import { dot, dotsModule, vectorRows, type VectorRows } from '../../src/search/dots.js';
import { DOTS_WASM } from '../../src/search/dots-wasm.js';

/** Deterministic floats in [-1, 1). */
function floats(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = ((x >>> 0) / 2 ** 32) * 2 - 1;
  }
  return out;
}

function fill(rows: VectorRows, n: number, seed: number): void {
  rows.vectors.set(floats(n * rows.dims, seed));
}

describe('the vector scan', () => {
  const module = dotsModule();

  it('runs in WebAssembly SIMD on the Node versions hipo supports', () => {
    expect(module).not.toBeNull();
    expect(vectorRows(100, 10, module).constructor.name).toBe('WasmRows');
    expect(vectorRows(100, 10, null).constructor.name).toBe('PlainRows');
  });

  it.each([4, 100, 512, 1536])("gives the plain loop's sums, bit for bit, at %i dimensions", (dims) => {
    const n = 300;
    const wasm = vectorRows(dims, n, module);
    const plain = vectorRows(dims, n, null);
    fill(wasm, n, dims);
    fill(plain, n, dims);
    const query = floats(dims, 7);
    const a = [...wasm.scan(query, n)];
    const b = [...plain.scan(query, n)];
    expect(a).toEqual(b);
    for (const r of [0, 1, 150, n - 1]) expect(dot(wasm.vectors, r * dims, query)).toBe(a[r]);
    // Not merely equal to each other: the dot products they should be, to float64 rounding.
    const exact = (r: number): number => {
      let s = 0;
      for (let d = 0; d < dims; d++) s += wasm.vectors[r * dims + d]! * query[d]!;
      return s;
    };
    for (const r of [0, 77, n - 1]) expect(a[r]).toBeCloseTo(exact(r), 12);
  });

  it('scans only the rows asked for', () => {
    const rows = vectorRows(8, 5, module);
    fill(rows, 5, 3);
    expect(rows.scan(floats(8, 1), 2)).toHaveLength(2);
  });

  it('keeps its rows when it grows, in place or copied', () => {
    for (const m of [module, null]) {
      const dims = 100;
      const rows = vectorRows(dims, 10, m);
      fill(rows, 10, 11);
      const query = floats(dims, 5);
      const before = [...rows.scan(query, 10)];
      // Past the module's first page and several more.
      rows.grow(2000);
      expect(rows.capacity).toBe(2000);
      expect(rows.vectors).toHaveLength(2000 * dims);
      rows.vectors.set(floats(dims, 99), 1999 * dims);
      const after = rows.scan(query, 2000);
      expect([...after.subarray(0, 10)]).toEqual(before);
      expect(after[1999]).toBe(dot(floats(dims, 99), 0, query));
    }
  });

  it('takes rows of any length, those not a multiple of 4 floats in JavaScript', () => {
    const rows = vectorRows(6, 3, module);
    expect(rows.constructor.name).toBe('PlainRows');
    rows.vectors.set([1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 1]);
    expect([...rows.scan(new Float32Array([1, 1, 1, 1, 1, 2]), 2)]).toEqual([27, 2]);
  });

  it('scans in JavaScript where WebAssembly is off (node --jitless), with the same sums', () => {
    const script = [
      "const m = await import('./src/search/dots.ts');",
      'const mod = m.dotsModule();',
      'const r = m.vectorRows(4, 2, mod);',
      'r.vectors.set([1, 2, 3, 4, 0, 0, 0, 1]);',
      'const sums = [...r.scan(new Float32Array([1, 1, 1, 1]), 2)];',
      'console.log(JSON.stringify({ wasm: mod !== null, kind: r.constructor.name, sums }));',
    ].join('\n');
    const p = spawnSync(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..', '..'),
      encoding: 'utf8',
    });
    expect(p.status, p.stderr).toBe(0);
    expect(JSON.parse(p.stdout.trim().split('\n').pop()!)).toEqual({ wasm: false, kind: 'PlainRows', sums: [10, 1] });
  });

  it('is the module dots.wat compiles to (npm run build:wasm after editing it)', async () => {
    expect((await compileDots()).toString('base64')).toBe(DOTS_WASM);
  });
});
