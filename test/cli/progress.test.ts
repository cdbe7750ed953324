// Progress of long work: counts, elapsed time and ETA on a terminal, plain lines in logs, and
// the compaction's own progress events for a catch-up.
import { describe, expect, it } from 'vitest';
import { formatDuration, progressSink } from '../../src/cli/progress.js';
import type { CompactProgress } from '../../src/cycle/compaction.js';
import { cycle, rawLog } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

function fakeStream(tty: boolean) {
  const out: string[] = [];
  return { out, stream: { isTTY: tty, columns: 120, write: (s: string) => void out.push(s) } as unknown as NodeJS.WriteStream };
}

describe('progress display', () => {
  it('on a terminal: a bar with counts, time so far, the time left and the item in hand', () => {
    let t = 0;
    const { out, stream } = fakeStream(true);
    const sink = progressSink(stream, () => undefined, { plain: true, delayMs: 2000, now: () => t });
    sink.update({ phase: 'compact', done: 0, total: 100, detail: 'daily/2026-01-01.md' });
    expect(out).toEqual([]); // nothing for work that may end within two seconds
    t = 4000;
    sink.update({ phase: 'compact', done: 20, total: 100, detail: 'daily/2026-01-21.md' });
    expect(out.at(-1)).toBe('\r[#####...................]  20% compacting 20/100 · 4 s, ETA 16 s · daily/2026-01-21.md\u001b[K');
    t = 4050;
    sink.update({ phase: 'compact', done: 21, total: 100 });
    expect(out).toHaveLength(1); // redrawn at most every 80 ms
    t = 10_000;
    sink.update({ phase: 'embed', done: 500, total: 1000 });
    expect(out.at(-2)).toBe('\n'); // a new phase starts on a new line
    expect(out.at(-1)).toMatch(/^\r\[#{12}\.{12}\] {2}50% embedding chunks 500\/1,000 · 0 s\u001b\[K$/);
    sink.done();
    expect(out.at(-1)).toBe('\n');
  });

  it('in a log: a plain line per tenth of the work, with the time left once it is known', () => {
    let t = 0;
    const lines: string[] = [];
    const sink = progressSink(fakeStream(false).stream, (l) => lines.push(l), { plain: true, delayMs: 0, now: () => t });
    for (let i = 0; i <= 40; i++) {
      t = i * 500;
      sink.update({ phase: 'files', done: i, total: 40 });
    }
    sink.done();
    expect(lines[0]).toBe('  reading files 0/40 (0%)');
    expect(lines[1]).toBe('  reading files 4/40 (10%, ETA 18 s)');
    expect(lines.at(-1)).toBe('  reading files 40/40 (100%)');
    expect(lines).toHaveLength(11);
    const quiet: string[] = [];
    const off = progressSink(fakeStream(false).stream, (l) => quiet.push(l), { plain: false, delayMs: 0 });
    off.update({ phase: 'files', done: 1, total: 2 });
    expect(quiet).toEqual([]); // --json: nothing on a pipe
  });

  it('formats durations for people', () => {
    expect([formatDuration(400), formatDuration(59_600), formatDuration(200_000), formatDuration(3_900_000)]).toEqual([
      '0 s',
      '1 min 00 s',
      '3 min 20 s',
      '1 h 05 min',
    ]);
  });

  it('a catch-up reports each node it writes against the work it has left', async () => {
    const files: Record<string, string> = {};
    for (let d = 1; d <= 9; d++) files[`memory/2026-02-0${d}.md`] = rawLog(`2026-02-0${d}`, { 'deploys [project]': [`note ${d}`] });
    const ws = makeWorkspace(files);
    const events: CompactProgress[] = [];
    const r = await cycle(ws, '2026-03-20', { catchUp: true, onProgress: (p) => events.push(p) });
    // One event before each action, and one at the end with everything done.
    expect(events).toHaveLength(r.applied.length + 1);
    expect(events.map((e) => e.done)).toEqual(events.map((_, i) => i));
    expect(events[0]!.total).toBeGreaterThanOrEqual(9);
    expect(events.slice(0, -1).every((e) => e.done < e.total)).toBe(true);
    expect(events.map((e) => e.detail)).toContain('daily/2026-02-05.md');
    expect(events.at(-2)!.detail).toBe('ROOT.md');
    expect(events.at(-1)).toEqual({ phase: 'compact', done: r.applied.length, total: r.applied.length, detail: '' });
  });
});
