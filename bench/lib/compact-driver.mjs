// Runs one compaction in this process and prints its timing and peak RSS as JSON.
// Used by bench/compact.ts so that every measurement is a fresh process.
// usage: node bench/lib/compact-driver.mjs DIR NOW [--catch-up]
import { loadConfig } from '../../dist/config/config.js';
import { compact } from '../../dist/cycle/compaction.js';
import { workspaceAt } from '../../dist/tree/layout.js';

const [dir, now, ...flags] = process.argv.slice(2);
const t0 = performance.now();
const { config } = loadConfig(dir);
const ws = workspaceAt(dir, config.memoryDir);
const r = await compact(ws, config, { now, catchUp: flags.includes('--catch-up'), command: 'bench' });
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({
  ms: Math.round(ms * 10) / 10,
  cycles: r.cycles,
  written: r.written.length,
  errors: r.errors.length,
  maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
}) + '\n');
