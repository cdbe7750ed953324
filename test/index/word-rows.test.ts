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
