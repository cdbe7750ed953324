// Raw logs come in whatever shape their writer likes: plain lines, a `# Notes` title over
// sections, `### 09:30` times without sections. Every shape must reach each level of the tree.
import { describe, expect, it } from 'vitest';
import { composeBody } from '../../src/compose/body.js';
import { collectEntries } from '../../src/summarize/entries.js';
import { ExclusionRules } from '../../src/summarize/exclusion.js';
import { parseIsoWeek } from '../../src/time/calendar.js';
import type { Summarizer } from '../../src/summarize/summarizer.js';
import { cycle, node } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

const activeContext = (root: string): string[] => /## Active Context[^\n]*\n([\s\S]*?)\n\n/.exec(root)![1]!.split('\n');

describe('raw logs of any shape reach the weekly node and ROOT.md', () => {
  it('plain lines without a heading', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-02.md': 'Moved the billing cron to 03:00.\nThe staging database is full again.\n' });
    await cycle(ws, '2026-06-03', { catchUp: true });
    const daily = node(ws, 'daily/2026-06-02.md').body;
    // The text stays out of the Topics section: the section follows it.
    expect(daily.indexOf('Moved the billing cron')).toBeLessThan(daily.indexOf('## Topics'));
    expect(node(ws, 'weekly/2026-W23.md').body).toContain('The staging database is full again.');
    expect(node(ws, 'monthly/2026-06.md').body).toContain('Moved the billing cron to 03:00.');
    const active = activeContext(ws.read('memory/ROOT.md'));
    expect(active.join('\n')).toContain('Moved the billing cron to 03:00.');
    expect(active.join('\n')).not.toMatch(/· (Topics|\(none\))$/m);
  });

  it('a title that is not a date over sections of its own', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md': '# Notes\n\n## Billing cron\n- moved to 03:00\n\n## Staging\n- database full again\n',
    });
    await cycle(ws, '2026-06-03', { catchUp: true });
    expect(node(ws, 'daily/2026-06-02.md').data.topics).toEqual(['billing cron [project]', 'staging [project]']);
    const weekly = node(ws, 'weekly/2026-W23.md').body;
    expect(weekly).toContain('- moved to 03:00');
    expect(weekly).toContain('- database full again');
    const active = activeContext(ws.read('memory/ROOT.md'));
    expect(active).toEqual(expect.arrayContaining(['- 06-02 · billing cron: moved to 03:00', '- 06-02 · staging: database full again']));
    expect(active.join('\n')).not.toMatch(/· (Topics|\(none\)|Notes|Staging)$/m);
  });

  it('a title that names a topic stays the topic of its sections', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md':
        '# Vendor pitch\n\n## Context\n- Acme quoted 40k for the search migration\n\n## Decisions\n- decided to wait for Q3\n',
      'memory/2026-06-03.md': '# Daily log\n\n## Billing cron\n- moved to 03:00\n\n## Staging\n- database full again\n',
    });
    await cycle(ws, '2026-06-04', { catchUp: true });
    expect(node(ws, 'daily/2026-06-02.md').data.topics).toEqual(['vendor pitch [project]']);
    expect(node(ws, 'daily/2026-06-03.md').data.topics).toEqual(['billing cron [project]', 'staging [project]']);
  });

  it('a title that may name a topic never hides the typed sections under it', async () => {
    const titles = ['Today', 'Monday 16 Nov', 'Daily notes 16/11'];
    const ws = makeWorkspace(
      Object.fromEntries(
        titles.map((title, i) => [
          `memory/2026-06-0${i + 2}.md`,
          `# ${title}\n\n## garden shed [project]\n- poured the concrete base\n\n## family [user]\n- daughter: Ada, ${i + 6} years old\n`,
        ]),
      ),
    );
    await cycle(ws, '2026-06-05', { catchUp: true });
    for (let i = 0; i < titles.length; i++)
      expect(node(ws, `daily/2026-06-0${i + 2}.md`).data.topics).toEqual(
        expect.arrayContaining(['garden shed [project]', 'family [user]']),
      );
    // Neither line says "I" or "my": only the section's [user] makes it the user's fact.
    const profile = /## Profile\n([\s\S]*?)\n## /.exec(ws.read('memory/ROOT.md'))?.[1] ?? '';
    expect(profile.toLowerCase()).toContain('daughter: ada, 8 years old');
  });

  it('times as `###` headings under a date title', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md': '# 2026-06-02\n\n### 09:30\nMoved the billing cron to 03:00.\n\n### 14:10\nStaging database full again.\n',
    });
    await cycle(ws, '2026-06-03', { catchUp: true });
    const weekly = node(ws, 'weekly/2026-W23.md').body;
    expect(weekly).toContain('Moved the billing cron to 03:00.');
    expect(weekly).toContain('Staging database full again.');
  });
});

