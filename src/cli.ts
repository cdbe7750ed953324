#!/usr/bin/env node
// The `hipo` executable. Everything else is a library: this is the one place that runs.
// `hipo hook …` takes a short path that skips the command-line framework: it runs on every
// prompt of an agent session, so its start-up time is the agent's latency.
// `hipo --version` answers without loading the command-line framework either.
const argv = process.argv.slice(2);
const isHook = argv[0] === 'hook' && !argv.includes('--help') && !argv.includes('-h');
const isVersion = argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v');

const run: Promise<number> = isHook
  ? import('./hooks/entry.js').then((m) => m.hookEntry(argv.slice(1)))
  : isVersion
    ? import('./cli/version.js').then((m) => (process.stdout.write(`${m.VERSION}\n`), 0))
    : import('./cli/main.js').then((m) => m.main(argv));

run.then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`hipo: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = isHook ? 0 : 1;
  },
);
