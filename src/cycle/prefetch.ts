// Catch-up on two cores: the daily nodes the next cycles will write (the planner's deferred list
// says which, most recent first) are handed to a worker thread a few ahead. Whichever thread
// gets to a day first builds it: the main thread takes a day the worker has not started, and
// while the worker finishes the day the main thread needs, it builds the next one itself. So
// neither waits while the other works, however the main thread's own work (parents, ROOT,
// writes) is spread. A result is used only if the raw log still has the hash it was built
// from; otherwise the main thread builds the node again. The output is byte-identical either way.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HipoConfig } from '../config/config.js';
import type { LocalDate } from '../time/calendar.js';
import type { Workspace } from '../tree/layout.js';
import { readCapped } from '../tree/capped.js';
import type { CyclePlan } from '../plan/plan.js';
import { composeBody, type Composed } from '../compose/body.js';
import type { ExclusionRules } from '../summarize/exclusion.js';
import type { Redactor } from '../redact/redactor.js';
import type { Summarizer } from '../summarize/summarizer.js';
import { dailyInputsFrom, type NodeInputs } from './inputs.js';

export interface PrefetchSetup {
  workspaceRoot: string;
  memoryDir: string;
  memoryName: string;
  config: HipoConfig;
  today: LocalDate;
  /** Who builds which day: 0 not started, 1 the worker, 2 the main thread (by slot). */
  claims: SharedArrayBuffer;
}

export interface PrefetchJob {
  date: LocalDate;
  slot: number;
}

export type PrefetchResult = { date: LocalDate; hash: string; inputs: NodeInputs; composed: Composed } | { date: LocalDate; error: string };

/** Days handed to the worker and not yet taken: enough to keep it busy, few to stay current. */
const AHEAD = 8;
const SLOTS = 1024;
const FREE = 0;
const MAIN = 2;

/** Builds one daily node from its raw log as a cycle would (both threads run this). */
export async function buildDaily(
  setup: Pick<PrefetchSetup, 'memoryDir' | 'memoryName' | 'config' | 'today'>,
  date: LocalDate,
  summarizer: Summarizer,
  redactor: Redactor,
  rules: ExclusionRules,
): Promise<PrefetchResult> {
  try {
    const { bytes, hash } = readCapped(join(setup.memoryDir, `${date}.md`), setup.config.maxFileBytes);
    // The main log only: a day written in several files has another hash, and is built again by
    // the main thread (prefetch results are taken only for the hash they were built from).
    const inputs = dailyInputsFrom(date, [{ shownPath: `${setup.memoryName}/${date}.md`, bytes }], hash, redactor, rules);
    const c = setup.config.compaction;
    const composed = await composeBody(
      {
        period: { level: 'daily', date },
        lines: inputs.lines,
        threshold: c.thresholds.daily,
        bytes: inputs.bytes,
        thresholdBytes: c.thresholdBytes.daily,
        sources: inputs.sources,
        topics: inputs.topics,
        today: setup.today,
        sourceHash: hash,
      },
      summarizer,
    );
    return { date, hash, inputs: { ...inputs, sources: [] }, composed };
  } catch (err) {
    return { date, error: err instanceof Error ? err.message : String(err) };
  }
}

export class DailyPrefetch {
  private readonly claims: Int32Array;
  /** Days handed to the worker, in order, and not yet taken: date → slot. */
  private readonly queued = new Map<LocalDate, number>();
  private readonly results = new Map<LocalDate, Promise<PrefetchResult>>();
  private readonly waiting = new Map<LocalDate, (r: PrefetchResult) => void>();
  /** Days the main thread built ahead while it waited for the worker. */
  private readonly built = new Map<LocalDate, PrefetchResult>();
  /** Days handed out or built already: each is built once. */
  private readonly decided = new Set<LocalDate>();
  private nextSlot = 0;

  private constructor(
    private readonly worker: Worker,
    claims: SharedArrayBuffer,
    private readonly buildHere: (date: LocalDate) => Promise<PrefetchResult>,
  ) {
    this.claims = new Int32Array(claims);
    worker.on('message', (r: PrefetchResult) => {
      this.waiting.get(r.date)?.(r);
      this.waiting.delete(r.date);
    });
    // A crashed worker only costs speed: pending jobs resolve empty and the main thread works.
    worker.on('error', () => this.drain());
    worker.on('exit', () => this.drain());
  }

  /**
   * A worker, when the compiled worker script exists (not under a TypeScript test runner).
   * `buildHere` builds a day on the main thread (buildDaily with its summarizer).
   */
  static start(
    ws: Workspace,
    config: HipoConfig,
    today: LocalDate,
    buildHere: (date: LocalDate) => Promise<PrefetchResult>,
  ): DailyPrefetch | null {
    const url = new URL('./prefetch-worker.js', import.meta.url);
    if (!existsSync(fileURLToPath(url))) return null;
    const claims = new SharedArrayBuffer(SLOTS * 4);
    const setup: PrefetchSetup = { workspaceRoot: ws.root, memoryDir: ws.memoryDir, memoryName: ws.memoryName, config, today, claims };
    try {
      return new DailyPrefetch(new Worker(url, { workerData: setup }), claims, buildHere);
    } catch {
      return null;
    }
  }

  /** Hands the worker the days the coming cycles will write, up to AHEAD at a time. */
  plan(plan: CyclePlan): void {
    // This cycle's days that were not handed out are the main thread's.
    for (const a of plan.actions) if (a.period.level === 'daily') this.decided.add(a.period.date);
    for (const d of plan.deferred) {
      if (this.queued.size >= AHEAD) break;
      if (d.period.level !== 'daily' || d.kind === 'fix' || this.decided.has(d.period.date)) continue;
      const date = d.period.date;
      this.decided.add(date);
      const slot = this.nextSlot++ % SLOTS;
      Atomics.store(this.claims, slot, FREE);
      this.queued.set(date, slot);
      this.results.set(date, new Promise((resolve) => this.waiting.set(date, resolve)));
      this.worker.postMessage({ date, slot } satisfies PrefetchJob);
    }
  }

  /** Takes a queued day away from the worker if it has not started it. */
  private claim(date: LocalDate): boolean {
    const slot = this.queued.get(date)!;
    if (Atomics.compareExchange(this.claims, slot, FREE, MAIN) !== FREE) return false;
    this.queued.delete(date);
    this.results.delete(date);
    this.waiting.delete(date);
    return true;
  }

  /** The node for `date`, if it was built from a raw log with this hash; null: build it here. */
  async take(date: LocalDate, hash: string): Promise<{ inputs: NodeInputs; composed: Composed } | null> {
    let r = this.built.get(date);
    this.built.delete(date);
    if (!r && this.queued.has(date)) {
      if (this.claim(date)) r = await this.buildHere(date);
      else {
        const pending = this.results.get(date)!;
        let done = false;
        void pending.then(() => (done = true));
        // The worker is on it: build the next day it has not started meanwhile, one at a time,
        // letting its messages in between (a build runs without yielding).
        for (;;) {
          await new Promise((resolve) => setImmediate(resolve));
          const next = done ? undefined : [...this.queued.keys()].find((d) => d !== date && this.claim(d));
          if (next === undefined) break;
          this.built.set(next, await this.buildHere(next));
        }
        r = await pending;
        this.queued.delete(date);
        this.results.delete(date);
      }
    }
    return !r || 'error' in r || r.hash !== hash ? null : { inputs: r.inputs, composed: r.composed };
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
