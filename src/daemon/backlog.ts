// A large backlog (a daemon started on years of raw logs never compacted) is worked off by
// child processes: `hipo compact --catch-up`, then `hipo index`. In the daemon it would drain
// one cycle per run, rescanning the tree each time (5x slower on the 10-year benchmark tree),
// and leave the daemon holding the memory the bulk work grew to; a child's memory goes with it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Workspace } from '../tree/layout.js';

/** Nodes pending after a run from which the rest is handed to child processes. */
export const BACKLOG_NODES = 100;

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

export interface BacklogStep {
  command: 'compact' | 'index';
  code: number | null;
  ms: number;
  /** The child's last stderr line when it failed. */
  error: string | null;
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-4000);
    });
    child.on('error', (err) => resolve({ code: null, stderr: err.message }));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** Runs the catch-up and the index build as children, in order; stops at the first failure. */
export async function workOffBacklog(ws: Workspace): Promise<BacklogStep[]> {
  const steps: BacklogStep[] = [];
  for (const command of ['compact', 'index'] as const) {
    const t0 = performance.now();
    const args = command === 'compact' ? ['compact', '--catch-up', '--dir', ws.root] : ['index', '--dir', ws.root];
    const { code, stderr } = await run(args);
    const lines = stderr.trim().split('\n').filter(Boolean);
    steps.push({ command, code, ms: Math.round(performance.now() - t0), error: code === 0 ? null : (lines.pop() ?? `exit ${code}`) });
    if (code !== 0) break;
  }
  return steps;
}
