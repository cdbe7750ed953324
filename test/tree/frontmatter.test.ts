import { describe, expect, it } from 'vitest';
import { fmList, renderFrontmatter, splitFrontmatter, type FrontmatterData } from '../../src/tree/frontmatter.js';
import { parseTopicLine, parseTopicTag } from '../../src/tree/topic.js';
import { aliasBomb } from '../helpers/tree.js';

describe('frontmatter', () => {
  it('round-trips what hipo writes through a YAML parser, awkward strings included', () => {
    const data: FrontmatterData = {
      type: 'weekly',
      status: 'tentative',
      period: '2026-W11',
      dates: '2026-03-09 to 2026-03-15',
      'source-files': ['memory/daily/2026-03-09.md', 'memory/daily/2026-03-15.md'],
      topics: [
        'auth [project]',
        'dist = 120, thres: 16 # x [project]',
        '인증 [user]',
        "it's yes [feedback]",
        'true',
        '0123',
        '- dash [reference]',
      ],
      'last-seen': { auth: '2026-03-14', 'key: with colon': '2026-03-10', yes: '2026-03-09', 인증: '2026-03-11' },
      tokens: 2841,
    };
    const text = renderFrontmatter(data) + '\nbody\n';
    const back = splitFrontmatter(text);
    expect(back.error).toBeNull();
    expect(back.data).toEqual(data);
    expect(back.body).toBe('\nbody\n');
  });

  it('returns the body byte for byte, CRLF included, and its line offset', () => {
    const doc = splitFrontmatter('---\r\na: 1\r\n---\r\nline one\r\nline two\r\n');
    expect(doc.data).toEqual({ a: 1 });
    expect(doc.body).toBe('line one\r\nline two\r\n');
    expect(doc.bodyLineOffset).toBe(3);
  });

  it('treats an unclosed or non-mapping block as text, and reports malformed YAML', () => {
    expect(splitFrontmatter('---\nno close\nbody').data).toBeNull();
    expect(splitFrontmatter('---\nno close\nbody').body).toBe('---\nno close\nbody');
    expect(splitFrontmatter('---\n- a\n---\nb').error).toBe('frontmatter is not a key: value mapping');
    expect(splitFrontmatter('---\na: [1\n---\nb').error).toMatch(/^malformed frontmatter/);
  });

  it('refuses a block whose aliases expand past a bound, instead of copying them all', () => {
    // Six lines of aliases stand for 9^6 = 531,441 values.
    const doc = splitFrontmatter(`---\n${aliasBomb(6)}---\nbody\n`);
    expect(doc.error).toMatch(/^frontmatter too large: its aliases expand to more than \d+ values$/);
    expect(doc.data).toBeNull();
    expect(doc.body).toBe('body\n');
    // An alias used a few times is still read.
    expect(splitFrontmatter('---\na: &a [x, y]\nb: *a\nc: *a\n---\n').data).toEqual({ a: ['x', 'y'], b: ['x', 'y'], c: ['x', 'y'] });
  });

  it('gives every reader its own copy of a block parsed before (the YAML library keeps its own)', () => {
    const text = '---\ntype: daily\ntopics:\n  - a [project]\nlast-seen: {a: 2026-03-15}\n---\nbody\n';
    const first = splitFrontmatter(text).data!;
    (first.topics as string[]).push('changed by a caller');
    (first['last-seen'] as Record<string, string>).a = 'changed';
    expect(splitFrontmatter(text).data).toEqual({ type: 'daily', topics: ['a [project]'], 'last-seen': { a: '2026-03-15' } });
  });

  it('reads dates as civil dates, not UTC timestamps', () => {
    expect(splitFrontmatter('---\nperiod: 2026-03-15\n---\n').data).toEqual({ period: '2026-03-15' });
  });

  it('reads the topic syntaxes found in hipocampus folders', () => {
    expect(fmList(splitFrontmatter('---\ntopics: auth [project], timezone [user], api-key [reference]\n---\n').data, 'topics')).toEqual([
      'auth [project]',
      'timezone [user]',
      'api-key [reference]',
    ]);
    expect(fmList(splitFrontmatter('---\ntopics: []\n---\n').data, 'topics')).toEqual([]);
    expect(fmList(splitFrontmatter('---\ntopics:\n  - auth [project]\n---\n').data, 'topics')).toEqual(['auth [project]']);
    expect(parseTopicTag('Auth')).toEqual({ name: 'auth', type: 'project' });
    expect(parseTopicLine('- legal [reference, 45d, ?]: Civil Act §750, tort → knowledge/legal-750.md')).toEqual({
      name: 'legal',
      type: 'reference',
      keywords: ['Civil Act §750', 'tort'],
    });
  });
});
