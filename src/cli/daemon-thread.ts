// `hipo daemon` in its worker thread (daemon-start.ts starts it, with a bounded young
// generation): the whole command line, as on the main thread. Stop signals arrive as messages
// (commands/daemon.ts listens for them); the exit code goes back as one.
import { parentPort, workerData } from 'node:worker_threads';
import { main } from './main.js';

export interface DaemonThreadData {
  argv: string[];
}

/** What the worker tells the main thread when the command has ended. */
export interface DaemonThreadEnd {
  code: number;
}

const { argv } = workerData as DaemonThreadData;
const code = await main(argv);
parentPort!.postMessage({ code } satisfies DaemonThreadEnd);
