// The memory folder's watcher on a real file system: what it reports, when, and what it leaves
// out. Events are collected until an expected one arrives (the system's watch is asynchronous),
// then the whole list is compared, so a duplicate or a stray event fails the test.
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MemoryWatcher, type WatchEvent, watchMemory } from '../../src/daemon/watcher.js';
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

const SETTLE_MS = 80;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Seen {
  events: string[];
  touched: string[];
  errors: string[];
}

let watcher: MemoryWatcher | null = null;
afterEach(async () => {
  await watcher?.close();
  watcher = null;
});

function start(ws: TestWorkspace): Seen {
  const seen: Seen = { events: [], touched: [], errors: [] };
  const rel = (abs: string): string => abs.slice(ws.root.length + 1);
  watcher = watchMemory(ws, {
    writeFinishMs: SETTLE_MS,
    onChange: (abs: string, event: WatchEvent) => seen.events.push(`${event} ${rel(abs)}`),
    onTouch: (abs) => seen.touched.push(rel(abs)),
    onError: (err) => seen.errors.push(err.message),
  });
  return seen;
}

async function until(seen: Seen, event: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!seen.events.includes(event)) {
    if (Date.now() > end) throw new Error(`no "${event}" within ${ms} ms; saw ${JSON.stringify(seen.events)}`);
    await sleep(10);
  }
  // Anything that would follow it (a duplicate, a late stray event) has time to arrive.
  await sleep(SETTLE_MS * 3);
}

