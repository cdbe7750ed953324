// A transcript no heading divides is cut into its conversations where what the user talks
// about changes.
import { describe, expect, it } from 'vitest';
import { collectEntries, type Item } from '../../src/summarize/entries.js';
import { ExclusionRules } from '../../src/summarize/exclusion.js';
import { splitConversations } from '../../src/summarize/conversations.js';

const rules = new ExclusionRules();
const bread = [
  'User: My sourdough starter is sluggish since I moved it to the cold pantry. How warm should it be?',
  'Assistant: A sourdough starter likes 24-26 °C; feed it twice a day with equal flour and water.',
  'User: Should I switch the starter to rye flour for a while?',
  'Assistant: Yes, rye flour wakes up a sluggish starter; feed it rye for three days.',
  'User: Once the starter is lively, how long should the sourdough proof before I bake it?',
  'Assistant: Proof the dough until it has grown by half, then bake the loaf in a hot dutch oven.',
];
const marathon = [
  'User: I signed up for the Porto marathon in November. What weekly mileage should I build to?',
  'Assistant: For a first marathon, build to 50-60 km a week with one long run.',
  'User: How long should my longest run be before the marathon?',
  'Assistant: Your longest run should reach 30-32 km three weeks before race day, then taper.',
];
const taxes = [
  'User: I need to file my taxes as a freelancer this year. Which receipts can I deduct?',
  'Assistant: Freelancers deduct receipts for equipment, software, a home office share and travel for clients.',
  'User: Can I deduct my new laptop on my taxes in one year?',
  'Assistant: A laptop is equipment: deduct it over its useful life, or at once under the small-asset limit.',
];
const day = (...conversations: string[][]): string => `# 2026-06-01\n\n${conversations.map((c) => c.join('\n')).join('\n')}\n`;
const firstWords = (parts: Item[][]): string[] => parts.map((p) => p[0]!.text.split(' ').slice(0, 3).join(' '));
/** Turns as the summarizer reads them. */
const items = (...conversations: string[][]): Item[] =>
  conversations.flat().map((t, i) => {
    const [who, text] = t.split(/: (.*)/s) as [string, string];
    return { text, line: i + 1, listed: false, checked: null, speaker: who === 'User' ? 'user' : 'assistant' };
  });

describe('conversations in a transcript without headings', () => {
  it('cuts where the subject changes', () => {
    expect(firstWords(splitConversations(items(bread, marathon, taxes)))).toEqual(['My sourdough starter', 'I signed up', 'I need to']);
  });

  it('does not cut a conversation that stays on its subject, nor a short transcript', () => {
    expect(splitConversations(items(bread))).toHaveLength(1);
    expect(splitConversations(items(marathon.slice(0, 2), taxes.slice(0, 2), bread.slice(0, 2)))).toHaveLength(1);
  });

  it('makes each conversation an entry of its own', () => {
    const entries = collectEntries('2026-06-01', day(bread, marathon, taxes), rules);
    expect(entries.map((e) => e.items.filter((i) => i.speaker === 'user').length)).toEqual([3, 2, 2]);
    expect(firstWords(entries.map((e) => e.items))).toEqual(['My sourdough starter', 'I signed up', 'I need to']);
  });
});
