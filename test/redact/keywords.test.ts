// The one-pass keyword scan and the long-token search the redactor's prefilters rest on, against
// the plain way of finding the same (every position tried), on seeded random texts.
import { describe, expect, it } from 'vitest';
import { KeywordScanner, tokenRuns } from '../../src/redact/keywords.js';

function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['pass', 'password', 'sk-', 'sk-ant-', 'key', 'apikey', '://', 'xoxb-', 'q~'];
const PIECES = [
  'Pass',
  'word',
  'SK-',
  'ant-',
  'KEY',
  'api',
  ':',
  '//',
  'xox',
  'b-',
  'Q~',
  ' ',
  '\n',
  'é',
  'aB3+/=_.-',
  'x'.repeat(30),
  'Zq8vN2rT5wLx0aPb6NcE2dRf5GhJ7kYs9mWq',
];

function randomText(next: () => number, pieces: number): string {
  let s = '';
  for (let i = 0; i < pieces; i++) s += PIECES[Math.floor(next() * PIECES.length)]!;
  return s;
}

describe('keyword scan', () => {
  it('reports every occurrence of every keyword, overlapping ones too, case-insensitively', () => {
    const scanner = new KeywordScanner(WORDS);
    const next = generator(7);
    for (let n = 0; n < 300; n++) {
      const text = randomText(next, 40);
      const got: string[] = [];
      scanner.scan(text, (w, at) => got.push(`${WORDS[w]}@${at}`));
      const lower = text.toLowerCase();
      const want: string[] = [];
      for (let at = 0; at < text.length; at++) for (const w of WORDS) if (lower.startsWith(w, at)) want.push(`${w}@${at}`);
      expect(got.sort()).toEqual(want.sort());
    }
  });

  it('finds keywords in other scripts, case-insensitively where the script has case', () => {
    const words = ['пароль', 'パスワード', 'mot de passe', 'hasło'];
    const scanner = new KeywordScanner(words);
    const text = 'ПАРОЛЬ: x; パスワード：y; Mot de Passe : z; HASŁO: w; пароль';
    const got: string[] = [];
    scanner.scan(text, (w, at) => got.push(`${words[w]}@${at}`));
    expect(got).toEqual(['пароль@0', 'パスワード@11', 'mot de passe@20', 'hasło@38', 'пароль@48']);
  });

  it('refuses keywords it could not find', () => {
    expect(() => new KeywordScanner(['Key'])).toThrow(/lower-case/);
    // The regex's `i` flag does not fold ß to SS, as toUpperCase does.
    expect(() => new KeywordScanner(['straße'])).toThrow(/lower-case/);
    expect(() => new KeywordScanner(['k'])).toThrow(/two or more/);
  });
});

describe('long token runs', () => {
  it('finds every run of token characters at least `min` long, looking at every min-th character', () => {
    const next = generator(11);
    for (const min of [5, 20, 34, 40]) {
      for (let n = 0; n < 200; n++) {
        const text = randomText(next, 30);
        const want: [number, number][] = [];
        for (const m of text.matchAll(/[A-Za-z0-9+/=_.-]+/g)) if (m[0].length >= min) want.push([m.index, m.index + m[0].length]);
        expect(tokenRuns(text, min)).toEqual(want);
      }
    }
  });
});
