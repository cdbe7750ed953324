// One-shot commands handing their work to a running daemon over `.hipo/daemon.sock`: the real
// daemon child process, the real `hipo` CLI, a real Unix socket.
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askDaemon } from '../../src/daemon/ask.js';
import { loadedModules, loadReportingEnv } from '../helpers/loaded.js';
import { daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { node, rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli, runCliAsync } from '../helpers/workspace.js';

const start = daemonsForTests();

/**
 * `slow`: the watcher reports a change only after 20 s of quiet, so only the socket can see it
 * sooner (with room for a command that takes seconds to start on a loaded machine).
 */
function workspace(slow = false) {
  const ws = makeWorkspace(
    {},
    slow ? { ...FAST_DAEMON, daemon: { ...FAST_DAEMON.daemon, debounceMs: 20_000, writeFinishMs: 20_000 } } : FAST_DAEMON,
  );
  for (const date of ['2026-06-01', '2026-06-02']) ws.write(`memory/${date}.md`, rawLog(date, { [`work ${date} [project]`]: ['started'] }));
  ws.write('now.txt', '2026-06-02');
  return { ws, env: { HIPO_NOW_FILE: join(ws.root, 'now.txt') } };
}

describe('hipo compact with a daemon running', () => {
  it('is run by the daemon, which sees a line appended just before, on an owner-only socket', async () => {
    const { ws, env } = workspace(true);
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the catch-up and first index');
    expect(statSync(join(ws.stateDir, 'daemon.sock')).mode & 0o777).toBe(0o600);
    // Appended and compacted at once: no time for the watcher to report the change first.
    appendFileSync(join(ws.root, 'memory/2026-06-02.md'), '- decided to hand compaction to the daemon\n');
    const r = runCli(['compact', '--dir', ws.root], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/regenerate daily\/2026-06-02\.md/);
    expect(r.stdout).toMatch(/run by the daemon/);
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('decided to hand compaction to the daemon');
    await d.waitFor((l) => l.event === 'cycle' && l.reason === 'hipo compact', 5000, "the daemon's log of that cycle");
    // --json says so too; nothing left to do now. The command loaded no compaction code.
    const again = runCli(['compact', '--json', '--dir', ws.root], { env: { ...env, ...loadReportingEnv() } });
    const j = JSON.parse(again.stdout);
    expect(j.searchIndex).toEqual({ updated: false, byDaemon: true });
    expect(j.cycles).toBe(0);
    const loaded = loadedModules(again.stderr);
    expect(loaded).toContain('dist/daemon/ask.js');
    expect(loaded.filter((m) => /^dist\/(cycle|summarize|plan|compose|index)\//.test(m) || m.startsWith('node_modules/chokidar'))).toEqual(
      [],
    );
  });

  it('is done by the command itself for another clock, a dry run or a catch-up', async () => {
    const { ws, env } = workspace();
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const cycles = () => d.logs.filter((l) => l.event === 'cycle').length;
    const before = cycles();
    for (const args of [['--now', '2026-06-02'], ['--dry-run'], ['--catch-up']]) {
      const r = await runCliAsync(['compact', ...args, '--dir', ws.root], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/run by the daemon/);
    }
    expect(cycles()).toBe(before);
  });

  it('falls back to doing the work when the daemon is gone, even past a stale socket', async () => {
    const { ws, env } = workspace();
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    d.child.kill('SIGTERM');
    await d.exited;
    expect(ws.exists('.hipo/daemon.sock')).toBe(false);
    appendFileSync(join(ws.root, 'memory/2026-06-02.md'), '- no daemon now\n');
    const local = runCli(['compact', '--dir', ws.root], { env });
    expect(local.code).toBe(0);
    expect(local.stdout).not.toMatch(/run by the daemon/);
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('no daemon now');
    // A daemon killed outright leaves its socket file: nobody answers on it.
    const killed = start(ws.root, env);
    await killed.waitFor((l) => l.event === 'listening');
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(ws.exists('.hipo/daemon.sock')).toBe(true);
    appendFileSync(join(ws.root, 'memory/2026-06-02.md'), '- after a crash\n');
    const afterCrash = runCli(['compact', '--dir', ws.root], { env });
    expect(afterCrash.code).toBe(0);
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('after a crash');
    // The next daemon takes the socket over.
    const next = start(ws.root, env);
    await next.waitFor((l) => l.event === 'listening');
    expect(await askDaemon<{ pid: number }>(ws, { op: 'ping', clock: `file:${env.HIPO_NOW_FILE}` }, 5000)).toEqual({
      ok: true,
      result: { pid: next.child.pid },
    });
  });

  it('answers a search request from the index it keeps open', async () => {
    const { ws, env } = workspace();
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors'] }));
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const clock = `file:${env.HIPO_NOW_FILE}`;
    const answer = await askDaemon<{ hits: { path: string }[]; mode: string }>(
      ws,
      { op: 'search', clock, query: 'zeppelin hangar', options: { mode: 'bm25', limit: 5 } },
      10_000,
    );
    expect(answer?.ok).toBe(true);
    if (!answer?.ok) return;
    expect(answer.result.mode).toBe('bm25');
    expect(answer.result.hits.map((h) => h.path)).toContain('memory/2026-06-02.md');
    // Another clock: the daemon declines and the caller does the work itself.
    expect(await askDaemon(ws, { op: 'search', clock: 'now:2026-06-09', query: 'zeppelin', options: {} }, 5000)).toBeNull();
  });
});

describe('askDaemon without a daemon', () => {
  it('answers null at once when there is no socket, or only a file in its place', async () => {
    const ws = makeWorkspace();
    const t0 = performance.now();
    expect(await askDaemon(ws, { op: 'ping', clock: null }, 5000)).toBeNull();
    ws.write('.hipo/daemon.sock', 'not a socket');
    expect(await askDaemon(ws, { op: 'ping', clock: null }, 5000)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(4000);
    writeFileSync(join(ws.stateDir, 'daemon.sock'), '');
  });
});
