// Typographic apostrophes are read as plain ones, one character for one; quotation marks stay.
import { describe, expect, it } from 'vitest';
import { plainApostrophes, spelledContractions } from '../../src/text/apostrophes.js';
import { tokenize } from '../../src/summarize/keywords.js';

describe('plainApostrophes', () => {
  it('makes the apostrophes inside words plain', () => {
    expect(plainApostrophes('I’m sure Sarah’s dog isn’t rock’n’roll')).toBe("I'm sure Sarah's dog isn't rock'n'roll");
    expect(plainApostrophes('Iʼve been there')).toBe("I've been there");
  });

  it('leaves quotation marks, and apostrophes outside a word, as they are', () => {
    for (const t of ['she said ‘hello’ twice', 'the ’90s', 'my parents’ house', 'a ’ alone', 'plain text, nothing to do'])
      expect(plainApostrophes(t)).toBe(t);
  });

  it('keeps every offset: one character for one', () => {
    const t = 'User: I’ve had 2 cats\nUser: we’re in Lisbon’s old town 🐈 now';
    expect(plainApostrophes(t)).toHaveLength(t.length);
    expect(
      plainApostrophes(t)
        .split('\n')
        .map((l) => l.length),
    ).toEqual(t.split('\n').map((l) => l.length));
  });

  it('gives the same keywords either way: contractions are stop words, a possessive is its owner', () => {
    expect(tokenize('I’m sure Sarah’s dog doesn’t bark', true)).toEqual(['sarah', 'dog', 'bark']);
    expect(tokenize('I’m sure Sarah’s dog doesn’t bark', true)).toEqual(tokenize("I'm sure Sarah's dog doesn't bark", true));
  });

  it('gives contractions typed without their apostrophe it back, where they are no other word', () => {
    expect(spelledContractions('im sure ive seen it. Dont worry, thats fine and i cant stop')).toBe(
      "i'm sure i've seen it. Don't worry, that's fine and i can't stop",
    );
    // Words of their own, an instant message, a name, a capital inside a sentence.
    for (const t of ['i feel ill', 'my id card', 'were you there', 'its tail', 'send me an IM', 'designed by Jony Ive', 'the Dont list'])
      expect(spelledContractions(t)).toBe(t);
    // A flag, a file name, code.
    for (const t of ['the flag is --dont-ask', 'see dont.txt and dont-delete.txt', 'run `cant` again'])
      expect(spelledContractions(t)).toBe(t);
    expect(spelledContractions('yes im. (im here)')).toBe("yes i'm. (i'm here)");
  });
});