describe('daily copies written before the Topics section moved', () => {
  // Such a copy put `## Topics` first, so a log's plain text sat under it.
  const old =
    '# 2026-06-02\n\n## Topics\n- billing cron [project]: moved\n\nMoved the billing cron to 03:00.\n\n### 14:10\nStaging full.\n';

  it('keeps the text after the topic list when a weekly node concatenates it', async () => {
    const never: Summarizer = { id: 'none', summarize: () => Promise.reject(new Error('a concatenation needs no summary')) };
    const composed = await composeBody(
      {
        period: { level: 'weekly', week: parseIsoWeek('2026-W23')! },
        lines: 9,
        threshold: 300,
        sources: [{ label: '2026-06-02 (Tue)', path: 'memory/daily/2026-06-02.md', level: 'daily', text: old, firstLine: 1 }],
        topics: [],
        today: '2026-06-03',
      },
      never,
    );
    expect(composed.mode).toBe('concat');
    expect(composed.body).toContain('Moved the billing cron to 03:00.');
    expect(composed.body).toContain('Staging full.');
    expect(composed.body).not.toContain('- billing cron [project]: moved');
  });

  it('reads that text as the day’s, not as topics', () => {
    const entries = collectEntries('2026-06-02', old, new ExclusionRules());
    const topics = entries.find((e) => e.bucket === 'topics')!;
    expect(topics.items.map((i) => i.text)).toEqual(['billing cron [project]: moved']);
    const texts = entries.filter((e) => e.bucket === null).flatMap((e) => e.items.map((i) => i.text));
    expect(texts).toEqual(expect.arrayContaining(['Moved the billing cron to 03:00.', 'Staging full.']));
  });
});

describe('a typed title', () => {
  it('types everything under it, sections included', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md':
        '# About me [user]\n\n## Family\n- daughter: Ada, seven years old\n\n## Work\n- payments team lead at Nordwind\n',
    });
    await cycle(ws, '2026-06-03', { catchUp: true });
    // Neither line says "I" or "my": only the title's [user] makes them the user's facts.
    const profile = /## Profile\n([\s\S]*?)\n## /.exec(ws.read('memory/ROOT.md'))?.[1] ?? '';
    expect(profile.toLowerCase()).toContain('daughter: ada, seven years old');
    expect(profile.toLowerCase()).toContain('payments team lead at nordwind');
    // Its sections' headings label the facts; they are none.
    expect(profile).not.toMatch(/^- (Family|Work) \(/m);
  });

  it('leaves a section its own type', () => {
    const log = '# About me [user]\n\n## Family\n- daughter: Ada\n\n## garden shed [project]\n- poured the concrete base\n';
    const entries = collectEntries('2026-06-02', log, new ExclusionRules());
    expect(entries.map((e) => [e.topic, e.type, e.items.map((i) => i.text).at(-1)])).toEqual([
      ['about me', 'user', 'daughter: Ada'],
      ['garden shed', 'project', 'poured the concrete base'],
    ]);
  });
});
