import { describe, expect, it } from 'vitest';
import { chunkDocument, chunkOptions } from '../../src/index/chunk.js';
import { cjkIndexText, cjkQueryTerms } from '../../src/index/cjk.js';
import { NAMED_USER_WEEK } from '../helpers/conversation.js';

const opts = chunkOptions(2000);

describe('chunking a raw log', () => {
  const log = [
    '# 2026-03-15',
    '',
    '## Auth refactor [project]',
    '- decided to move sessions into redis',
    '- rollback plan: keep the cookie path',
    '',
    '## Preferences [user]',
    '- prefers pnpm over npm',
    '',
    '## Notes',
    '```md',
    '## not a heading inside a fence',
    '```',
    'plain text after the fence',
  ].join('\n');

  it('makes one chunk per ## section, with its line range and heading path', () => {
    const { chunks } = chunkDocument(log, opts);
    expect(chunks.map((c) => [c.headingPath, c.line, c.endLine])).toEqual([
      [['2026-03-15', 'Auth refactor [project]'], 3, 5],
      [['2026-03-15', 'Preferences [user]'], 7, 8],
      [['2026-03-15', 'Notes'], 10, 14],
    ]);
    expect(chunks[0]!.text).toBe(
      '## Auth refactor [project]\n- decided to move sessions into redis\n- rollback plan: keep the cookie path',
    );
  });

  it('carries the type tag of the heading, and none for untagged sections', () => {
    const { chunks } = chunkDocument(log, opts);
    expect(chunks.map((c) => c.type)).toEqual(['project', 'user', null]);
  });

  it("takes a [user] section whole as the user's facts", () => {
    const { chunks } = chunkDocument(log, opts);
    expect(chunks[1]!.facts).toBe(chunks[1]!.text);
    expect(chunks[0]!.facts).toBe('');
  });

  it('gives the same hashes for the same content at other lines, and different ones for other content', () => {
    const a = chunkDocument(log, opts).chunks;
    const b = chunkDocument(`# 2026-03-15\n\n## Inserted [project]\n- new entry\n\n${log.split('\n').slice(2).join('\n')}`, opts).chunks;
    expect(b.slice(1).map((c) => c.hash)).toEqual(a.map((c) => c.hash));
    expect(b[1]!.line).toBe(a[0]!.line + 3);
    expect(b[0]!.hash).not.toBe(a[0]!.hash);
  });
});

describe('chunking long sections', () => {
  const para = (i: number): string => `Paragraph ${i} talks about topic${i} with enough words to take some room in the chunk.`;
  const long = ['# 2026-03-15', '', '## Session 1', ...Array.from({ length: 120 }, (_, i) => `${para(i)}\n`)].join('\n');

  it('splits a section without sub-sections into windows that overlap and cover every line', () => {
    const { chunks } = chunkDocument(long, chunkOptions(1000));
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.headingPath).toEqual(['2026-03-15', 'Session 1']);
      expect(c.sectionLine).toBe(3);
      expect(c.text.length).toBeLessThanOrEqual(1100);
    }
    for (let i = 1; i < chunks.length; i++) {
      // Each window starts inside or right after the previous one: nothing is skipped, and
      // the text at a cut is in both.
      expect(chunks[i]!.line).toBeLessThanOrEqual(chunks[i - 1]!.endLine + 2);
      expect(chunks[i]!.line).toBeLessThanOrEqual(chunks[i - 1]!.endLine);
    }
    const all = chunks.map((c) => c.text).join('\n');
    for (let i = 0; i < 120; i++) expect(all).toContain(`topic${i} `);
  });

  it('cuts a long section at its sub-sections first', () => {
    const lines = (w: string): string[] => Array.from({ length: 5 }, () => `${w} `.repeat(25));
    const text = ['## Big', 'intro line', '', '### Part A', ...lines('alpha'), '', '### Part B', ...lines('beta')].join('\n');
    const { chunks } = chunkDocument(text, chunkOptions(1000));
    expect(chunks.map((c) => c.headingPath)).toEqual([['Big'], ['Big', 'Part A'], ['Big', 'Part B']]);
    expect(new Set(chunks.map((c) => c.sectionLine))).toEqual(new Set([1]));
  });

  it('indexes a single huge line in windows of characters', () => {
    const { chunks } = chunkDocument(`## Blob\n${'x'.repeat(5000)}`, chunkOptions(1000));
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    expect(chunks.every((c) => c.text.length <= 1000)).toBe(true);
  });
});

