// A daemon started on months of raw logs never compacted hands the backlog to child processes
// (`hipo compact --catch-up`, then `hipo index`) and ends with the tree a clean run builds.
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/lib/corpus.js';
import { readDaemonState } from '../../src/daemon/state.js';
import { workspaceAt } from '../../src/tree/layout.js';
import { daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { cycle } from '../helpers/tree.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const start = daemonsForTests();
const isRaw = (k: string) => /^memory\/\d{4}-\d{2}-\d{2}\.md$/.test(k);
const nodesOf = (ws: TestWorkspace) => Object.fromEntries(Object.entries(ws.hashes('memory')).filter(([k]) => !isRaw(k)));
const rawsOf = (ws: TestWorkspace) => Object.fromEntries(Object.entries(ws.hashes('memory')).filter(([k]) => isRaw(k)));

describe('daemon backlog', () => {
  it('works off 150 days in child processes: the same tree as a clean catch-up, and a current index', async () => {
    const ws = makeWorkspace({}, FAST_DAEMON);
    generateCorpus(ws.memoryDir, { start: '2026-01-05', days: 150, seed: 5 });
    const raws = rawsOf(ws);
    const clean = makeWorkspace({}, FAST_DAEMON);
    generateCorpus(clean.memoryDir, { start: '2026-01-05', days: 150, seed: 5 });
    await cycle(clean, '2026-06-20', { catchUp: true });

    const d = start(ws.root, { HIPO_NOW: '2026-06-20' });
    await d.waitFor((l) => l.event === 'backlog' && l.command === 'index', 90_000, 'the child index build');
    await d.until(() => {
      const st = readDaemonState(workspaceAt(ws.root));
      return st?.pid === d.child.pid && st.lastRun?.pending === 0 && st.indexedAt !== null;
    }, 60_000, 'the daemon to settle');
    expect(d.logs.find((l) => l.event === 'backlog' && l.command === 'compact')).toBeDefined();
    expect(d.logs.filter((l) => l.event === 'backlog-error')).toEqual([]);
    expect(nodesOf(ws)).toEqual(nodesOf(clean));
    expect(rawsOf(ws)).toEqual(raws);
    d.child.kill('SIGTERM');
    await d.exited;
    const idx = JSON.parse(runCli(['index', '--json', '--dir', ws.root]).stdout);
    expect(idx.added + idx.changed + idx.removed).toBe(0);
  }, 150_000);
});
