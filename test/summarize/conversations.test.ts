// A transcript no heading divides is cut into its conversations where what the user talks
// about changes.
import { describe, expect, it } from 'vitest';
import { collectEntries } from '../../src/summarize/entries.js';
import type { Item } from '../../src/summarize/item.js';
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

  it('cuts a long agent session under a heading that names no topic into its tasks', () => {
    const login = [
      'User: the login test in src/auth/login.test.ts is flaky on CI, it times out',
      'Assistant: The login test waits for the token refresh; it races the refresh timer.',
      'User: so the token refresh is not awaited in the login flow?',
      'Assistant: Right, login() fires refresh() without await.',
      'User: add an await for the token refresh in login and rerun the login tests',
      'Assistant: Done: login awaits the token refresh; the login tests pass 20 times in a row.',
      'User: run the whole auth suite after the login fix too',
      'Assistant: All 48 auth tests pass with the login fix.',
      'User: good. commit the login fix',
      'Assistant: Committed "auth: await token refresh in login".',
    ];
    const csv = [
      'User: next, the CSV export drops the BOM so Excel shows mojibake for umlauts',
      'Assistant: The CSV writer in src/export/csv.ts writes UTF-8 without a BOM.',
      'User: write the BOM at the start of every CSV export file',
      'Assistant: The CSV export now starts with the BOM; Excel opens umlauts correctly.',
      'User: add a CSV export test with umlauts in customer names',
      'Assistant: Added a CSV export test: Müller and Jürgen round-trip.',
      'User: update the changelog and the README section about CSV exports for the BOM',
      'Assistant: CHANGELOG and README now say CSV exports start with a BOM.',
      'User: run the CSV export tests and commit the BOM fix',
      'Assistant: 12 CSV export tests pass; committed "export: write a BOM".',
    ];
    const session = (turns: string[]): string =>
      `# 2026-11-20\n\n## Conversation [project] · 14:05 · session 3f2a9c1d\n${turns.join('\n')}\n`;
    const long = collectEntries('2026-11-20', session([...login, ...csv]), rules);
    expect(long.map((e) => e.items.filter((i) => i.speaker === 'user').length)).toEqual([5, 5]);
    expect(long.map((e) => e.type)).toEqual(['project', 'project']);
    // Under ten user turns a session is one conversation; so is one whose heading names its topic.
    expect(collectEntries('2026-11-20', session([...login.slice(0, 6), ...csv.slice(0, 6)]), rules)).toHaveLength(1);
    const named = collectEntries('2026-11-20', session([...login, ...csv]).replace('Conversation', 'auth and export'), rules);
    expect(named).toHaveLength(1);
  });
});