describe('chunking nodes and other markdown', () => {
  it('skips frontmatter but reports file line numbers', () => {
    const node = [
      '---',
      'type: daily',
      'status: fixed',
      '---',
      '',
      '# Daily Summary: 2026-03-15 (Sun)',
      '',
      '## Key Decisions',
      '- moved sessions to redis',
    ].join('\n');
    const doc = chunkDocument(node, opts);
    expect(doc.frontmatter).toMatchObject({ status: 'fixed' });
    expect(doc.chunks).toHaveLength(1);
    expect(doc.chunks[0]).toMatchObject({ line: 8, endLine: 9, headingPath: ['Daily Summary: 2026-03-15 (Sun)', 'Key Decisions'] });
  });

  it('types summary sections by what they hold', () => {
    const node =
      '# Weekly\n\n## User Facts\n- lives in Lisbon\n\n## Feedback\n- keep commits small\n\n## References\n- https://example.com\n';
    expect(chunkDocument(node, opts).chunks.map((c) => c.type)).toEqual(['user', 'feedback', 'reference']);
    // What hipo found the user saying of themselves in conversations is user memory too:
    // `hipo search --type user` finds it in a chat-only memory.
    const said = '# Daily\n\n## User Facts (from conversations)\n- pets: I adopted a beagle named Biscuit\n\n## Topics\n- beagle\n';
    expect(chunkDocument(said, opts).chunks.map((c) => c.type)).toEqual(['user', null]);
  });

  it("keeps text before the first heading and a title's own text", () => {
    const doc = chunkDocument('intro words\n\n# Title\ntitle text\n\n## A\na text', opts);
    expect(doc.chunks.map((c) => c.text)).toEqual(['intro words', '# Title\ntitle text', '## A\na text']);
  });

  it('drops a title that has nothing of its own', () => {
    expect(chunkDocument('# 2026-03-15\n\n## A\nx', opts).chunks.map((c) => c.headingPath)).toEqual([['2026-03-15', 'A']]);
  });
});

describe("the user's statements in a transcript", () => {
  it('collects what the user says about themselves, not requests or the assistant', () => {
    const t = [
      '## Session 3',
      'User: Can you suggest deterrents for scratching? My cat Luna keeps scratching the new sofa.',
      'Assistant: I am sure Luna will learn. I have seen many cats do this.',
      'User: I adopted her from a shelter in March.',
    ].join('\n');
    const [c] = chunkDocument(t, opts).chunks;
    expect(c!.facts).toContain('My cat Luna keeps scratching the new sofa.');
    expect(c!.facts).toContain('I adopted her from a shelter in March.');
    expect(c!.facts).not.toContain('Can you suggest');
    expect(c!.facts).not.toContain('I have seen many cats');
  });

  it("reads them as the tree's user facts do: the fact before an ask, no hearsay, no quoted I", () => {
    const t = [
      '## Session 4',
      "User: I'm planning a trip to LA and was wondering if you could recommend coffee shops near LAX?",
      "User: I've heard great things about the Blue Bottle on Abbot Kinney.",
      'User: The first logician says, "I don\'t know."',
    ].join('\n');
    const [c] = chunkDocument(t, opts).chunks;
    expect(c!.facts).toBe("I'm planning a trip to LA");
  });

  it('knows the speaker from a heading of its own, as ChatGPT exporters write turns', () => {
    const t = [
      '# Chat',
      '',
      '## Prompt:',
      'My cat Luna keeps scratching the new sofa.',
      '',
      '## Response:',
      'I have seen many cats do this.',
    ];
    const facts = chunkDocument(t.join('\n'), opts).chunks.map((c) => c.facts);
    expect(facts).toEqual(['My cat Luna keeps scratching the new sofa.', '']);
  });

  it("reads a weekly node's days each with its own speakers", () => {
    const t = NAMED_USER_WEEK;
    const facts = chunkDocument(t.join('\n'), opts).chunks.map((c) => c.facts);
    expect(facts).toEqual([
      'I am training for the Berlin marathon.',
      'I adopted a greyhound named Comet.\nI live in a flat on the 3rd floor.',
    ]);
  });
});

