// Locks under abuse: many processes racing to take over a stale lock, hooks fired in parallel
// bursts while stale locks are planted, and locks whose holder can no longer be checked the
// usual way (its pid reused after a reboot, its host renamed, its file left empty by a full disk).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../helpers/daemon.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli, runCliAsync, type TestWorkspace } from '../helpers/workspace.js';
import { figure, scale } from './scale.js';

const DRIVER = join(import.meta.dirname, 'lock-driver.mjs');
/** Above the kernel's pid limit (2^22): never a live process. */
const DEAD_PID = 2 ** 22 + 777;
const LONG_AGO = new Date('2020-01-01T00:00:00Z');

const children: { kill(): void }[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, args, { stdio: 'ignore' });
    c.on('exit', (code) => resolve(code));
  });
}

/** Reads a contenders' trace: how many entered, how many found the lock already held, how many failed. */
function traceOf(text: string): { entered: number; overlapping: number; failed: string[] } {
  let holder: string | null = null;
  let entered = 0;
  let overlapping = 0;
  const failed: string[] = [];
  for (const line of text.split('\n').filter(Boolean)) {
    const [what, id] = line.split(' ');
    if (what === 'enter') {
      entered++;
      if (holder !== null) overlapping++;
      holder = id!;
    } else if (what === 'exit') {
      if (holder === id) holder = null;
    } else failed.push(line);
  }
  return { entered, overlapping, failed };
}

function plant(ws: TestWorkspace, name: string, content: string, mtime?: Date): void {
  mkdirSync(ws.stateDir, { recursive: true });
  const file = join(ws.stateDir, name);
  writeFileSync(file, content);
  if (mtime) utimesSync(file, mtime, mtime);
}

const SESSION = '5e1d7c3a-2b4f-4e6a-8c9d-0a1b2c3d4e5f';

function captureHook(ws: TestWorkspace, transcript: string, event = 'Stop', session = SESSION) {
  return runCliAsync(['hook', event, '--dir', ws.root], {
    input: hookJson(event, { session_id: session, cwd: ws.root, transcript_path: transcript }),
  });
}

