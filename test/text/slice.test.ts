// Cutting text without cutting a character in two (src/text/slice.ts), held to the string's own
// code points, and the places that cut text to a length: clip (node lines) and search snippets.
import { describe, expect, it } from 'vitest';
import { sliceWhole } from '../../src/text/slice.js';
import { clip } from '../../src/summarize/classify.js';
import { makeSnippet, queryMatchers } from '../../src/search/snippet.js';
import { parseQuery } from '../../src/search/query.js';

/** Half of a two-unit character anywhere in `s`. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('sliceWhole', () => {
  const text = 'ok 😀 café 🐕‍🦺 日本語 𝒳 e\u0301 🇯🇵 늘 end'.replace('늘', '늘'.normalize('NFD'));
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((g) => g.segment);

  it('cuts at every position into whole characters: a run of the text’s graphemes', () => {
    for (let start = 0; start <= text.length; start++) {
      for (let end = start; end <= text.length; end++) {
        const cut = sliceWhole(text, start, end);
        expect(LONE.test(cut), `${start}..${end}`).toBe(false);
        // It is the graphemes whose units lie wholly within start..end.
        let at = 0;
        const inside = graphemes.filter((g) => {
          const from = at;
          at += g.length;
          return from >= start && at <= end;
        });
        expect(cut, `${start}..${end}`).toBe(inside.join(''));
      }
    }
  });

  it('is slice() where no character is cut', () => {
    expect(sliceWhole('plain text', 2, 7)).toBe('plain text'.slice(2, 7));
    expect(sliceWhole('plain text', 0)).toBe('plain text');
    expect(sliceWhole('a\r\nb', 0, 2)).toBe('a');
  });
});

describe('text cut to a length keeps whole characters', () => {
  it('clip: a node line', () => {
    const line = `${'x'.repeat(9)}${'😀'.repeat(20)}`;
    const cut = clip(line, 10);
    expect(cut).toBe(`${'x'.repeat(9)}…`);
    expect(LONE.test(clip(`${'😀'.repeat(200)}`, 101))).toBe(false);
  });

  it('clip: a node line keeps a joined emoji, a flag, an accent and a Hangul syllable whole', () => {
    const family = '👨‍👩‍👧‍👦';
    for (let k = 150; k <= 160; k++) expect(clip(`${'家'.repeat(k)}${family}${'京都'.repeat(40)}`, 160)).toBe(`${'家'.repeat(k)}…`);
    expect(clip(`${'家'.repeat(156)}🇯🇵🇯🇵`, 161)).toBe(`${'家'.repeat(156)}🇯🇵…`);
    expect(clip('e\u0301'.repeat(100), 101)).toBe(`${'e\u0301'.repeat(50)}…`);
    const nfd = '오늘회의에서'.normalize('NFD');
    const cut = clip(nfd.repeat(20), 101);
    expect(nfd.repeat(20).startsWith(cut.slice(0, -1))).toBe(true);
    // No jamo left over: every syllable is whole.
    expect(/[\u1100-\u11ff]/.test(cut.normalize('NFC'))).toBe(false);
  });

  it('a search snippet of a long line of emoji', () => {
    // The cut around the match falls inside a 🐕 on both sides.
    const line = `a${'🐕'.repeat(150)}xdog walk ${'🐕'.repeat(150)}`;
    const s = makeSnippet(line, 1, queryMatchers(parseQuery('walk')));
    expect(s.text).toContain('walk');
    expect(LONE.test(s.text)).toBe(false);
  });
});

describe('search snippets: which words a line holds', () => {
  const matched = (query: string, line: string): number => makeSnippet(line, 1, queryMatchers(parseQuery(query))).matched;

  it('finds a short word with its endings, not as the start of another word', () => {
    // Every line of a transcript starts with "User:"; "use" is not in it, nor "add" in "address".
    expect(matched('use add', 'User: add a test for names with special characters')).toBe(1);
    expect(matched('use', 'what is the address of the staging proxy?')).toBe(0);
    expect(matched('add', 'what is the address of the staging proxy?')).toBe(0);
    for (const line of ['we use pnpm', 'it uses pnpm', 'we used pnpm', 'Use pnpm.', 'use-case']) expect(matched('use', line), line).toBe(1);
    for (const line of ['added a test', 'adds a test', 'adding tests', 'run it', 'running it', 'the tests ran'])
      expect(matched('add run test', line), line).toBeGreaterThanOrEqual(1);
    // A longer word is found by its stem, as before: "scratches" finds "scratching".
    expect(matched('scratches', 'the cat keeps scratching the sofa')).toBe(1);
  });
});
