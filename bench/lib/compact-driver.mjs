// Runs compaction in this process and prints its timing and peak RSS as JSON.
// Used by bench/compact.ts so that every measurement is a fresh process.
// usage: node bench/lib/compact-driver.mjs DIR NOW [--catch-up] [--warm N RAWLOG]
//   --warm: the daemon's path. After one settling cycle, N times: append an entry to RAWLOG
//   (a file name in the memory folder) and run one cycle in this same process as the daemon
//   does after its watcher reports the change: stamp cache in memory, the previous run's tree
//   plus the changed file, cache saved later. Between measured runs the log is put back as it
//   was (and an unmeasured cycle follows), so every run does the same work: one new entry on
//   the last day. Prints the median and every run.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../dist/config/config.js';
import { compact } from '../../dist/cycle/compaction.js';
import { workspaceAt } from '../../dist/tree/layout.js';
import { StampCache } from '../../dist/state/stamp-cache.js';
import { SummaryMemo } from '../../dist/summarize/memo.js';
import * as planner_ from '../../dist/plan/planner.js';

const [dir, now, ...flags] = process.argv.slice(2);
const t0 = performance.now();
const { config } = loadConfig(dir);
const ws = workspaceAt(dir, config.memoryDir);
const warm = flags.indexOf('--warm');
if (warm >= 0) {
  const n = Number(flags[warm + 1]);
  const rawLog = join(ws.memoryDir, flags[warm + 2]);
  const cache = StampCache.load(ws);
  // The summarizer's memo, kept between runs as the daemon keeps it.
  const memo = new SummaryMemo();
  // Planner: kept between runs as the daemon keeps it (older builds have none to keep).
  const planner = planner_.Planner ? new planner_.Planner() : undefined;
  let tree = (await compact(ws, config, { now, command: 'bench', cache, planner, memo })).tree;
  const runs = [];
  let written = 0;
  const original = readFileSync(rawLog);
  const cycle = async () => {
    const r = await compact(ws, config, {
      now,
      command: 'bench',
      cache,
      known: { tree, changed: [flags[warm + 2]] },
      saveCache: false,
      planner,
      memo,
    });
    tree = r.tree;
    return r;
  };
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      writeFileSync(rawLog, original);
      await cycle();
    }
    appendFileSync(rawLog, `\n## warm note ${i} [project]\n- decided to measure the daemon's cycle, run ${i} of process ${process.pid}\n`);
    const t = performance.now();
    const r = await cycle();
    runs.push(Math.round((performance.now() - t) * 10) / 10);
    written = Math.min(written || Infinity, r.written.length);
  }
  writeFileSync(rawLog, original);
  await cycle();
  const sorted = [...runs].sort((a, b) => a - b);
  process.stdout.write(
    JSON.stringify({ ms: sorted[sorted.length >> 1], runs, written, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n',
  );
} else {
  const r = await compact(ws, config, { now, catchUp: flags.includes('--catch-up'), command: 'bench' });
  const ms = performance.now() - t0;
  process.stdout.write(
    JSON.stringify({
      ms: Math.round(ms * 10) / 10,
      cycles: r.cycles,
      written: r.written.length,
      errors: r.errors.length,
      maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    }) + '\n',
  );
}
