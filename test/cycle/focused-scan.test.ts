// A resident process (the daemon) passes the tree as its last run left it and the files its
// watcher saw change; only those are looked at again. Whatever happens, the nodes it writes
// must be byte-identical to what a full scan writes.
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compact, type CompactResult } from '../../src/cycle/compaction.js';
import { StampCache } from '../../src/state/stamp-cache.js';
import type { TreeSnapshot } from '../../src/tree/snapshot.js';
import { nodeHashes, rawLog } from '../helpers/tree.js';
import { configOf, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

const NOW = '2026-04-09';
const DAYS = ['2026-01-05', '2026-02-10', '2026-03-10', '2026-03-11', '2026-04-07', '2026-04-08'];

function seeded(): TestWorkspace {
  const ws = makeWorkspace();
  for (const d of DAYS)
    ws.write(`memory/${d}.md`, rawLog(d, { [`topic of ${d.slice(0, 7)} [project]`]: [`decided something on ${d}`, 'kept the parser'] }));
  return ws;
}

/** The same edits, step by step; each returns the memory-relative paths it touched. */
const steps: ((ws: TestWorkspace) => string[])[] = [
  (ws) => {
    appendFileSync(join(ws.memoryDir, '2026-04-08.md'), '\n## late note [feedback]\n- rule: answer in English\n');
    return ['2026-04-08.md'];
  },
  (ws) => {
    ws.write('memory/2026-04-09.md', rawLog('2026-04-09', { 'today [project]': ['started the focused scan'] }));
    return ['2026-04-09.md'];
  },
  (ws) => {
    rmSync(join(ws.memoryDir, 'daily', '2026-03-11.md'));
    return ['daily/2026-03-11.md'];
  },
  (ws) => {
    ws.write('memory/2026-02-30.md', '# not a day\n- x\n');
    return ['2026-02-30.md'];
  },
  (ws) => {
    rmSync(join(ws.memoryDir, '2026-02-30.md'));
    appendFileSync(join(ws.memoryDir, '2026-04-09.md'), '\n## more [project]\n- second entry\n');
    return ['2026-02-30.md', '2026-04-09.md'];
  },
  (ws) => {
    ws.write('memory/2026-04-9.md', rawLog('2026-04-09', { 'typo [project]': ['a day written without its zero'] }));
    return ['2026-04-9.md'];
  },
  (ws) => {
    appendFileSync(join(ws.memoryDir, '2026-04-9.md'), '\n## still [project]\n- not renamed\n');
    return ['2026-04-9.md'];
  },
  (ws) => {
    rmSync(join(ws.memoryDir, '2026-04-9.md'));
    return ['2026-04-9.md'];
  },
];

interface Step {
  nodes: Record<string, string>;
  written: string[];
  problems: string[];
}

async function runAll(focused: boolean): Promise<Step[]> {
  const ws = seeded();
  const config = configOf(ws);
  const cache = StampCache.empty();
  const run = (known?: { tree: TreeSnapshot; changed: string[] }): Promise<CompactResult> =>
    compact(ws, config, { now: NOW, catchUp: true, ...(focused ? { cache, known, saveCache: false } : {}) });
  let tree = (await run()).tree;
  const out: Step[] = [];
  for (const step of steps) {
    const changed = step(ws);
    const r = await run(focused ? { tree, changed } : undefined);
    tree = r.tree;
    out.push({ nodes: nodeHashes(ws), written: r.written, problems: r.problems.map((p) => p.file) });
  }
  return out;
}

describe('focused runs (the daemon: previous tree + the files the watcher reported)', () => {
  it('write exactly what full scans write, step by step', async () => {
    const focused = await runAll(true);
    const full = await runAll(false);
    expect(focused).toEqual(full);
    // The steps did something: late entry, new day, a node deleted by hand, a bad file name.
    expect(full[0]!.written).toContain('daily/2026-04-08.md');
    expect(full[1]!.written).toContain('daily/2026-04-09.md');
    expect(full[2]!.written).toContain('daily/2026-03-11.md');
    expect(full[3]!.problems).toEqual(['memory/2026-02-30.md']);
    expect(full[4]!.problems).toEqual([]);
    expect(full.slice(5).map((s) => s.problems)).toEqual([['memory/2026-04-9.md'], ['memory/2026-04-9.md'], []]);
  });

  it('take unreported files as they were; the next full scan finds them', async () => {
    const ws = seeded();
    const config = configOf(ws);
    const cache = StampCache.empty();
    const first = await compact(ws, config, { now: NOW, catchUp: true, cache });
    appendFileSync(join(ws.memoryDir, '2026-04-08.md'), '\n## unseen [project]\n- the watcher missed this one\n');
    const focused = await compact(ws, config, { now: NOW, cache, known: { tree: first.tree, changed: [] } });
    expect(focused.written).toEqual([]);
    const full = await compact(ws, config, { now: NOW, cache });
    expect(full.written).toContain('daily/2026-04-08.md');
    expect(ws.read('memory/daily/2026-04-08.md')).toContain('missed this one');
  });
});
