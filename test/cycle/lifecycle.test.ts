// The spec's "Fixed/Tentative Lifecycle Example", day by day, on the real 2026 calendar.
// The spec labels 2026-03-15 a Saturday; it is a Sunday (the last day of ISO week 11), so
// 2026-03-16 opens W12. The rule itself is applied as written: a week is fixed once it has
// ended and 7 full days have passed since, i.e. from Monday 2026-03-23 (the spec's "Day 8,
// Monday"); a month from the 8th of the next month.
import { describe, expect, it } from 'vitest';
import { cycle, node, rawLog, statusOf } from '../helpers/tree.js';
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

async function day(ws: TestWorkspace, date: string, topic = 'hipocampus spec'): Promise<string[]> {
  ws.write(
    `memory/${date}.md`,
    rawLog(date, { [`${topic} [project]`]: [`worked on ${topic} on ${date}`, 'decided to keep ROOT.md under 3000 tokens'] }),
  );
  const r = await cycle(ws, date);
  expect(r.errors).toEqual([]);
  return r.written;
}

describe('the spec lifecycle example', () => {
  it('Day 1 builds the whole tree, tentative, in one cycle', async () => {
    const ws = makeWorkspace();
    const written = await day(ws, '2026-03-15');
    expect(written.sort()).toEqual(['ROOT.md', 'daily/2026-03-15.md', 'monthly/2026-03.md', 'weekly/2026-W11.md']);
    for (const rel of ['daily/2026-03-15.md', 'weekly/2026-W11.md', 'monthly/2026-03.md', 'ROOT.md'])
      expect(statusOf(ws, rel)).toBe('tentative');
    // ROOT has real content on day 1.
    const root = node(ws, 'ROOT.md').body;
    expect(root).toContain('## Topics Index');
    expect(root).toMatch(/- hipocampus spec \[project, 0d\]/);
  });

  it('Day 2 fixes yesterday, starts today, and rebuilds the month and ROOT', async () => {
    const ws = makeWorkspace();
    await day(ws, '2026-03-15');
    const written = await day(ws, '2026-03-16', 'qmd integration');
    expect(statusOf(ws, 'daily/2026-03-15.md')).toBe('fixed');
    expect(statusOf(ws, 'daily/2026-03-16.md')).toBe('tentative');
    expect(statusOf(ws, 'weekly/2026-W12.md')).toBe('tentative');
    expect(statusOf(ws, 'weekly/2026-W11.md')).toBe('tentative'); // ended, grace period running
    expect(written).toEqual(
      expect.arrayContaining(['daily/2026-03-15.md', 'daily/2026-03-16.md', 'weekly/2026-W12.md', 'monthly/2026-03.md', 'ROOT.md']),
    );
    const month = node(ws, 'monthly/2026-03.md');
    expect(month.data.weeks).toEqual(['2026-W11', '2026-W12']);
    expect(month.body).toContain('qmd integration');
    expect(month.body).toContain('hipocampus spec');
  });

  it('Day 8: the week is fixed only once 7 full days have passed after it ended', async () => {
    const ws = makeWorkspace();
    for (const date of ['2026-03-15', '2026-03-16', '2026-03-17', '2026-03-19', '2026-03-21', '2026-03-22']) await day(ws, date);
    expect(statusOf(ws, 'weekly/2026-W11.md')).toBe('tentative');
    await day(ws, '2026-03-23');
    expect(statusOf(ws, 'weekly/2026-W11.md')).toBe('fixed');
    for (const date of ['2026-03-15', '2026-03-16', '2026-03-17', '2026-03-19', '2026-03-21', '2026-03-22'])
      expect(statusOf(ws, `daily/${date}.md`)).toBe('fixed');
    expect(statusOf(ws, 'weekly/2026-W12.md')).toBe('tentative');
    expect(statusOf(ws, 'weekly/2026-W13.md')).toBe('tentative');
  });

  it('the month boundary: March is fixed on April 8, not on the 7th', async () => {
    const ws = makeWorkspace();
    const days = ['2026-03-15', '2026-03-20', '2026-03-26', '2026-03-30', '2026-03-31', '2026-04-01', '2026-04-03', '2026-04-07'];
    for (const date of days) await day(ws, date);
    expect(statusOf(ws, 'monthly/2026-03.md')).toBe('tentative');
    expect(statusOf(ws, 'monthly/2026-04.md')).toBe('tentative');
    await day(ws, '2026-04-08');
    expect(statusOf(ws, 'monthly/2026-03.md')).toBe('fixed');
    expect(statusOf(ws, 'monthly/2026-04.md')).toBe('tentative');
    expect(node(ws, 'ROOT.md').data['months-covered']).toBe('2026-03 to 2026-04 (2 months)');
    // W14 (Mar 30 - Apr 5) straddles: its March days are in March, its April days in April.
    const march = node(ws, 'monthly/2026-03.md').body;
    const april = node(ws, 'monthly/2026-04.md').body;
    expect(march).toContain('on 2026-03-31');
    expect(march).not.toContain('on 2026-04-01');
    expect(april).toContain('on 2026-04-01');
    expect(april).not.toContain('on 2026-03-31');
  });

  it('never fixes a parent while a day of its period is still pending', async () => {
    const ws = makeWorkspace();
    // Five old days appear at once; a normal cycle processes one daily node per cycle.
    for (const date of ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13'])
      ws.write(`memory/${date}.md`, rawLog(date, { 'import [project]': [`imported log ${date}`] }));
    const first = await cycle(ws, '2026-04-20');
    expect(first.written).toEqual(['daily/2026-03-13.md']); // most recent first, weekly waits
    expect(first.remaining.deferred.some((d) => d.relPath === 'weekly/2026-W11.md' && /waiting for/.test(d.reason))).toBe(true);
    expect(ws.exists('memory/weekly/2026-W11.md')).toBe(false);
    const rest = await cycle(ws, '2026-04-20', { catchUp: true });
    expect(rest.remaining.actions).toEqual([]);
    expect(statusOf(ws, 'weekly/2026-W11.md')).toBe('fixed');
    expect(node(ws, 'weekly/2026-W11.md').data['source-files']).toHaveLength(5);
  });
});

describe('days in the configured time zone', () => {
  it('turns a day fixed at local midnight, across a DST change (New York, 2026-03-08)', async () => {
    const ws = makeWorkspace({}, { timeZone: 'America/New_York' });
    ws.write('memory/2026-03-08.md', rawLog('2026-03-08', { 'dst day [project]': ['clocks jumped an hour'] }));
    // 23:30 on the 23-hour day, local time: still the 8th.
    await cycle(ws, '2026-03-09T03:30:00Z');
    expect(statusOf(ws, 'daily/2026-03-08.md')).toBe('tentative');
    // 00:30 local on the 9th.
    await cycle(ws, '2026-03-09T04:30:00Z');
    expect(statusOf(ws, 'daily/2026-03-08.md')).toBe('fixed');
  });

  it('uses the zone, not UTC, for "today" (pitfall 12)', async () => {
    const ws = makeWorkspace({}, { timeZone: 'Asia/Seoul' });
    ws.write('memory/2026-03-16.md', rawLog('2026-03-16', { 'early start [project]': ['09:00 KST standup'] }));
    // 2026-03-15T23:30Z is already 08:30 on the 16th in Seoul.
    await cycle(ws, '2026-03-15T23:30:00Z');
    expect(statusOf(ws, 'daily/2026-03-16.md')).toBe('tentative');
  });
});

describe('year edges', () => {
  it('files 2026-12-31 and 2027-01-01 under 2026-W53, and each under its own month', async () => {
    const ws = makeWorkspace();
    for (const date of ['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-04'])
      ws.write(`memory/${date}.md`, rawLog(date, { [`work on ${date} [project]`]: [`note ${date}`] }));
    await cycle(ws, '2027-01-20', { catchUp: true });
    expect(ws.files('memory/weekly')).toEqual(['memory/weekly/2026-W53.md', 'memory/weekly/2027-W01.md']);
    expect(node(ws, 'weekly/2026-W53.md').data).toMatchObject({ period: '2026-W53', dates: '2026-12-28 to 2027-01-03' });
    expect(node(ws, 'weekly/2026-W53.md').data['source-files']).toEqual([
      'memory/daily/2026-12-30.md',
      'memory/daily/2026-12-31.md',
      'memory/daily/2027-01-01.md',
    ]);
    const dec = node(ws, 'monthly/2026-12.md');
    const jan = node(ws, 'monthly/2027-01.md');
    expect(dec.data.weeks).toEqual(['2026-W53']);
    expect(dec.body).toContain('note 2026-12-31');
    expect(dec.body).not.toContain('note 2027-01-01');
    expect(jan.data.weeks).toEqual(['2026-W53', '2027-W01']);
    expect(jan.body).toContain('note 2027-01-01');
    expect(jan.body).not.toContain('note 2026-12-31');
  });
});
