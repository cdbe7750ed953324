// The SessionStart pack leaves out what the exclusion rules throw away, as summaries do.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EPHEMERAL_MARKERS } from '../../src/summarize/exclusion.js';
import { cycle, rawLog, sessionPack } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

describe('the pack and the exclusion rules', () => {
  it('leaves out sections marked to be thrown away, in daily copies and the latest entries', async () => {
    const day = (date: string) =>
      rawLog(date, {
        'search cutover [project]': [`${date}: 25% of /search on Postgres`],
        'scratch [project] temporary': ['test run of the flag, delete later'],
        'flag check [project]': ['PROBE-XYZ: ignore, delete later'],
      });
    const ws = makeWorkspace({ 'memory/2026-06-01.md': day('2026-06-01'), 'memory/2026-06-02.md': day('2026-06-02') });
    await cycle(ws, '2026-06-02', { catchUp: true });
    // The daily copy keeps everything (the spec's rule for copies); the pack does not show it.
    expect(ws.read('memory/daily/2026-06-01.md')).toContain('test run of the flag');
    const text = sessionPack(ws, '2026-06-02', { ephemeralMarkers: [...DEFAULT_EPHEMERAL_MARKERS] }).text;
    expect(text).toContain('2026-06-01: 25% of /search on Postgres');
    expect(text).toContain('2026-06-02: 25% of /search on Postgres');
    expect(text).not.toContain('test run of the flag');
    // A line marked inside a kept section is the section's: only headings decide.
    expect(text).toContain('PROBE-XYZ');
  });
});

describe('the latest entries', () => {
  it('are read from the top when the newest does not fit: the question, then the answer', async () => {
    const answer = ['**Monday**', '- tennis lesson, 6 pm', '**Tuesday**', '- easy run, 5 km', '**Wednesday**', '- rest'];
    const ws = makeWorkspace({
      'memory/2026-06-02.md': [
        '# 2026-06-02',
        '',
        '## Session 10',
        'Session Date: 2026-06-02',
        '',
        `User: I'm planning my workout week around my tennis lessons and a 10 km run; ${'can you fit cycling in too? '.repeat(4)}`,
        "Assistant: I'd be happy to help you plan your workout routine for the week.",
        ...answer.flatMap((l) => Array.from({ length: 8 }, () => l)),
        '',
      ].join('\n'),
    });
    await cycle(ws, '2026-06-02', { catchUp: true });
    const text = sessionPack(ws, '2026-06-02', { budget: 1500 }).text;
    const latest = text.slice(text.indexOf('## Latest entries · 2026-06-02.md'));
    expect(latest).toContain("User: I'm planning my workout week around my tennis lessons");
    // Lines are not taken past one that did not fit (the answer's short lines without the question).
    const lines = latest.trimEnd().split('\n');
    const user = lines.findIndex((l) => l.startsWith('User: '));
    expect(lines.slice(1, user).every((l) => !answer.includes(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^- … \d+ more lines in the file$/);
  });
});

describe('sections with nothing yet', () => {
  it('take no room in the pack: ROOT\'s "(none yet)" and a node\'s "(none)" topics', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-01.md': rawLog('2026-06-01', { 'search cutover [project]': ['25% of /search on Postgres'] }),
      // Nothing that names a topic: the daily copy's Topics says "(none)".
      'memory/2026-06-02.md': '# 2026-06-02\n\n## Session 1\n- ok\n',
    });
    await cycle(ws, '2026-06-03', { catchUp: true });
    expect(ws.read('memory/ROOT.md')).toMatch(/## Recent Patterns\n- \(none yet\)/);
    expect(ws.read('memory/daily/2026-06-02.md')).toMatch(/## Topics\n- \(none\)/);
    const text = sessionPack(ws, '2026-06-03').text;
    expect(text).toContain('25% of /search on Postgres');
    expect(text).not.toMatch(/\(none( yet)?\)/);
    expect(text).not.toContain('Recent Patterns');
  });
});
