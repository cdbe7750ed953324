// The daemon's full collection after each batch: the function it gets must really collect.
import { describe, expect, it } from 'vitest';
import { exposeGc } from '../../src/daemon/gc.js';

describe('exposeGc', () => {
  it('gives a gc function that frees what nothing references', async () => {
    const gc = exposeGc();
    expect(gc).toBeTypeOf('function');
    let big: number[] | null = Array.from({ length: 100_000 }, (_, i) => i);
    const ref = new WeakRef(big);
    big = null;
    // A WeakRef's target lives until the current job ends.
    await new Promise((r) => setTimeout(r, 0));
    gc!();
    expect(ref.deref()).toBeUndefined();
  });
});
