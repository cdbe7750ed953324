#!/usr/bin/env node
// The `hipo` executable. Everything else is a library: this is the one place that runs.
// `hipo hook …` takes a short path that skips the command-line framework: it runs on every
// prompt of an agent session, so its start-up time is the agent's latency.
// `hipo --version` answers without loading the command line at all (install checks, scripts).
// `hipo compact`, `search` and `recall` ask a running daemon first (cli/daemon-first.ts), and load the
// command line only when it does not answer. `hipo daemon` runs in a worker thread (cli/daemon-start.ts).
const argv = process.argv.slice(2);
const isHook = argv[0] === 'hook' && !argv.includes('--help') && !argv.includes('-h');
const isVersion = argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v');

const isDaemonFirst = ['compact', 'search', 'recall'].includes(argv[0] ?? '') && !argv.includes('--help') && !argv.includes('-h');
// The daemon runs in a worker thread with a bounded young generation (cli/daemon-start.ts);
// HIPO_DAEMON_THREAD=0 keeps it on the main thread.
const isDaemon = argv[0] === 'daemon' && !argv.includes('--help') && !argv.includes('-h') && process.env.HIPO_DAEMON_THREAD !== '0';

// A reader that stops early (`hipo init | head -1`) closes the pipe. What is left to print has
// nowhere to go, which is no reason to stop the work the command is doing, nor an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
});
// Likewise for stderr (`hipo daemon 2>&1 | head -1`, a log reader that exits), whatever the
// error: a failure to write stderr has nowhere to be reported, and a daemon must outlive its log.
process.stderr.on('error', () => {});

const commandLine = (): Promise<number> => import('./cli/main.js').then((m) => m.main(argv));
const run: Promise<number> = isHook
  ? import('./cli/hook-entry.js').then((m) => m.hookEntry(argv.slice(1)))
  : isVersion
    ? import('./cli/version.js').then((m) => (process.stdout.write(`${m.VERSION}\n`), 0))
    : isDaemonFirst
      ? import('./cli/daemon-first.js').then((m) => m.daemonFirst(argv)).then((code) => code ?? commandLine())
      : isDaemon
        ? import('./cli/daemon-start.js').then((m) => m.runDaemonInThread(argv))
        : commandLine();

run.then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    const { recordedRedactor } = await import('./redact/workspace.js');
    process.stderr.write(`hipo: ${recordedRedactor().redact(err instanceof Error ? err.message : String(err)).text}\n`);
    process.exitCode = isHook ? 0 : 1;
  },
);
