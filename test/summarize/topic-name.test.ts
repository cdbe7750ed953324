// Topic names: noun phrases a person would look up. Conversation words, filler, verbs, ids and
// redaction tags never name a topic, in a node's Topics or in ROOT's index.
import { describe, expect, it } from 'vitest';
import { isTopicName, topicName } from '../../src/summarize/topic-name.js';
import { TermStats, contentWords } from '../../src/summarize/keywords.js';
import { splitFrontmatter } from '../../src/tree/frontmatter.js';
import { cycle } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

/** Names that must never appear as topics (seen in ROOT.md before topic naming was fixed). */
const BAD_NAMES = [
  'continue',
  'week',
  'offering',
  'x1',
  'x2',
  'formula',
  'heard',
  'order',
  'watching',
  'teach',
  'games',
  'display',
  'br',
  'tasks',
  'family',
  'part',
  'help',
  'thanks',
  'recommendations',
  'today',
  'great tips',
  'a3',
  'abc123def',
  'u3xy9qw8er7ty6ui5op4bz',
  'split key u3xy9qw8er7ty6ui5op4bz',
  'redacted',
  'really',
  'watched',
  'wrote',
  'bought',
  'known',
  'felt',
  'friend told',
  'built done',
  'buying',
  'incorporate',
  'et al',
  // A path and the pieces of a file name cut at its dot ("src/shed.py gives wrong slab counts").
  'py gives wrong',
  'shed py',
  'py',
  'md',
  'src/shed',
  'src/shed.py',
  'docs/setup.md',
  'config/hipo/config',
  'tests/test_api',
];