describe('fact chunks', () => {
  const t = [
    '# 2023-05-29',
    '',
    '## Session 3',
    'User: Can you suggest deterrents for scratching? My cat Luna keeps scratching the new sofa.',
    'Assistant: I am sure Luna will learn. I have seen many cats do this.',
    'User: I adopted her from a shelter in March.',
    'User: ok thanks',
    '',
    '## Pets [user]',
    '- My dog Max is a Golden Retriever',
  ].join('\n');

  it("gives each line of the user's statements a chunk of its own, part of the section it was said in", () => {
    const chunks = chunkDocument(t, { ...opts, factChunks: true }).chunks;
    const session = chunks.find((c) => c.headingPath.at(-1) === 'Session 3' && c.line === 3)!;
    const facts = chunks.filter((c) => c !== session && c.headingPath.at(-1) === 'Session 3');
    expect(facts.map((c) => [c.line, c.endLine, c.text])).toEqual([
      [4, 4, 'My cat Luna keeps scratching the new sofa.'],
      [6, 6, 'I adopted her from a shelter in March.'],
    ]);
    for (const f of facts) {
      expect(f.sectionLine).toBe(session.sectionLine);
      expect(f.type).toBe(session.type);
      expect(f.facts).toBe(f.text);
    }
    // A [user] section is facts already: no second chunk of it.
    expect(chunks.filter((c) => c.headingPath.at(-1) === 'Pets [user]')).toHaveLength(1);
    expect(new Set(chunks.map((c) => c.hash)).size).toBe(chunks.length);
  });

  it('are off unless asked for', () => {
    expect(chunkDocument(t, opts).chunks).toHaveLength(2);
  });
});

describe('CJK text', () => {
  it('indexes unigrams and bigrams of every CJK run', () => {
    expect(cjkIndexText('회의에서 결정')).toBe('회 회의 의 의에 에 에서 서 결 결정 정');
    expect(cjkIndexText('hipo は速い')).toBe('は は速 速 速い い');
  });

  it('searches a query run by its bigrams, or a single character as it is', () => {
    expect(cjkQueryTerms('데이터베이스 이전')).toEqual(['데이', '이터', '터베', '베이', '이스', '이전']);
    expect(cjkQueryTerms('猫')).toEqual(['猫']);
    expect(cjkQueryTerms('plain english')).toEqual([]);
  });
});

describe('sections that say there is nothing', () => {
  it('are not chunks: a search for "none" finds no placeholder, recall hands out none', () => {
    const root = [
      '## Active Context (recent ~7 days)',
      '- 06-02 · billing cron: moved to 03:00',
      '',
      '## Recent Patterns',
      '- (none yet)',
      '',
      '## Topics Index',
      '- (none yet)',
      '- none of the above: a topic named so [project, 1d] → [2026-06-02](daily/2026-06-02.md)',
    ].join('\n');
    const daily = ['# 2026-06-02', '', '## Topics', '- (none)', '', '## Billing cron', '- moved to 03:00'].join('\n');
    expect(chunkDocument(root, opts).chunks.map((c) => c.headingPath.at(-1))).toEqual(['Active Context (recent ~7 days)', 'Topics Index']);
    expect(chunkDocument(daily, opts).chunks.map((c) => c.text)).toEqual(['## Billing cron\n- moved to 03:00']);
  });
});
