// Runs a build's `hipo` in this process and, at exit, writes its CPU time and peak RSS as JSON
// to the file named by HIPO_BENCH_RUSAGE. Works with any build: it only loads dist/cli.js.
// usage: HIPO_BENCH_RUSAGE=FILE node bench/lib/measured.mjs BUILD_DIR hipo-args...
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [build, ...args] = process.argv.slice(2);
const cli = join(build, 'dist', 'cli.js');
const t0 = performance.now();
process.on('exit', (code) => {
  const u = process.resourceUsage();
  writeFileSync(
    process.env.HIPO_BENCH_RUSAGE,
    JSON.stringify({
      code,
      ms: performance.now() - t0,
      cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
      maxRssMB: Math.round(u.maxRSS / 1024),
    }),
  );
});
process.argv = [process.argv[0], cli, ...args];
await import(pathToFileURL(cli).href);
