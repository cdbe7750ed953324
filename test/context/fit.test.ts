// Fitting a node's body into what is left of a pack: the lead section or nothing.
import { describe, expect, it } from 'vitest';
import { fitBody, fitPrefix } from '../../src/context/fit.js';
import { nodeSectionRank } from '../../src/context/root-view.js';

const chars = (s: string): number => s.length;
const weekly = [
  '### Topics',
  '- antagonist races [project]: clara, dark, alistair, elves, king, noble races',
  '',
  '### Entities Referenced',
  'files: app.js',
].join('\n');

describe('fitBody', () => {
  it('with leadOrNothing, gives nothing rather than a stray line when the lead section does not fit', () => {
    const loose = fitBody(weekly, 40, chars, { rankOf: nodeSectionRank });
    expect(loose.text).toContain('files: app.js');
    expect(loose.text).not.toContain('antagonist');
    const strict = fitBody(weekly, 40, chars, { rankOf: nodeSectionRank, leadOrNothing: true });
    expect(strict).toEqual({ text: '', cost: 0, dropped: 2 });
    const room = fitBody(weekly, 100, chars, { rankOf: nodeSectionRank, leadOrNothing: true });
    expect(room.text.startsWith('### Topics\n- antagonist races')).toBe(true);
    // Where the lead fits, the flag changes nothing (its line is not paid for twice).
    const small = '### Topics\n- races [project]: elves\n- crown [project]: king\n\n### Notes\n- a note\n- another note';
    for (let room = 40; room < small.length; room++)
      expect(fitBody(small, room, chars, { rankOf: nodeSectionRank, leadOrNothing: true })).toEqual(
        fitBody(small, room, chars, { rankOf: nodeSectionRank }),
      );
  });
});

describe('fitPrefix', () => {
  it('keeps lines from the top, cuts the first that does not fit at a word and counts the rest', () => {
    const entry = [
      'Session Date: 2023-06-30',
      `User: ${'plan my workout week around tennis lessons '.repeat(3)}`,
      '**Monday**',
      '**Tuesday**',
    ].join('\n');
    const f = fitPrefix(entry, 110, chars);
    const lines = f.text.split('\n');
    expect(lines[0]).toBe('Session Date: 2023-06-30');
    expect(lines[1]).toMatch(/^User: plan my workout week .*…$/);
    expect(lines[2]).toBe('- … 2 more lines in the file');
    expect(f.cost).toBeLessThanOrEqual(110);
    expect(f.dropped).toBe(2);
  });
});
