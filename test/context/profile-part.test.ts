// The pack's profile part: ROOT's Profile and Rules first, each category in proportion, the
// digests of its `- Also in <month>:` lines taken one by one (without their months) as room allows.
import { describe, expect, it } from 'vitest';
import { fitProfile, splitProfile } from '../../src/context/profile-part.js';

const body = [
  '## Profile',
  '### Pets',
  '- My dog Max is a Golden Retriever ([05-21](daily/2026-05-21.md))',
  '- Also in 2026-06: Lola, $50 · Luna, Whiskas, Petco',
  '- Also in 2025-12: Acana, PetSmart, $70',
  '### Possessions',
  '- Also in 2026-05: Samsung Galaxy S22, Case-Mate, $30 · Sony WH-1000XM4',
  '',
  '## Rules',
  '- write dates as YYYY-MM-DD ([06-27](daily/2026-06-27.md))',
  '',
  '## Active Context (recent ~7 days)',
  '- 06-30 · release: shipped',
].join('\n');
const chars = (s: string): number => s.length;

describe('the pack profile', () => {
  it('splits the Also lines into their digests and drops months, dates and links', () => {
    const p = splitProfile(body);
    expect(p.groups.map((g) => g.heading)).toEqual(['### Pets', '### Possessions']);
    expect(p.groups[0]!.lines).toEqual(['- My dog Max is a Golden Retriever (05-21)']);
    expect(p.groups[0]!.also).toEqual(['Lola, $50', 'Luna, Whiskas, Petco', 'Acana, PetSmart, $70']);
    expect(p.groups[1]!.also).toEqual(['Samsung Galaxy S22, Case-Mate, $30', 'Sony WH-1000XM4']);
    expect(p.rules).toEqual(['- write dates as YYYY-MM-DD (06-27)']);
    expect(p.rest).toMatch(/^## Active Context/);
  });

  it('with room for all, shows every sentence and digest, rules after', () => {
    const part = fitProfile(splitProfile(body), 10_000, chars)!;
    expect(part.dropped).toBe(0);
    expect(part.text).toContain(
      '### Pets\n- My dog Max is a Golden Retriever (05-21)\n- Also: Lola, $50 · Luna, Whiskas, Petco · Acana, PetSmart, $70',
    );
    expect(part.text).toContain('### Possessions\n- Also: Samsung Galaxy S22, Case-Mate, $30 · Sony WH-1000XM4');
    expect(part.text.indexOf('## How the user wants me to work')).toBeGreaterThan(part.text.indexOf('### Possessions'));
  });

  it("with little room, keeps each category's first items and never goes over", () => {
    for (const allowance of [150, 200, 260]) {
      const part = fitProfile(splitProfile(body), allowance, chars)!;
      expect(part.text.length).toBeLessThanOrEqual(allowance);
      expect(part.dropped).toBeGreaterThan(0);
    }
    const part = fitProfile(splitProfile(body), 260, chars)!;
    // Both categories have their say before either has its third item.
    expect(part.text).toContain('Samsung Galaxy S22');
    expect(part.text).toContain('Golden Retriever');
    expect(part.text).not.toContain('Acana');
  });
});