describe('faults: locks', () => {
  it(
    'never lets two processes hold the append lock while they race to take over a stale one',
    async () => {
      const trials = scale(24, 200);
      const contenders = 6;
      let overlapping = 0;
      let entered = 0;
      let failed = 0;
      let trialsWithTwoHolders = 0;
      for (let t = 0; t < trials; t++) {
        const ws = makeWorkspace();
        // A lock left by a process that died: every contender judges it stale at the same moment.
        plant(ws, 'append.lock', JSON.stringify({ pid: DEAD_PID, command: 'append', since: '2026-01-01T00:00:00Z', host: hostname() }));
        const trace = join(ws.root, 'trace.txt');
        writeFileSync(trace, '');
        const at = Date.now() + 500;
        await Promise.all(Array.from({ length: contenders }, (_, i) => run([DRIVER, ws.root, trace, String(i), String(at), '4'])));
        const r = traceOf(readFileSync(trace, 'utf8'));
        overlapping += r.overlapping;
        entered += r.entered;
        failed += r.failed.length;
        if (r.overlapping) trialsWithTwoHolders++;
      }
      figure('stale-lock takeover races', { trials, contenders, entered, trialsWithTwoHolders, overlapping, failed });
      expect(trialsWithTwoHolders).toBe(0);
      expect(failed).toBe(0);
      expect(entered).toBe(trials * contenders);
    },
    scale(120_000, 900_000),
  );

  it(
    'archives every turn exactly once over bursts of parallel hooks, with stale locks planted between bursts',
    async () => {
      const ws = makeWorkspace();
      const sessions = Array.from({ length: 4 }, (_, s) => `${s}${SESSION.slice(1)}`);
      const writers = sessions.map((id) => new TranscriptWriter(id, '2026-03-15T09:00:00.000Z'));
      const paths = sessions.map((_, s) => join(ws.root, `session-${s}.jsonl`));
      writers.forEach((w, s) => w.writeTo(paths[s]!));
      const totalHooks = scale(150, 1000);
      const burst = 10;
      const markers: string[] = [];
      let fired = 0;
      let round = 0;
      const stale = [
        () =>
          plant(ws, 'append.lock', JSON.stringify({ pid: DEAD_PID, command: 'append', since: '2026-01-01T00:00:00Z', host: hostname() })),
        () => plant(ws, 'append.lock', '', new Date(Date.now() - 10_000)),
        () =>
          plant(
            ws,
            'append.lock',
            JSON.stringify({
              pid: process.pid,
              command: 'append',
              since: '2020-01-01T00:00:00Z',
              host: hostname(),
              start: '1',
              boot: 'a-boot-before-this-one',
            }),
          ),
      ];
      while (fired < totalHooks) {
        writers.forEach((w, s) => {
          const from = w.lines.length;
          for (let k = 0; k < 2; k++) {
            const m = `marker-s${s}-r${round}-k${k}`;
            markers.push(m);
            w.user(`prompt ${m} please`).assistant(`done with ${m}`);
          }
          w.appendTo(paths[s]!, from);
        });
        // Every other burst starts against a stale lock of some kind.
        if (round % 2 === 0) stale[(round / 2) % stale.length]!();
        const events = ['Stop', 'PreCompact', 'Stop', 'SessionEnd'];
        await Promise.all(
          Array.from({ length: burst }, (_, i) =>
            captureHook(ws, paths[i % paths.length]!, events[(i + round) % events.length], sessions[i % sessions.length]),
          ),
        );
        fired += burst;
        round++;
      }
      for (let s = 0; s < sessions.length; s++) await captureHook(ws, paths[s]!, 'Stop', sessions[s]);
      fired += sessions.length;
      const log = ws.read('memory/2026-03-15.md');
      const counts = markers.map((m) => log.split(`User: prompt ${m} please`).length - 1);
      const doubled = counts.filter((c) => c > 1).length;
      const lost = counts.filter((c) => c === 0).length;
      figure('hooks with stale locks', { hooks: fired, turns: markers.length, doubled, lost });
      expect({ doubled, lost }).toEqual({ doubled: 0, lost: 0 });
    },
    scale(240_000, 1_800_000),
  );

  it('retakes locks whose pid is alive but another process (pid reused after a reboot)', async () => {
    const sleeper = spawn('sleep', ['120'], { stdio: 'ignore' });
    children.push(sleeper);
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'work [project]': ['done'] }) },
      { timeZone: 'UTC', lockWaitMs: 1500 },
    );
    // As a hipo that ran before the reboot left them: its pid now names an unrelated live process.
    const before = { pid: sleeper.pid!, command: 'compact', since: '2020-01-01T00:00:00Z', host: hostname() };
    for (const name of ['lock', 'daemon.lock', 'append.lock']) plant(ws, name, JSON.stringify(before), LONG_AGO);
    const compacted = runCli(['compact', '--now', '2026-06-02', '--dir', ws.root]);
    expect(compacted).toMatchObject({ stderr: '', code: 0 });
    expect(ws.exists('memory/daily/2026-06-01.md')).toBe(true);

    // The same with the record this version writes: a start time and boot that do not match.
    const recorded = { ...before, start: '1', boot: 'a-boot-before-this-one', nonce: 'x', leaseMs: 120_000 };
    for (const name of ['lock', 'daemon.lock', 'append.lock']) plant(ws, name, JSON.stringify(recorded));
    const t = new TranscriptWriter(SESSION, '2026-06-02T09:00:00.000Z')
      .user('remember the pid reuse case')
      .assistant('noted')
      .writeTo(join(ws.root, 's.jsonl'));
    const started = Date.now();
    await captureHook(ws, t);
    const hookMs = Date.now() - started;
    expect(ws.read('memory/2026-06-02.md')).toContain('User: remember the pid reuse case');
    const d = startDaemon(ws.root, { HIPO_NOW: '2026-06-02' });
    children.push(d.child);
    await d.until(
      () => ws.exists('.hipo/daemon.json') && JSON.parse(ws.read('.hipo/daemon.json')).runs >= 1,
      20_000,
      'the daemon to start and run',
    );
    d.child.kill('SIGTERM');
    expect((await d.exited).code).toBe(0);
    figure('pid reuse', { compactExit: compacted.code, hookMs, daemon: 'started' });
  }, 60_000);

  it('retakes a lock from another host once its lease has run out, and waits while it has not', async () => {
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'work [project]': ['done'] }) },
      { timeZone: 'UTC', lockWaitMs: 1000 },
    );
    const foreign = { pid: 4242, command: 'daemon', since: '2026-05-01T00:00:00Z', host: 'hipo-container-before-recreate' };
    plant(ws, 'lock', JSON.stringify(foreign));
    const held = runCli(['compact', '--now', '2026-06-02', '--dir', ws.root]);
    expect(held.code).toBe(3);
    expect(held.stderr).toContain('pid 4242');

    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['lock', 'daemon.lock', 'append.lock']) plant(ws, name, JSON.stringify(foreign), anHourAgo);
    const compacted = runCli(['compact', '--now', '2026-06-02', '--dir', ws.root]);
    expect(compacted.stderr).toBe('');
    expect(compacted.code).toBe(0);
    const t = new TranscriptWriter(SESSION, '2026-06-02T09:00:00.000Z')
      .user('remember the host change')
      .assistant('noted')
      .writeTo(join(ws.root, 's.jsonl'));
    await captureHook(ws, t);
    expect(ws.read('memory/2026-06-02.md')).toContain('User: remember the host change');
    const d = startDaemon(ws.root, { HIPO_NOW: '2026-06-02' });
    children.push(d.child);
    await d.until(
      () => ws.exists('.hipo/daemon.json') && JSON.parse(ws.read('.hipo/daemon.json')).runs >= 1,
      20_000,
      'the daemon to start and run',
    );
    d.child.kill('SIGTERM');
    expect((await d.exited).code).toBe(0);
  }, 60_000);

  it('treats an empty lock file (a full disk mid-write) as stale', async () => {
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'work [project]': ['done'] }) },
      { timeZone: 'UTC', lockWaitMs: 1500 },
    );
    const aWhileAgo = new Date(Date.now() - 10_000);
    for (const name of ['lock', 'append.lock']) plant(ws, name, '', aWhileAgo);
    const t = new TranscriptWriter(SESSION, '2026-06-02T09:00:00.000Z')
      .user('remember the empty lock')
      .assistant('noted')
      .writeTo(join(ws.root, 's.jsonl'));
    const started = Date.now();
    await captureHook(ws, t);
    const hookMs = Date.now() - started;
    expect(ws.read('memory/2026-06-02.md')).toContain('User: remember the empty lock');
    expect(runCli(['compact', '--now', '2026-06-02', '--dir', ws.root]).code).toBe(0);
    figure('empty lock', { hookMs });
  }, 60_000);
});
