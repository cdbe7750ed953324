// Catch-up on two cores: the daily nodes the next cycles will write (the planner's deferred list
// says which, most recent first) are shared out in turn between a worker and the main thread,
// so each builds every other one while the other works. A worker's result is used only if the
// raw log still has the hash it read; otherwise the main thread builds the node itself. The
// output is byte-identical either way.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HipoConfig } from '../config/config.js';
import type { LocalDate } from '../time/calendar.js';
import type { Workspace } from '../tree/layout.js';
import type { CyclePlan } from '../plan/plan.js';
import type { Composed } from '../compose/body.js';
import type { NodeInputs } from './inputs.js';

export interface PrefetchSetup {
  workspaceRoot: string;
  memoryDir: string;
  memoryName: string;
  config: HipoConfig;
  today: LocalDate;
}

export interface PrefetchJob {
  date: LocalDate;
}

export type PrefetchResult = { date: LocalDate; hash: string; inputs: NodeInputs; composed: Composed } | { date: LocalDate; error: string };

/** Worker jobs queued at once: enough to keep it busy, few enough to stay current. */
const AHEAD = 2;

export class DailyPrefetch {
  private readonly jobs = new Map<LocalDate, Promise<PrefetchResult>>();
  /** Dates already shared out (to the worker or kept for the main thread). */
  private readonly decided = new Set<LocalDate>();
  private toWorker = true;
  private readonly waiting = new Map<LocalDate, (r: PrefetchResult) => void>();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (r: PrefetchResult) => {
      this.waiting.get(r.date)?.(r);
      this.waiting.delete(r.date);
    });
    // A crashed worker only costs speed: pending jobs resolve empty and the main thread works.
    worker.on('error', () => this.drain());
    worker.on('exit', () => this.drain());
  }

  /** A worker, when the compiled worker script exists (not under a TypeScript test runner). */
  static start(ws: Workspace, config: HipoConfig, today: LocalDate): DailyPrefetch | null {
    const url = new URL('./prefetch-worker.js', import.meta.url);
    if (!existsSync(fileURLToPath(url))) return null;
    const setup: PrefetchSetup = { workspaceRoot: ws.root, memoryDir: ws.memoryDir, memoryName: ws.memoryName, config, today };
    try {
      return new DailyPrefetch(new Worker(url, { workerData: setup }));
    } catch {
      return null;
    }
  }

  /** Shares out the daily nodes the coming cycles will write: every other one to the worker. */
  plan(plan: CyclePlan): void {
    for (const a of plan.actions) if (a.period.level === 'daily') this.decided.add(a.period.date);
    const next = plan.deferred.filter((d) => d.period.level === 'daily' && d.kind !== 'fix').map((d) => (d.period as { date: LocalDate }).date);
    for (const date of next) {
      if (this.jobs.size >= AHEAD) break;
      if (this.decided.has(date)) continue;
      this.decided.add(date);
      const mine = this.toWorker;
      this.toWorker = !this.toWorker;
      if (!mine) continue;
      this.jobs.set(date, new Promise((resolve) => this.waiting.set(date, resolve)));
      this.worker.postMessage({ date } satisfies PrefetchJob);
    }
  }

  /** The prefetched node for `date`, if it was built from a raw log with this hash. */
  async take(date: LocalDate, hash: string): Promise<{ inputs: NodeInputs; composed: Composed } | null> {
    const job = this.jobs.get(date);
    if (!job) return null;
    this.jobs.delete(date);
    const r = await job;
    return 'error' in r || r.hash !== hash ? null : { inputs: r.inputs, composed: r.composed };
  }

  private drain(): void {
    for (const [date, resolve] of this.waiting) resolve({ date, error: 'worker stopped' });
    this.waiting.clear();
  }

  async close(): Promise<void> {
    this.drain();
    await this.worker.terminate();
  }
}
