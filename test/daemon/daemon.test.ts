// hipo daemon as a real child process: catching up, following changes, one writer, clean stops.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { cycle, node, nodeHashes, rawLog, statusOf } from '../helpers/tree.js';
import { makeWorkspace, runCli, runCliAsync } from '../helpers/workspace.js';

const start = daemonsForTests();

describe('hipo daemon', () => {
  it('catches up on start, then follows a raw log as it is written', async () => {
    const ws = makeWorkspace({}, FAST_DAEMON);
    for (const date of ['2026-06-01', '2026-06-02', '2026-06-03'])
      ws.write(`memory/${date}.md`, rawLog(date, { [`work ${date} [project]`]: ['started'] }));
    ws.write('now.txt', '2026-06-03');
    const d = start(ws.root, { HIPO_NOW_FILE: join(ws.root, 'now.txt') });
    await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the end of the catch-up');
    expect(statusOf(ws, 'daily/2026-06-01.md')).toBe('fixed');
    expect(statusOf(ws, 'daily/2026-06-03.md')).toBe('tentative');
    ws.write('memory/2026-06-03.md', rawLog('2026-06-03', { 'work 2026-06-03 [project]': ['started', 'decided to follow the log live'] }));
    const changed = await d.waitFor(
      (l) => l.event === 'cycle' && String(l.reason).startsWith('change: 2026-06-03.md'),
      20_000,
      'a cycle for the change',
    );
    expect(changed.written).toEqual(['daily/2026-06-03.md', 'weekly/2026-W23.md', 'monthly/2026-06.md', 'ROOT.md']);
    expect(node(ws, 'weekly/2026-W23.md').body).toContain('decided to follow the log live');
    // ...and the search index with it: searchable without `hipo search` updating anything.
    const indexed = await d.waitFor(
      (l) => l.event === 'index' && Date.parse(l.at) >= Date.parse(changed.at),
      20_000,
      'the index update after the change',
    );
    // It looked at the raw log and the four nodes it wrote, not at every file of the tree.
    expect(indexed.looked).toBe(5);
    const found = JSON.parse(runCli(['search', 'follow the log live', '--mode', 'bm25', '--no-update', '--json', '--dir', ws.root]).stdout);
    expect(found.hits.map((h: { path: string }) => h.path)).toContain('memory/2026-06-03.md');
    // Its own writes do not trigger cycles: after the change settles, no more cycles run.
    const count = d.logs.filter((l) => l.event === 'cycle').length;
    await new Promise((r) => setTimeout(r, 800));
    expect(d.logs.filter((l) => l.event === 'cycle').length).toBe(count);
  });

  it('turns nodes fixed on the heartbeat when the day changes, with no file written', async () => {
    const ws = makeWorkspace({}, { ...FAST_DAEMON, daemon: { ...FAST_DAEMON.daemon, heartbeat: '* * * * * *' } });
    ws.write('memory/2026-06-01.md', rawLog('2026-06-01', { 'late night [project]': ['still working'] }));
    ws.write('now.txt', '2026-06-01');
    const d = start(ws.root, { HIPO_NOW_FILE: join(ws.root, 'now.txt') });
    await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the first cycle');
    expect(statusOf(ws, 'daily/2026-06-01.md')).toBe('tentative');
    // Let any echo settle, then move the clock: only the heartbeat can notice.
    await new Promise((r) => setTimeout(r, 500));
    const before = d.logs.filter((l) => l.event === 'cycle').length;
    writeFileSync(join(ws.root, 'now.txt'), '2026-06-02');
    await d.until(() => statusOf(ws, 'daily/2026-06-01.md') === 'fixed', 20_000, 'the heartbeat fix');
    await d.waitFor((l) => l.event === 'cycle' && /heartbeat/.test(String(l.reason)), 5000, 'the heartbeat cycle in the log');
    expect(
      d.logs
        .filter((l) => l.event === 'cycle')
        .slice(before)
        .every((l) => /heartbeat/.test(String(l.reason))),
    ).toBe(true);
  });

  it('refuses a second daemon for the same workspace, naming the first', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['y'] }) }, FAST_DAEMON);
    const d = start(ws.root, { HIPO_NOW: '2026-06-01' });
    await d.waitFor((l) => l.event === 'start');
    const second = runCli(['daemon', '--dir', ws.root], { env: { HIPO_NOW: '2026-06-01' }, timeoutMs: 20_000 });
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(new RegExp(`another hipo daemon is already running for .* \\(pid ${d.child.pid}, since `));
  });

  it('takes over a daemon lock left by a dead process', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['y'] }) }, FAST_DAEMON);
    ws.write(
      '.hipo/daemon.lock',
      JSON.stringify({ pid: 2 ** 22 + 4321, command: 'daemon', since: '2026-01-01T00:00:00Z', host: hostname() }),
    );
    const d = start(ws.root, { HIPO_NOW: '2026-06-01' });
    await d.waitFor((l) => l.event === 'start');
    await d.until(() => ws.exists('memory/ROOT.md'));
  });

  it('stops cleanly on SIGTERM and SIGINT: exit 0, locks released, status says so', async () => {
    // In its worker thread (a bounded young generation), and on the main thread when asked.
    const runs = [
      ['SIGTERM', {}, 6],
      ['SIGINT', {}, 6],
      ['SIGTERM', { HIPO_DAEMON_THREAD: '0' }, null],
    ] as const;
    for (const [signal, env, youngGenerationMb] of runs) {
      const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['y'] }) }, FAST_DAEMON);
      const d = start(ws.root, { HIPO_NOW: '2026-06-01', ...env });
      expect(await d.waitFor((l) => l.event === 'start')).toMatchObject({ pid: d.child.pid, youngGenerationMb });
      await d.until(() => ws.exists('memory/ROOT.md'));
      await d.until(() => JSON.parse(ws.read('.hipo/daemon.json')).indexedAt !== null, 20_000, 'the index update');
      const live = JSON.parse(runCli(['status', '--json', '--dir', ws.root]).stdout);
      expect(live.daemon).toMatchObject({ running: true, pid: d.child.pid });
      d.child.kill(signal);
      expect(await d.exited).toEqual({ code: 0, signal: null });
      expect(ws.exists('.hipo/daemon.lock')).toBe(false);
      expect(ws.exists('.hipo/lock')).toBe(false);
      const after = JSON.parse(runCli(['status', '--json', '--dir', ws.root]).stdout);
      expect(after.daemon).toMatchObject({ running: false, pid: d.child.pid });
      expect(after.daemon.stoppedAt).toEqual(expect.any(String));
      // Its last run left nothing pending and the search index current.
      expect(after.daemon.lastRun).toMatchObject({ pending: 0 });
      expect(after.daemon.indexedAt).toEqual(expect.any(String));
    }
  });

  it('outlives its log: when the reader of its stderr goes away, it stops logging and goes on', async () => {
    for (const env of [{}, { HIPO_DAEMON_THREAD: '0' }]) {
      const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['first'] }) }, FAST_DAEMON);
      const d = start(ws.root, { HIPO_NOW: '2026-06-01', ...env });
      await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the end of the catch-up');
      // The pipe's read end closes (`hipo daemon 2>&1 | head -1`): every line from here on meets EPIPE.
      d.child.stderr!.destroy();
      appendFileSync(join(ws.memoryDir, '2026-06-01.md'), '- written after the log reader left\n');
      await d.until(() => node(ws, 'daily/2026-06-01.md').body.includes('after the log reader left'), 20_000, 'the new line');
      appendFileSync(join(ws.memoryDir, '2026-06-01.md'), '- and another after that\n');
      await d.until(() => node(ws, 'daily/2026-06-01.md').body.includes('another after that'), 20_000, 'the second line');
      expect(d.child.exitCode, JSON.stringify(env)).toBeNull();
      expect(JSON.parse(runCli(['status', '--json', '--dir', ws.root]).stdout).daemon).toMatchObject({ running: true, pid: d.child.pid });
      d.child.kill('SIGTERM');
      expect(await d.exited).toEqual({ code: 0, signal: null });
    }
  });

  // Between heartbeats a run looks only at the files the watcher reported, on top of the tree
  // its last run left: what other writers do to the tree must reach that picture.
  it('keeps up with other writers between heartbeats: ends as a clean catch-up builds the tree', async () => {
    const now = '2026-06-12';
    const days = Array.from({ length: 10 }, (_, i) => `2026-06-${String(i + 1).padStart(2, '0')}`);
    const entries = (date: string) => ({ [`work ${date} [project]`]: ['started', `decided on plan ${date}`] });
    const ws = makeWorkspace({}, FAST_DAEMON);
    const clean = makeWorkspace({}, FAST_DAEMON);
    for (const date of days) for (const w of [ws, clean]) w.write(`memory/${date}.md`, rawLog(date, entries(date)));
    const d = start(ws.root, { HIPO_NOW: now });
    await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the end of the catch-up');
    const cycles = () => d.logs.filter((l) => l.event === 'cycle').length;
    const settled = () =>
      JSON.parse(runCli(['compact', '--dry-run', '--json', '--now', now, '--dir', ws.root]).stdout).plan.actions.length === 0;

    // 1. A raw log grows and `hipo compact` from a shell gets there first.
    const more = '\n## late addition [project]\n- decided to keep the daemon honest\n';
    for (const w of [ws, clean]) appendFileSync(join(w.root, 'memory/2026-06-10.md'), more);
    expect((await runCliAsync(['compact', '--now', now, '--dir', ws.root])).code).toBe(0);
    // 2. Someone deletes a daily node by hand.
    let before = cycles();
    rmSync(join(ws.root, 'memory/daily/2026-06-03.md'));
    await d.until(() => ws.exists('memory/daily/2026-06-03.md') && cycles() > before, 20_000, 'the deleted node to come back');
    // 3. A new day's raw log appears.
    before = cycles();
    for (const w of [ws, clean]) w.write('memory/2026-06-11.md', rawLog('2026-06-11', entries('2026-06-11')));
    await d.until(() => ws.exists('memory/daily/2026-06-11.md'), 20_000, 'the new day');
    await d.until(settled, 20_000, 'the tree to settle');
    // Every run since the catch-up was a change run, not a heartbeat's full scan.
    expect(
      d.logs
        .filter((l) => l.event === 'cycle')
        .slice(1)
        .every((l) => !/heartbeat|start/.test(String(l.reason))),
    ).toBe(true);

    await cycle(clean, now, { catchUp: true });
    expect(nodeHashes(ws)).toEqual(nodeHashes(clean));
    expect(node(ws, 'weekly/2026-W24.md').body).toContain('decided to keep the daemon honest');
  }, 60_000);

  it('lets `hipo compact` wait for the lock instead of interleaving', async () => {
    const ws = makeWorkspace({}, { ...FAST_DAEMON, compaction: { limits: { daily: 1, weekly: 1, monthly: 1, root: 1 } } });
    for (let i = 1; i <= 28; i++) {
      const date = `2026-02-${String(i).padStart(2, '0')}`;
      ws.write(`memory/${date}.md`, rawLog(date, { [`day ${i} [project]`]: ['notes'] }));
    }
    const d = start(ws.root, { HIPO_NOW: '2026-03-20' });
    await d.waitFor((l) => l.event === 'cycle');
    const r = await runCliAsync(['compact', '--catch-up', '--json', '--now', '2026-03-20', '--dir', ws.root]);
    expect(r.code).toBe(0);
    await d.until(() => ws.exists('memory/ROOT.md'));
    await d.until(
      () =>
        JSON.parse(runCli(['compact', '--dry-run', '--json', '--now', '2026-03-20', '--dir', ws.root]).stdout).plan.actions.length === 0,
      30_000,
      'the tree to settle',
    );
    expect(ws.files('memory/daily')).toHaveLength(28);
  });
});