describe('watchMemory', () => {
  it('reports a new raw log once its writes settle, then each append as one change', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n' });
    const seen = start(ws);
    writeFileSync(join(ws.memoryDir, '2026-03-02.md'), '# 2026-03-02\n');
    // Written in several steps, each a system event: one report, not several. (Back to back, so
    // that a slow machine cannot stretch the gaps past the settle time and split them.)
    for (let i = 0; i < 3; i++) appendFileSync(join(ws.memoryDir, '2026-03-02.md'), `- line ${i}\n`);
    await until(seen, 'add memory/2026-03-02.md');
    appendFileSync(join(ws.memoryDir, '2026-03-01.md'), '- later\n');
    await until(seen, 'change memory/2026-03-01.md');
    expect(seen.events).toEqual(['add memory/2026-03-02.md', 'change memory/2026-03-01.md']);
    expect(seen.touched).toContain('memory/2026-03-02.md');
    expect(seen.errors).toEqual([]);
  });

  it('takes an atomic save (a temp file renamed over the log) for a change, and a removal for an unlink', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n', 'memory/daily/2026-03-01.md': 'node\n' });
    const seen = start(ws);
    writeFileSync(join(ws.memoryDir, '.2026-03-01.md.tmp'), '# 2026-03-01\n- saved by an editor\n');
    renameSync(join(ws.memoryDir, '.2026-03-01.md.tmp'), join(ws.memoryDir, '2026-03-01.md'));
    await until(seen, 'change memory/2026-03-01.md');
    unlinkSync(join(ws.memoryDir, 'daily', '2026-03-01.md'));
    await until(seen, 'unlink memory/daily/2026-03-01.md');
    // The temp file is hidden: never reported, never touched.
    expect(seen.events).toEqual(['change memory/2026-03-01.md', 'unlink memory/daily/2026-03-01.md']);
    expect(seen.touched.filter((t) => t.includes('.tmp'))).toEqual([]);
  });

  it('follows folders made inside the tree, and ignores hidden ones and files outside it', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n' });
    const seen = start(ws);
    writeFileSync(join(ws.root, 'notes.md'), 'outside the memory folder\n');
    mkdirSync(join(ws.memoryDir, '.cache'));
    writeFileSync(join(ws.memoryDir, '.cache', 'x.md'), 'hidden\n');
    mkdirSync(join(ws.memoryDir, 'weekly'));
    await until(seen, 'addDir memory/weekly');
    writeFileSync(join(ws.memoryDir, 'weekly', '2026-W10.md'), 'week\n');
    await until(seen, 'add memory/weekly/2026-W10.md');
    rmSync(join(ws.memoryDir, 'weekly'), { recursive: true });
    await until(seen, 'unlinkDir memory/weekly');
    expect(seen.events).toEqual(['addDir memory/weekly', 'add memory/weekly/2026-W10.md', 'unlinkDir memory/weekly']);
  });

  it.each([
    ['goes and comes back', true],
    // A restore from a backup: removed and made again before any event is read.
    ['is replaced at once', false],
  ])('sees the memory folder as it %s, and watches it again', async (_how, pause) => {
    const ws = makeWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n' });
    const seen = start(ws);
    rmSync(ws.memoryDir, { recursive: true });
    if (pause) await until(seen, 'unlinkDir memory');
    mkdirSync(ws.memoryDir);
    await until(seen, 'addDir memory');
    writeFileSync(join(ws.memoryDir, '2026-03-05.md'), '# 2026-03-05\n');
    await until(seen, 'add memory/2026-03-05.md');
    // The old folder's file is not reported gone one by one: the folder as a whole is new.
    expect(seen.events).toEqual(['unlinkDir memory', 'addDir memory', 'add memory/2026-03-05.md']);
    expect(seen.errors).toEqual([]);
  });

  it('watches a folder inside the tree replaced at once (removed and made again before the system says so)', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n', 'memory/weekly/2026-W09.md': 'week\n' });
    const seen = start(ws);
    // A restore from a backup: both changes are made before any event is read. The file system
    // may give the new folder the old one's inode number, so that alone cannot tell them apart.
    rmSync(join(ws.memoryDir, 'weekly'), { recursive: true });
    mkdirSync(join(ws.memoryDir, 'weekly'));
    await until(seen, 'addDir memory/weekly');
    writeFileSync(join(ws.memoryDir, 'weekly', '2026-W10.md'), 'week\n');
    await until(seen, 'add memory/weekly/2026-W10.md');
    expect(seen.events).toEqual(['unlinkDir memory/weekly', 'addDir memory/weekly', 'add memory/weekly/2026-W10.md']);
    expect(seen.errors).toEqual([]);
  });

  it('watches a memory folder that is a link to a folder kept elsewhere', async () => {
    const ws = makeWorkspace({ 'elsewhere/2026-03-01.md': '# 2026-03-01\n' });
    rmSync(ws.memoryDir, { recursive: true });
    symlinkSync(join(ws.root, 'elsewhere'), ws.memoryDir);
    const seen = start(ws);
    writeFileSync(join(ws.memoryDir, '2026-03-02.md'), '# 2026-03-02\n');
    await until(seen, 'add memory/2026-03-02.md');
    appendFileSync(join(ws.root, 'elsewhere', '2026-03-01.md'), '- written by the real path\n');
    await until(seen, 'change memory/2026-03-01.md');
    expect(seen.events).toEqual(['add memory/2026-03-02.md', 'change memory/2026-03-01.md']);
    expect(seen.errors).toEqual([]);
  });

  it('starts without a memory folder and picks it up when it is made', async () => {
    const ws = makeWorkspace({});
    rmSync(ws.memoryDir, { recursive: true });
    const seen = start(ws);
    mkdirSync(ws.memoryDir);
    await until(seen, 'addDir memory');
    writeFileSync(join(ws.memoryDir, '2026-03-01.md'), '# 2026-03-01\n');
    await until(seen, 'add memory/2026-03-01.md');
    expect(seen.events).toEqual(['addDir memory', 'add memory/2026-03-01.md']);
  });

  it('reports nothing after close', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n' });
    const seen = start(ws);
    appendFileSync(join(ws.memoryDir, '2026-03-01.md'), '- before close\n');
    await watcher!.close();
    await sleep(SETTLE_MS * 3);
    appendFileSync(join(ws.memoryDir, '2026-03-01.md'), '- after close\n');
    await sleep(SETTLE_MS * 3);
    expect(seen.events).toEqual([]);
  });
});
