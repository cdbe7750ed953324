#!/usr/bin/env node
// The `hipo` executable. Everything else is a library: this is the one place that runs.
// `hipo hook …` takes a short path that skips the command-line framework: it runs on every
// prompt of an agent session, so its start-up time is the agent's latency.
const argv = process.argv.slice(2);
const isHook = argv[0] === 'hook' && !argv.includes('--help') && !argv.includes('-h');

const run: Promise<number> = isHook
  ? import('./hooks/entry.js').then((m) => m.hookEntry(argv.slice(1)))
  : import('./cli/main.js').then((m) => m.main(argv));

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
