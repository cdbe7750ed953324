// hipo's BPE counter (binary rank table, searched in place) must count exactly what
// gpt-tokenizer counts, for both tokenizers and whatever the text.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BpeCounter, buildRankTable, parseRankTable } from '../../src/text/bpe.js';
import type { TokenizerName } from '../../src/text/tokens.js';
import { REPO } from '../helpers/workspace.js';

const require = createRequire(import.meta.url);
const AS_TEXT = { disallowedSpecial: new Set<string>() };
const library = (name: TokenizerName): ((t: string) => number) => {
  const mod = require(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens(t: string, o: object): number };
  return (t) => mod.countTokens(t, AS_TEXT);
};

const examples = readdirSync(join(REPO, 'memory'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md'))
  .map((f) => readFileSync(join(REPO, 'memory', f), 'utf8'));

/** Seeded random strings over characters that stress the pre-tokenizers and byte merging. */
function randomTexts(n: number, seed: number): string[] {
  const alphabet = [
    ...'aeiou tnsrl\n\n\t  .,;:!?\'"()[]{}<>/\\-_=+*&^%$#@~`|0123456789',
    'ß',
    'é',
    'ñ',
    'Ж',
    'я',
    '日',
    '本',
    '語',
    '한',
    '국',
    'の',
    'ア',
    '😀',
    '👍🏽',
    '\u00a0',
    '\u3000',
    '\u200b',
    "'s",
    "'LL",
    'HTTP',
    'https://',
    'ing',
    'tion',
    ' the',
    '<|endoftext|>',
    '\r\n',
  ];
  let s = seed;
  const rand = (k: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % k;
  };
  return Array.from({ length: n }, () => Array.from({ length: 5 + rand(200) }, () => alphabet[rand(alphabet.length)]).join(''));
}

describe.each(['cl100k_base', 'o200k_base'] as const)('BPE counts (%s)', (name) => {
  const lib = library(name);
  let counter: BpeCounter;
  let longPieces = 0;
  beforeAll(() => {
    const ranks = require(`gpt-tokenizer/cjs/bpeRanks/${name}`) as { default: (string | number[])[] };
    const table = parseRankTable(buildRankTable(ranks.default));
    if (!table) throw new Error('table did not parse');
    counter = new BpeCounter(table, name, (piece) => {
      longPieces++;
      return lib(piece);
    });
  });

  it('equal the library on the example memory and on random text', () => {
    for (const text of [...examples, ...randomTexts(1500, 11)]) {
      const want = lib(text);
      if (counter.count(text) !== want) throw new Error(`${name}: ${counter.count(text)} ≠ ${want} for ${JSON.stringify(text)}`);
    }
    expect(counter.count('hello world')).toBe(lib('hello world'));
  });

  it('count a piece over 512 bytes with the library (plain merging is quadratic)', () => {
    const run = 'x'.repeat(3000) + ' and a short tail';
    const before = longPieces;
    expect(counter.count(run)).toBe(lib(run));
    expect(longPieces).toBe(before + 1);
    expect(counter.count('')).toBe(0);
  });
});

describe('rank tables', () => {
  it('refuse what is not a table', () => {
    expect(parseRankTable(new Uint8Array(8))).toBeNull();
    expect(parseRankTable(new TextEncoder().encode('HBPE but not really a table at all'))).toBeNull();
    const table = buildRankTable(['a', 'b', 'ab']);
    expect(parseRankTable(table.subarray(0, table.length - 1))).toBeNull();
    expect(parseRankTable(table)?.ranks.length).toBe(3);
  });

  it('ship with the build, and the built counter is the one hipo loads', async () => {
    for (const name of ['cl100k_base', 'o200k_base'] as const)
      expect(existsSync(join(REPO, 'dist', 'tokenizers', `${name}.bin`)), `run npm run build: ${name}.bin`).toBe(true);
    const tokens = (await import(join(REPO, 'dist', 'text', 'tokens.js'))) as typeof import('../../src/text/tokens.js');
    const count = await tokens.loadTokenCounter('cl100k_base');
    for (const text of examples.slice(0, 5)) expect(count(text)).toBe(library('cl100k_base')(text));
  });
});
