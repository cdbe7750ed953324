// `hipo daemon` starts here, on the main thread, and runs in a worker thread (daemon-thread.ts):
// the same command line in an isolate whose young generation is bounded. V8's default young
// generation (up to 48 MB on 64-bit) is what makes a resident process's footprint jump with each
// burst of work; with 6 MB, on the generated 10-year tree (bench:scale), the daemon settles and
// peaks lower, its answers as fast. Bulk work (a backlog's catch-up and index build) runs in child
// processes with V8's defaults. This thread loads nothing else: whatever it loads stays resident
// beside the daemon. It forwards SIGINT and SIGTERM (signals reach only the main thread) and
// exits with the command's code.
import { Worker } from 'node:worker_threads';
import type { DaemonThreadData, DaemonThreadEnd } from './daemon-thread.js';
import { STOP_SIGNALS, type StopSignal } from './stop-signals.js';

const YOUNG_GENERATION_MB = 6;

/** Runs `hipo <argv>` (a daemon command) in a worker thread; resolves with its exit code. */
export function runDaemonInThread(argv: readonly string[]): Promise<number> {
  const worker = new Worker(new URL('./daemon-thread.js', import.meta.url), {
    workerData: { argv: [...argv] } satisfies DaemonThreadData,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    stderr: true,
  });
  // The thread's log, passed on by hand: once this process's stderr is gone (its reader exited),
  // lines are read and dropped, so the daemon goes on and nothing piles up waiting for a reader.
  worker.stderr.on('data', (chunk: Buffer) => {
    if (!process.stderr.destroyed) process.stderr.write(chunk);
  });
  const forward = (signal: StopSignal): void => worker.postMessage({ signal });
  for (const s of STOP_SIGNALS) process.on(s, forward);
  let code: number | null = null;
  worker.on('message', (m: DaemonThreadEnd) => {
    code = m.code;
  });
  return new Promise<number>((resolve, reject) => {
    const done = (): void => {
      for (const s of STOP_SIGNALS) process.off(s, forward);
    };
    worker.once('error', (err) => {
      done();
      reject(err);
    });
    worker.once('exit', (exitCode) => {
      done();
      resolve(code ?? exitCode);
    });
  });
}
