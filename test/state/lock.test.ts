import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockBusy, lockPath } from '../../src/state/lock.js';
import { cycle, rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCliAsync } from '../helpers/workspace.js';

describe('the workspace lock', () => {
  it('makes a second writer wait, then give up naming the holder', async () => {
    const ws = makeWorkspace();
    const held = await acquireLock(ws, 'daemon', 100);
    await expect(acquireLock(ws, 'compact', 300)).rejects.toThrow(LockBusy);
    await expect(acquireLock(ws, 'compact', 300)).rejects.toThrow(new RegExp(`pid ${process.pid}, "daemon"`));
    held.release();
    const next = await acquireLock(ws, 'compact', 300);
    next.release();
  });

  it('takes over a lock left by a dead process', async () => {
    const ws = makeWorkspace();
    const { hostname } = await import('node:os');
    await acquireLock(ws, 'x', 10).then((l) => l.release());
    writeFileSync(
      lockPath(ws),
      JSON.stringify({ pid: 2 ** 22 + 12345, command: 'compact', since: '2026-01-01T00:00:00Z', host: hostname() }),
    );
    const lock = await acquireLock(ws, 'compact', 100);
    lock.release();
  });

  it('serialises concurrent compactions: no interleaving, every node written once and whole', async () => {
    const ws = makeWorkspace();
    for (const date of ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04'])
      ws.write(`memory/${date}.md`, rawLog(date, { [`work ${date} [project]`]: ['did things'] }));
    const runs = await Promise.all(
      [1, 2, 3].map(() => runCliAsync(['compact', '--catch-up', '--now', '2026-06-20', '--json', '--dir', ws.root])),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    const written = runs.flatMap((r) => JSON.parse(r.stdout).written as string[]);
    // Each node was written by exactly one of the three processes.
    expect(written.filter((w) => w.startsWith('daily/')).sort()).toEqual([
      'daily/2026-06-01.md',
      'daily/2026-06-02.md',
      'daily/2026-06-03.md',
      'daily/2026-06-04.md',
    ]);
    expect(new Set(written).size).toBe(written.length);
    const again = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(again.written).toEqual([]);
  });
});
