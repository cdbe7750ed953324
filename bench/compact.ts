// npm run bench:compact — compaction speed and memory (figures, not a test).
//   1. catch-up of the MemAware corpus (91 days, 16 MB) copied to a temp dir, --now after the
//      last day; then one incremental cycle after appending to the last day;
//   2. the same on generated 3-year and 10-year corpora.
// Every measurement is a fresh process (bench/lib/compact-driver.mjs): `in-process` is the
// compaction itself, `wall` adds Node start-up. Incremental cycles: median of 5 runs. `warm
// change` is the daemon's path: cycles in one long-lived process, median of 15.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateCorpus } from './lib/corpus.js';

const here = resolve(import.meta.dirname);
const driver = join(here, 'lib', 'compact-driver.mjs');
const benchData = resolve(process.env.HIPO_BENCH_DATA ?? join(here, '..', '..', 'shared', 'bench'));
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;

interface Run {
  ms: number;
  cycles: number;
  written: number;
  errors: number;
  maxRssMB: number;
  wallMs: number;
}

function run(dir: string, now: string, catchUp: boolean): Run {
  const t0 = performance.now();
  const p = spawnSync(process.execPath, [driver, dir, now, ...(catchUp ? ['--catch-up'] : [])], { encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  if (p.status !== 0) throw new Error(`driver failed: ${p.stderr}`);
  return { ...(JSON.parse(p.stdout.trim().split('\n').pop()!) as Omit<Run, 'wallMs'>), wallMs: Math.round(wallMs) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function lastRaw(memory: string): string {
  return readdirSync(memory)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
    .sort()
    .pop()!;
}

function bench(name: string, prepare: (memory: string) => void, now: string): void {
  const dir = mkdtempSync(join(tmpdir(), `hipo-bench-${name}-`));
  try {
    const memory = join(dir, 'memory');
    prepare(memory);
    const catchUp = run(dir, now, true);
    console.log(
      `${name.padEnd(10)} catch-up     ${String(catchUp.ms).padStart(9)} ms in-process ${String(catchUp.wallMs).padStart(8)} ms wall  peak RSS ${catchUp.maxRssMB} MB  (${catchUp.cycles} cycles, ${catchUp.written} files, ${catchUp.errors} errors)`,
    );
    const noop = run(dir, now, false);
    const incremental: Run[] = [];
    const last = join(memory, lastRaw(memory));
    for (let i = 0; i < 5; i++) {
      appendFileSync(last, `\n## benchmark note ${i} [project]\n- decided to measure the incremental cycle, run ${i}\n`);
      incremental.push(run(dir, now, false));
    }
    console.log(
      `${name.padEnd(10)} incremental  ${String(median(incremental.map((r) => r.ms))).padStart(9)} ms in-process ${String(median(incremental.map((r) => r.wallMs))).padStart(8)} ms wall  peak RSS ${median(incremental.map((r) => r.maxRssMB))} MB  (median of 5; ${incremental[0]!.written} files written per cycle)`,
    );
    console.log(
      `${name.padEnd(10)} no-op        ${String(noop.ms).padStart(9)} ms in-process ${String(noop.wallMs).padStart(8)} ms wall  peak RSS ${noop.maxRssMB} MB`,
    );
    // The daemon's path: one process, stamp cache and parsed sources kept between cycles.
    const p = spawnSync(process.execPath, [driver, dir, now, '--warm', '15', lastRaw(memory)], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`driver failed: ${p.stderr}`);
    const w = JSON.parse(p.stdout.trim().split('\n').pop()!) as { ms: number; runs: number[]; written: number; maxRssMB: number };
    console.log(
      `${name.padEnd(10)} warm change  ${String(w.ms).padStart(9)} ms in-process (daemon path, median of 15: ${w.runs.map(Math.round).join(' ')}; ${w.written} files written per cycle; peak RSS ${w.maxRssMB} MB)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(join(here, '..', 'dist', 'cycle', 'compaction.js'))) throw new Error('run "npm run build" first');
console.log(`hipo bench:compact · node ${process.version} · ${new Date().toISOString()}`);
const memaware = join(benchData, 'memaware', 'memory');
if ((!only || only === 'memaware') && existsSync(memaware))
  bench('memaware', (m) => cpSync(memaware, m, { recursive: true }), '2023-07-01');
else if (!only) console.log(`memaware   skipped: no corpus at ${memaware} (set HIPO_BENCH_DATA)`);
if (!only || only === '3y') bench('3-year', (m) => generateCorpus(m, { start: '2016-01-04', days: 1096, seed: 7 }), '2019-02-01');
if (!only || only === '10y') bench('10-year', (m) => generateCorpus(m, { start: '2016-01-04', days: 3653, seed: 7 }), '2026-01-20');
