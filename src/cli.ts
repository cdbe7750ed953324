#!/usr/bin/env node
// The `hipo` executable. Everything else is a library: this is the one place that runs.
import { main } from './cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`hipo: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
