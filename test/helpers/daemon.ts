// A real `hipo daemon` child process, with its JSON log lines collected.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import { readDaemonState } from '../../src/state/daemon-record.js';
import { workspaceAt } from '../../src/tree/layout.js';
import { CLI, REPO } from './workspace.js';

export interface LogLine {
  at: string;
  level: string;
  event: string;
  message: string;
  [k: string]: unknown;
}

export interface DaemonProcess {
  child: ChildProcess;
  logs: LogLine[];
  /** Resolves with the first log line matching `pred` (seen before or after the call). */
  waitFor(pred: (l: LogLine) => boolean, timeoutMs?: number, what?: string): Promise<LogLine>;
  /** Resolves when `check` returns true, polling every 50 ms. */
  until(check: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

export function startDaemon(dir: string, env: NodeJS.ProcessEnv = {}): DaemonProcess {
  const child = spawn(process.execPath, [CLI, 'daemon', '--log-json', '--dir', dir], {
    cwd: REPO,
    env: { ...process.env, HIPO_NOW: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let raw = '';
  let buf = '';
  const waiters: { pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  child.stderr!.on('data', (d: Buffer) => {
    raw += d.toString();
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        const l = JSON.parse(line) as LogLine;
        logs.push(l);
        for (const w of [...waiters]) {
          if (w.pred(l)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(l);
          }
        }
      } catch {
        /* not a log line */
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    logs,
    exited,
    stderr: () => raw,
    waitFor(pred, timeoutMs = 20_000, what = 'log line') {
      const seen = logs.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`timed out waiting for ${what}; log:\n${raw}`)), timeoutMs);
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(t);
            resolve(l);
          },
        });
      });
    },
    async until(check, timeoutMs = 20_000, what = 'condition') {
      const end = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; log:\n${raw}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** The daemon's state file says it has caught up: nothing pending, the search index current. */
export function caughtUp(d: DaemonProcess, root: string): boolean {
  const st = readDaemonState(workspaceAt(root));
  return st?.pid === d.child.pid && st.lastRun?.pending === 0 && st.indexedAt !== null;
}

export const FAST_DAEMON = { timeZone: 'UTC', daemon: { debounceMs: 100, writeFinishMs: 50, retryMs: 200, heartbeat: '*/30 * * * *' } };

/** Starts daemons for a test file and SIGKILLs whatever is still running after each test. */
export function daemonsForTests(): (dir: string, env?: NodeJS.ProcessEnv) => DaemonProcess {
  const running: DaemonProcess[] = [];
  afterEach(async () => {
    for (const d of running.splice(0)) {
      if (d.child.exitCode === null && d.child.signalCode === null) {
        d.child.kill('SIGKILL');
        await d.exited;
      }
    }
  });
  return (dir, env = {}) => {
    const d = startDaemon(dir, env);
    running.push(d);
    return d;
  };
}
