// Where else a hit appears, as a person reads it: each file once, its line ranges together.
import { describe, expect, it } from 'vitest';
import { placesByFile } from '../../src/search/format.js';

describe('places by file', () => {
  it('names each file once, with its ranges in the order given', () => {
    expect(
      placesByFile([
        { path: 'memory/daily/2026-11-04.md', start: 15, end: 15 },
        { path: 'memory/weekly/2026-W45.md', start: 37, end: 37 },
        { path: 'memory/daily/2026-11-04.md', start: 21, end: 23 },
        { path: 'memory/weekly/2026-W45.md', start: 75, end: 77 },
        { path: 'memory/daily/2026-11-04.md', start: 21, end: 23 },
      ]),
    ).toEqual(['memory/daily/2026-11-04.md:15,21-23', 'memory/weekly/2026-W45.md:37,75-77']);
    expect(placesByFile([])).toEqual([]);
  });
});
