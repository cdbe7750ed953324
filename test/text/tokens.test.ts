import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { linePieces, loadTokenCounter, rememberingCounter } from '../../src/text/tokens.js';

const example = join(import.meta.dirname, '..', '..', 'memory');
const exampleTexts = readdirSync(example, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md'))
  .map((f) => readFileSync(join(example, f), 'utf8'));

/** Line starts and ends a pre-tokenizer could treat specially, mixed at random (seeded). */
function trickyTexts(n: number, seed: number): string[] {
  const parts = [
    '\n',
    '\n\n',
    '\r\n',
    '  \n',
    '\t\n',
    ' ',
    '- ',
    '## ',
    'word',
    "'s",
    "'ll",
    '42',
    '1234',
    '.',
    ').',
    '?!',
    '/',
    '/path',
    '//x',
    '#',
    '→ ',
    'über',
    '日本語',
    '한국어',
    '😀',
    '\u00a0',
    '\u3000',
    '`code`',
    '**',
    '[x]',
    ':',
  ];
  let s = seed;
  const rand = (k: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % k;
  };
  return Array.from({ length: n }, () => Array.from({ length: 40 + rand(80) }, () => parts[rand(parts.length)]).join(''));
}

describe('token counting', () => {
  it('splits only where a line starts with a printable character other than /', () => {
    expect(linePieces('a\nb\n\n- c\n  d\n/e\n')).toEqual(['a\n', 'b\n\n', '- c\n  d\n/e\n']);
    expect(linePieces('')).toEqual(['']);
    expect(linePieces('no break')).toEqual(['no break']);
  });

  it('counts exactly what counting the whole text counts (cl100k and o200k)', () => {
    const texts = [...exampleTexts, ...trickyTexts(400, 7)];
    for (const [name, whole] of [
      ['cl100k', cl100k],
      ['o200k', o200k],
    ] as const) {
      const pieced = rememberingCounter(whole);
      for (const t of texts) {
        const total = linePieces(t).reduce((n, p) => n + whole(p), 0);
        if (total !== whole(t)) throw new Error(`${name}: pieces ${total} ≠ whole ${whole(t)} for ${JSON.stringify(t)}`);
        expect(pieced(t)).toBe(whole(t));
      }
    }
  });

  it('remembers pieces: a second text sharing lines counts only its new ones', () => {
    const seen: string[] = [];
    const count = rememberingCounter((t) => {
      seen.push(t);
      return cl100k(t);
    });
    count('# ROOT\n- alpha topic\n- beta topic\n');
    seen.length = 0;
    expect(count('# ROOT\n- alpha topic\n- gamma topic\n')).toBe(cl100k('# ROOT\n- alpha topic\n- gamma topic\n'));
    expect(seen).toEqual(['- gamma topic\n']);
  });

  it('counts special-token strings in memory as ordinary text instead of failing', async () => {
    const count = await loadTokenCounter('cl100k_base');
    const text = 'decided: strip <|endoftext|> and <|im_start|> from prompts';
    expect(() => cl100k(text)).toThrow(/special token/);
    expect(count(text)).toBe(cl100k(text, { disallowedSpecial: new Set() }));
    expect(count(text)).toBeGreaterThan(cl100k('decided: strip  and  from prompts'));
  });

  it('loads the configured tokenizer once', async () => {
    const a = await loadTokenCounter('cl100k_base');
    expect(await loadTokenCounter('cl100k_base')).toBe(a);
    expect(a('hello world')).toBe(cl100k('hello world'));
    expect((await loadTokenCounter('o200k_base'))('日本語のテキスト')).toBe(o200k('日本語のテキスト'));
  });
});