describe('topic names', () => {
  it.each(BAD_NAMES)('"%s" names no topic', (name) => {
    expect(isTopicName(name)).toBe(false);
  });

  it.each([
    'golden retriever',
    'road bike',
    'tokyo',
    'bbq sauce',
    'data science',
    'neon tetras',
    'hiking',
    'knitting',
    'ford mustang gt',
    'shed.py',
    'package.json',
    'csv export',
  ])('"%s" does', (name) => {
    expect(isTopicName(name)).toBe(true);
  });

  it('prefers a multi-word or capitalised name to a common single word', () => {
    const stats = new TermStats();
    for (const d of ['the cake was fine', 'more cake please', 'weekend plans', 'trip budget']) stats.addDocument(new Set(contentWords(d)));
    expect(topicName('Can you continue? I want to plan a road trip to Yellowstone this week, we continue next week.', stats)).toMatch(
      /road trip|yellowstone/,
    );
    expect(topicName('continue', stats)).toBeNull();
  });

  it("cuts a verb off the ends of a name: an instruction's, or a clause's last word", () => {
    const stats = new TermStats();
    for (const d of ['the cake was fine', 'weekend plans', 'code review notes', 'school run']) stats.addDocument(new Set(contentWords(d)));
    expect(topicName('My daughter Lea starts school in Berlin-Mitte on 2026-12-07', stats)).not.toMatch(/starts/);
    expect(topicName('please refactor my csv writer to stream rows', stats)).not.toMatch(/^refactor\b/);
    // A word that opens a noun phrase as often as an instruction stays: "book club", "open mics".
    expect(topicName('I joined a book club in Lisbon', stats)).toMatch(/book club/);
    // A past participle that closes a clause: "my car oil changed", "grandmother's ring appraised".
    expect(topicName('I finally got my car oil changed at the dealership', stats)).not.toMatch(/changed/);
    expect(topicName("I had my grandmother's ring appraised last week", stats)).toMatch(/ring$/);
    expect(topicName('We watched Manchester United at the pub', stats)).toMatch(/united/);
    // An irregular one too, seen in ROOT's index as "friend told" and "jo peninsulas sent".
    expect(topicName('What my old friend Mara told me about the Jeju trip', stats)).not.toMatch(/told$/);
    expect(topicName('The itinerary for the Jeju peninsulas sent by the agency', stats)).not.toMatch(/sent$/);
    // ... but not a word that is a noun or a name as often: "lost city", "led strip".
    expect(topicName('Reading about the Lost City of Z', stats)).toMatch(/lost city/);
    // A word that introduces a name leaves the name: "miso", never "called miso".
    expect(topicName('I live in Lisbon and my cat is called Miso', stats)).not.toMatch(/called/);
    expect(topicName('We adopted a puppy named Biscuit', stats)).not.toMatch(/named/);
    expect(topicName('Reading a novel titled Piranesi for the book club', stats)).not.toMatch(/titled/);
  });

  it('a path or a file name is never cut into words: no piece of it, nor the verb after it, names the topic', () => {
    const stats = new TermStats();
    for (const d of ['the cake was fine', 'weekend plans', 'code review notes', 'school run']) stats.addDocument(new Set(contentWords(d)));
    expect(topicName('src/shed.py gives wrong slab counts', stats)).toBe('wrong slab counts');
    expect(topicName('tests/test_api.py fails on python 3.12', stats)).toBe('python');
    expect(topicName('see docs/setup.md for the staging deploy', stats)).toBe('staging deploy');
    expect(topicName('check https://grafana.example.dev/d/pg-pool for pool saturation', stats)).toBe('pool saturation');
    // A file name on its own is one word, a name like any technical term.
    expect(topicName('shed.py crashes on startup', stats)).toBe('shed.py');
    // Abbreviations and numbers still break apart at their dots.
    expect(topicName('e.g. the U.S. trip in 2.5 weeks', stats)).toBe('trip');
  });

  it('a tree of chat sessions has none of the bad names in its topics or ROOT, and no redaction tag as a keyword', async () => {
    const session = (n: number, user: string, assistant: string): string =>
      `## Session ${n}\nSession Date: 2026-06-0${1 + (n % 3)}\n\nUser: ${user}\nAssistant: ${assistant}\n`;
    const sessions = [
      session(1, 'continue', 'Sure, here is the rest of the story about the dragon.'),
      session(2, 'Can you help me plan my week? I have tennis on Tuesday and a dentist appointment.', 'Here is a plan for your week.'),
      session(3, 'What is x1 if x1 + x2 = 10 and x2 = 3?', 'x1 is 7.'),
      session(
        4,
        'My API key is sk-live-abcdefghijklmnopqrstuvwxyz123456, can you check why my Stripe webhook fails?',
        'Check the signing secret.',
      ),
      session(5, 'I just adopted a golden retriever puppy named Max. Any crate training tips?', 'Crate training takes patience.'),
      session(6, 'Thanks, great tips! I heard that offering treats helps.', 'Yes, treats help.'),
      session(7, 'Write a formula for the players table in Excel.', '=SUM(B2:B10)'),
      session(8, 'src/shed.py gives wrong slab counts for large jobs', 'Check the rounding in the allocator.'),
    ];
    const day = (d: string): string => `# ${d}\n\n${sessions.join('\n')}${'\nfiller line about nothing in particular'.repeat(250)}\n`;
    const ws = makeWorkspace({ 'memory/2026-06-01.md': day('2026-06-01'), 'memory/2026-06-02.md': day('2026-06-02') });
    await cycle(ws, '2026-06-10', { catchUp: true });
    const names: string[] = [];
    const keywords: string[] = [];
    for (const rel of ['memory/daily/2026-06-01.md', 'memory/weekly/2026-W23.md', 'memory/monthly/2026-06.md']) {
      const doc = splitFrontmatter(ws.read(rel));
      for (const t of doc.data!.topics as string[]) names.push(t.replace(/ \[\w+\]$/, ''));
      for (const m of doc.body
        .split('## Topics\n')[1]!
        .split('\n## ')[0]!
        .matchAll(/^- [^:\n]+: (.*)$/gm))
        keywords.push(...m[1]!.split(', '));
    }
    const index = ws.read('memory/ROOT.md').split('## Topics Index\n')[1]!;
    for (const m of index.matchAll(/^- (.+?) \[/gm)) names.push(m[1]!);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((n) => BAD_NAMES.includes(n) || /\/|\bpy\b/.test(n))).toEqual([]);
    expect(names).toContain('golden retriever puppy');
    expect([...names, ...keywords].filter((w) => /redacted/i.test(w))).toEqual([]);
  });
});

describe('keywords', () => {
  it('keep a number with a thousands separator whole, and never hold a comma', () => {
    expect(contentWords('the 1,900-line export PR sat for a week; $1,200 budget, 1,000,000 rows')).toEqual([
      '1900-line',
      'export',
      'pr',
      'sat',
      'week',
      '1200',
      'budget',
      '1000000',
      'rows',
    ]);
    // A comma between other things still separates them (`12`, `5` and `9` are too short to count).
    expect(contentWords('csv,pdf 12,5 9,1000')).toEqual(['csv', 'pdf', '1000']);
  });
});
