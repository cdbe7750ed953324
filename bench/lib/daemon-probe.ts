// A build's `hipo daemon` on a caught-up, indexed tree, as bench:scale measures it: its RSS once
// settled, its peak and RSS after a series of changes (each appended to the last raw log, each
// waited for until the index has it), the CPU it uses in the quiet spell after, and how long a
// fresh `hipo compact` and `hipo search` take while it runs. RSS and CPU come from /proc (Linux).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { corpusQueries } from './corpus.js';

export interface DaemonFigures {
  settledMB: number;
  peakMB: number;
  afterMB: number;
  idleCpuS: number;
  idleRssMB: number;
  /** Wall time of `hipo compact` after one append, while the daemon runs (ms, each run). */
  compactMs: number[];
  /** Wall time of `hipo search` in each mode while the daemon runs (ms, each run, queries in turn). */
  searchMs: { bm25: number[]; hybrid: number[] };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function proc(pid: number, key: string): number {
  return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

export function lastRawLog(memory: string): string {
  return readdirSync(memory)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
    .sort()
    .pop()!;
}

export async function probeDaemon(
  build: string,
  dir: string,
  now: string,
  o: { changes: number; idleS: number; compactRuns: number },
): Promise<DaemonFigures> {
  const cli = join(build, 'dist', 'cli.js');
  const env = { ...process.env, HIPO_NOW: now };
  const child = spawn(process.execPath, [cli, 'daemon', '--log-json', '--dir', dir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-20_000)));
  const exited = new Promise((r) => child.once('exit', r));
  const pid = child.pid!;
  const state = (): { pid?: number; indexedAt?: string | null; lastRun?: { pending: number } | null } | null => {
    try {
      return JSON.parse(readFileSync(join(dir, '.hipo', 'daemon.json'), 'utf8'));
    } catch {
      return null;
    }
  };
  const until = async (check: () => boolean, ms: number, what: string): Promise<void> => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`daemon: timed out waiting for ${what}\n${log.slice(-2000)}`);
      await sleep(25);
    }
  };
  try {
    await until(
      () => {
        const s = state();
        return s?.pid === pid && s.lastRun?.pending === 0 && !!s.indexedAt;
      },
      30 * 60_000,
      'the start to settle',
    );
    await sleep(1500);
    const settledMB = proc(pid, 'VmRSS');
    const memory = join(dir, 'memory');
    const last = join(memory, lastRawLog(memory));
    for (let i = 0; i < o.changes; i++) {
      const before = state()?.indexedAt;
      appendFileSync(last, `\n## scale probe ${i} [project]\n- decided to measure the daemon's memory, change ${i}\n`);
      await until(() => state()?.indexedAt !== before, 120_000, `change ${i} to be indexed`);
      await sleep(100);
    }
    const peakMB = proc(pid, 'VmHWM');
    const afterMB = proc(pid, 'VmRSS');
    await sleep(2000);
    const cpu0 = cpuSeconds(pid);
    await sleep(o.idleS * 1000);
    const idleCpuS = cpuSeconds(pid) - cpu0;
    const idleRssMB = proc(pid, 'VmRSS');
    const compactMs: number[] = [];
    for (let i = 0; i < o.compactRuns; i++) {
      appendFileSync(last, `- compact probe ${i}\n`);
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [cli, 'compact', '--dir', dir], { env, encoding: 'utf8' });
      compactMs.push(performance.now() - t0);
      if (r.status !== 0) throw new Error(`hipo compact failed with a daemon running: ${r.stderr}`);
      // Let the daemon's own reaction to the change (after its debounce) pass first.
      await sleep(3500);
    }
    const searchMs = { bm25: [] as number[], hybrid: [] as number[] };
    const queries = corpusQueries();
    for (let i = 0; i < 2 * o.compactRuns; i++) {
      for (const mode of ['bm25', 'hybrid'] as const) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [cli, 'search', queries[i % queries.length]!, '--mode', mode, '--dir', dir], {
          env,
          encoding: 'utf8',
        });
        searchMs[mode].push(performance.now() - t0);
        if (r.status !== 0) throw new Error(`hipo search failed with a daemon running: ${r.stderr}`);
      }
    }
    return { settledMB, peakMB, afterMB, idleCpuS, idleRssMB, compactMs, searchMs };
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
