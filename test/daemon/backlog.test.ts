// A daemon started on months of raw logs never compacted hands the backlog to child processes
// (`hipo compact --catch-up`, then `hipo index`) and ends with the tree a clean run builds.
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/lib/corpus.js';
import { caughtUp, daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { cycle, nodeHashes, rawLogHashes } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const start = daemonsForTests();

describe('daemon backlog', () => {
  it('works off 150 days in child processes: the same tree as a clean catch-up, and a current index', async () => {
    const ws = makeWorkspace({}, FAST_DAEMON);
    generateCorpus(ws.memoryDir, { start: '2026-01-05', days: 150, seed: 5 });
    const raws = rawLogHashes(ws);
    const clean = makeWorkspace({}, FAST_DAEMON);
    generateCorpus(clean.memoryDir, { start: '2026-01-05', days: 150, seed: 5 });
    await cycle(clean, '2026-06-20', { catchUp: true });

    const d = start(ws.root, { HIPO_NOW: '2026-06-20' });
    await d.waitFor((l) => l.event === 'backlog' && l.command === 'index', 90_000, 'the child index build');
    await d.until(() => caughtUp(d, ws.root), 60_000, 'the daemon to settle');
    expect(d.logs.find((l) => l.event === 'backlog' && l.command === 'compact')).toBeDefined();
    expect(d.logs.filter((l) => l.event === 'backlog-error')).toEqual([]);
    expect(nodeHashes(ws)).toEqual(nodeHashes(clean));
    expect(rawLogHashes(ws)).toEqual(raws);
    d.child.kill('SIGTERM');
    await d.exited;
    const idx = JSON.parse(runCli(['index', '--json', '--dir', ws.root]).stdout);
    expect(idx.added + idx.changed + idx.removed).toBe(0);
  }, 150_000);
});
