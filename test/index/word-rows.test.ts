// The embedder's packed vocabulary, held to the Map it replaces: the same row for every word,
// the same misses, the same size and order, over the shipped 100,000 words and awkward cases.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PackedWordRows } from '../../src/index/embed/word-rows.js';

const mapOf = (words: string[]): Map<string, number> => new Map(words.map((w, i) => [w, i]));

describe('PackedWordRows', () => {
  it('answers as a Map of the same words would: rows, misses, size, order', () => {
    // Non-ASCII, a prefix of another word, case, a word listed twice (its last row wins).
    const words = ['the', 'naïve', 'caf', 'café', 'Café', '日本', 'x', 'the', 'commute', 'commuter'];
    const packed = new PackedWordRows(words.join('\n'));
    const map = mapOf(words);
    for (const w of [...words, 'th', 'thee', 'cafe', '日', '', 'zzz', 'COMMUTE']) expect(packed.get(w)).toBe(map.get(w));
    expect(packed.has('café')).toBe(true);
    expect(packed.has('cafe')).toBe(false);
    expect(packed.size).toBe(words.length);
    expect([...packed.keys()]).toEqual(words);
  });

  it('loads from a stored table as it builds one, and refuses a table of other words', () => {
    const words = Array.from({ length: 2500 }, (_, i) => `w${i}`).concat(['naïve', 'the', '日本', 'the']);
    const built = new PackedWordRows(words.join('\n'));
    const table = built.table();
    const loaded = new PackedWordRows(words.join('\n'), { starts: table.starts.slice(), slots: table.slots.slice() });
    const map = mapOf(words);
    for (const w of [...words, 'w2500', 'thee', '']) expect(loaded.get(w)).toBe(map.get(w));
    expect([...loaded.keys()]).toEqual(words);
    // Another vocabulary's table, one row's slot moved, a table too small: refused.
    const other = new PackedWordRows(words.map((w) => `${w}x`).join('\n')).table();
    expect(() => new PackedWordRows(words.join('\n'), other)).toThrow(/does not fit/);
    const moved = table.slots.slice();
    const at = moved.indexOf(1001); // row 1000 is in the sample
    moved[at] = 0;
    moved[(at + 7) & (moved.length - 1)] = 0;
    expect(() => new PackedWordRows(words.join('\n'), { starts: table.starts, slots: moved })).toThrow(/does not fit/);
    expect(() => new PackedWordRows(words.join('\n'), { starts: table.starts, slots: table.slots.subarray(0, 1024) })).toThrow(
      /does not fit/,
    );
  });

  it('a damaged table never hangs a lookup nor names a row it does not have', () => {
    const words = ['alpha', 'beta', 'gamma'];
    const ok = new PackedWordRows(words.join('\n')).table();
    // Its empty slots overwritten: the words are still found, but a lookup of any other word
    // would probe forever without a bound.
    const slots = ok.slots.map((v) => (v === 0 ? 2 : v));
    const full = new PackedWordRows(words.join('\n'), { starts: ok.starts, slots });
    expect([full.get('alpha'), full.get('gamma'), full.get('delta'), full.get('zeta')]).toEqual([0, 2, undefined, undefined]);
    // A row past the last is no row.
    const past = new PackedWordRows(words.join('\n'), { starts: ok.starts, slots: ok.slots.map((v) => (v === 0 ? 9 : v)) });
    expect(past.get('delta')).toBeUndefined();
  });

  it('holds nothing for an empty list', () => {
    const packed = new PackedWordRows('');
    expect([packed.size, packed.get(''), packed.get('a'), [...packed.keys()]]).toEqual([0, undefined, undefined, []]);
  });

  const built = resolve(import.meta.dirname, '../../dist/vectors/wink-sg-100d.bin');
  it.skipIf(!existsSync(built))('gives every one of the shipped 100,000 words its row (skipped: run npm run build first)', () => {
    const buf = readFileSync(built);
    const headerLen = buf.readUInt32LE(4);
    const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLen)) as { wordBytes: number };
    const joined = buf.toString('utf8', 8 + headerLen, 8 + headerLen + header.wordBytes);
    const words = joined.split('\n');
    const packed = new PackedWordRows(joined);
    const map = mapOf(words);
    let wrong = 0;
    for (const [w, i] of map) if (packed.get(w) !== i) wrong++;
    expect(wrong).toBe(0);
    expect(packed.size).toBe(100_000);
    // Words that are not there are not found, whatever their hash.
    for (const w of ['qqqzzzx', 'hipo-daemon-watcher', `${words[5]}s-not`]) expect(packed.get(w)).toBe(map.get(w));
  });
});
