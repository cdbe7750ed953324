// Which of the user's statements in a hit's section the prompt hook hands the agent.
import { describe, expect, it } from 'vitest';
import { pickSaid } from '../../src/search/said-pick.js';
import type { Said } from '../../src/search/said.js';

const length = (s: Said): number => s.text.length;

describe('pickSaid', () => {
  const said: Said[] = [
    { line: 3, text: "I'm feeling pretty good about getting started, thanks for the tips!" },
    { line: 9, text: 'I just adopted a beagle named Biscuit from the Riverside shelter for $150' },
    { line: 14, text: "I've been keeping my old sneakers under my bed for storage" },
  ];

  it('keeps the most telling statements that fit, in the order they were said', () => {
    const kept = pickSaid(said, 'what should I feed a new puppy', 140, length);
    expect(kept.map((s) => s.line)).toEqual([9, 14]);
    expect(kept.reduce((a, s) => a + length(s), 0)).toBeLessThanOrEqual(140);
    // The room for one: the one with names and an amount.
    expect(pickSaid(said, 'what should I feed a new puppy', 90, length).map((s) => s.line)).toEqual([9]);
  });

  it('leaves out a plain remark and a statement that repeats a better one, whatever the room', () => {
    const again: Said = { line: 30, text: "I've been keeping the old sneakers under my bed" };
    expect(pickSaid([...said, again], 'sneakers', 10_000, length).map((s) => s.line)).toEqual([9, 14]);
  });

  it('prefers, of two as telling, the one that shares words with the prompt', () => {
    const bought: Said[] = [
      { line: 5, text: 'I just bought a Dyson vacuum for the living room, $600' },
      { line: 8, text: 'I just bought a Peloton bike for the spare room, $1,400' },
    ];
    expect(pickSaid(bought, 'tips for a vacuum on thick carpet', 60, length).map((s) => s.line)).toEqual([5]);
    expect(pickSaid(bought, 'a bike workout plan for beginners', 60, length).map((s) => s.line)).toEqual([8]);
  });

  it('counts what each statement costs where it is shown, and cuts a long one at a word', () => {
    const long: Said = { line: 20, text: `I moved to Lisbon in March ${'and I walk along the river every morning '.repeat(8)}` };
    const [kept] = pickSaid([long], 'Lisbon', 400, (s) => s.text.length + 30);
    expect(kept!.text.length).toBeLessThanOrEqual(220);
    expect(kept!.text).toMatch(/^I moved to Lisbon in March .*\w…$/);
    expect(pickSaid(said, 'beagle', 60, (s) => s.text.length + 30)).toEqual([]);
  });
});
