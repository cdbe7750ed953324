// One fact said twice in other words is one line of a node (summarize/facts/restatement.ts).
import { describe, expect, it } from 'vitest';
import { withoutRestatements } from '../../src/summarize/facts/restatement.js';
import { salience } from '../../src/summarize/facts/salience.js';

const keep = (facts: string[]): string[] =>
  withoutRestatements(
    facts,
    (t) => t,
    (t) => salience(t),
  );

describe('withoutRestatements', () => {
  it('keeps one of two facts that share most of their words, the more salient, in their order', () => {
    expect(
      keep([
        "I've been using digital coupons at Safeway and have saved around $20 so far",
        'My sister lives in Chicago',
        "I've been using the digital coupons at Safeway to save around $20 so far",
      ]),
    ).toHaveLength(2);
    const yosemite = keep([
      'I just got back from a solo camping trip to Yosemite National Park today',
      "I just started my solo camping trip to Yosemite National Park today and I'm really excited to explore the park.",
    ]);
    expect(yosemite).toEqual([expect.stringContaining('Yosemite National Park')]);
  });

  it('keeps facts that share a few words but say different things', () => {
    const facts = ['I just got my new phone case about a month ago', 'I just got my new phone charger', 'My sister lives in Chicago'];
    expect(keep(facts)).toEqual(facts);
  });

  it('keeps a restatement that names something the other does not', () => {
    const facts = [
      "I've stayed in the area before, actually during my friend's birthday celebration, " +
        'I stayed at a hotel in Downtown LA that had an amazing view of the city skyline from my room.',
      "I actually stayed at the Hilton Hotel in Downtown LA during my friend's birthday celebration " +
        'and had an amazing view of the city skyline from my room.',
    ];
    // The plainer one ranks first here (as salient, and longer), and both stay.
    expect(salience(facts[0]!)).toBeGreaterThanOrEqual(salience(facts[1]!));
    expect(facts[0]!.length).toBeGreaterThan(facts[1]!.length);
    expect(keep(facts)).toEqual(facts);
    // Numbers count as names: "$20" and "$35" are two facts.
    const amounts = ['I saved around $20 with digital coupons at Safeway', 'I saved around $35 with digital coupons at Safeway'];
    expect(keep(amounts)).toEqual(amounts);
  });
});
