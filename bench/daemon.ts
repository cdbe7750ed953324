// npm run bench:daemon — the daemon's latency, idle cost and memory (figures, not a test).
//   1. change-to-searchable latency: append a line to today's raw log, time until a search of
//      the index finds it (p50/p95 over 10 appends, the debounce subtracted), and until the daily
//      node holds it;
//   2. idle: CPU seconds and RSS of the daemon process over 60 s with nothing happening;
//   3. RSS after catching up the generated 10-year corpus.
// The daemon is the real `hipo daemon` child process; CPU and RSS come from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateCorpus } from './lib/corpus.js';
import { loadConfig } from '../src/config/config.js';
import { workspaceAt } from '../src/tree/layout.js';
import { readDaemonState } from '../src/state/daemon-record.js';
import { openIndex } from '../src/index/search-index.js';
import { search } from '../src/search/search.js';

/** Whether the index, as the daemon left it, finds `token` (BM25, no update, no embedder). */
async function searchable(dir: string, token: string): Promise<boolean> {
  const { config } = loadConfig(dir);
  const ws = workspaceAt(dir, config.memoryDir);
  if (!existsSync(join(ws.stateDir, 'index.db'))) return false;
  const index = openIndex(ws, config, { embedder: null });
  try {
    return (await search(index, token, { mode: 'bm25', limit: 3 })).hits.length > 0;
  } finally {
    index.close();
  }
}

const here = resolve(import.meta.dirname);
const repo = join(here, '..');
const cli = join(repo, 'dist', 'cli.js');
const idleSeconds = Number(process.env.HIPO_BENCH_IDLE_S ?? 60);
const DEBOUNCE_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  cpuSeconds(): number;
  rssMB(): number;
  hwmMB(): number;
}

function proc(pid: number): Proc {
  const ticks = 100; // USER_HZ on Linux
  return {
    cpuSeconds() {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(f[11]) + Number(f[12])) / ticks;
    },
    rssMB: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
    hwmMB: () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
  };
}

function startDaemon(dir: string, env: NodeJS.ProcessEnv): { child: ChildProcess; lines: string[] } {
  const child = spawn(process.execPath, [cli, 'daemon', '--log-json', '--dir', dir], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: string[] = [];
  let buf = '';
  child.stderr!.on('data', (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  return { child, lines };
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The daemon's state file says it has caught up: nothing pending and the index current. (Its
 * log need not say so: a backlog worked off by child processes logs no cycle.) */
function settled(dir: string, pid: number): boolean {
  const st = readDaemonState(workspaceAt(dir));
  return st?.pid === pid && st.lastRun?.pending === 0 && st.indexedAt !== null;
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function latencyAndIdle(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hipo-bench-daemon-'));
  try {
    cpSync(join(repo, 'memory'), join(dir, 'memory'), {
      recursive: true,
      filter: (src) => !/\/(daily|weekly|monthly)$|ROOT\.md$/.test(src),
    });
    writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC', daemon: { debounceMs: DEBOUNCE_MS } }));
    const today = '2026-11-20';
    const d = startDaemon(dir, { HIPO_NOW: today });
    await until(() => settled(dir, d.child.pid!), 60_000, 'the catch-up');
    const daily = join(dir, 'memory', 'daily', `${today}.md`);
    await until(() => d.lines.some((l) => l.includes('"event":"index"')), 60_000, 'the first index');
    const toNode: number[] = [];
    const toSearch: number[] = [];
    for (let i = 0; i < 10; i++) {
      const token = `latencyprobe${i}x${Date.now()}`;
      const t0 = performance.now();
      appendFileSync(join(dir, 'memory', `${today}.md`), `- ${token} noted\n`);
      let nodeAt = 0;
      for (;;) {
        if (!nodeAt && existsSync(daily) && readFileSync(daily, 'utf8').includes(token)) nodeAt = performance.now();
        if (await searchable(dir, token)) break;
        if (performance.now() - t0 > 30_000) throw new Error('the change never became searchable');
        await sleep(10);
      }
      toSearch.push(performance.now() - t0 - DEBOUNCE_MS);
      toNode.push((nodeAt || performance.now()) - t0 - DEBOUNCE_MS);
      await sleep(300);
    }
    console.log(
      `change → searchable   p50 ${pct(toSearch, 0.5).toFixed(0)} ms  p95 ${pct(toSearch, 0.95).toFixed(0)} ms beyond the ${DEBOUNCE_MS} ms debounce (10 appends, example memory/)`,
    );
    console.log(`change → daily node   p50 ${pct(toNode, 0.5).toFixed(0)} ms  p95 ${pct(toNode, 0.95).toFixed(0)} ms beyond the debounce`);
    const p = proc(d.child.pid!);
    await sleep(2000);
    const cpu0 = p.cpuSeconds();
    const rss0 = p.rssMB();
    await sleep(idleSeconds * 1000);
    console.log(
      `idle ${idleSeconds} s            CPU ${(p.cpuSeconds() - cpu0).toFixed(2)} s  RSS ${rss0.toFixed(0)} → ${p.rssMB().toFixed(0)} MB`,
    );
    d.child.kill('SIGTERM');
    await new Promise((r) => d.child.once('exit', r));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function tenYears(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hipo-bench-daemon10-'));
  try {
    generateCorpus(join(dir, 'memory'), { start: '2016-01-04', days: 3653, seed: 7 });
    writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
    const t0 = performance.now();
    const d = startDaemon(dir, { HIPO_NOW: '2026-01-20' });
    await until(() => settled(dir, d.child.pid!), 30 * 60_000, 'the 10-year catch-up');
    const p = proc(d.child.pid!);
    console.log(
      `10-year corpus         caught up in ${((performance.now() - t0) / 1000).toFixed(0)} s; RSS now ${p.rssMB().toFixed(0)} MB, peak ${p.hwmMB().toFixed(0)} MB`,
    );
    d.child.kill('SIGTERM');
    await new Promise((r) => d.child.once('exit', r));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(cli)) throw new Error('run "npm run build" first');
console.log(`hipo bench:daemon · node ${process.version} · ${new Date().toISOString()}`);
await latencyAndIdle();
if (!process.argv.includes('--skip-10y')) await tenYears();
