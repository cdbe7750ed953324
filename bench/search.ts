// npm run bench:search [-- --only memaware|3y|10y] [--no-compact] [--runs 5]
// Search speed and memory (figures, not a test), with the configured default embedder:
//   - index build: the MemAware corpus (91 days, 16 MB) and generated 3- and 10-year trees
//     (raw logs compacted into daily/weekly/monthly/ROOT first, so nodes are indexed too);
//   - query latency in-process, p50/p95 per mode: warm (a resident process after a warm-up, with
//     its posting cache and in-memory vectors), cold (a fresh index handle per query, embedder
//     loaded), and the very first query of a process (loading the embedder);
//   - `hipo search` wall time from the shell (Node start-up included), with and without the
//     no-op update it does first;
//   - reindex after one raw log changes: in-process update and `hipo index` wall time.
// Each measurement is a fresh process (bench/lib/search-driver.mjs); medians over --runs runs.
// The word-vector cache is converted once into a temp folder first, and that time is reported.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { corpusQueries, generateCorpus } from './lib/corpus.js';
import { benchDataDir } from './lib/memaware.js';

const here = resolve(import.meta.dirname);
const repo = join(here, '..');
const driver = join(here, 'lib', 'search-driver.mjs');
const cli = join(repo, 'dist', 'cli.js');
const argv = process.argv.slice(2);
const arg = (name: string, dflt?: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const only = arg('--only');
const runs = Number(arg('--runs', '5'));
const benchData = benchDataDir();
const cacheDir = mkdtempSync(join(tmpdir(), 'hipo-bench-cache-'));
const env = { ...process.env, HIPO_CACHE_DIR: cacheDir, HIPO_NOW: '' };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function node(args: string[]): { json: Record<string, number | string>; wallMs: number } {
  const t0 = performance.now();
  const p = spawnSync(process.execPath, args, { encoding: 'utf8', env, maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  if (p.status !== 0 && !args.includes('index')) throw new Error(`${args.join(' ')} failed (${p.status}): ${p.stderr}`);
  const last = p.stdout.trim().split('\n').pop() ?? '{}';
  let json: Record<string, number | string> = {};
  try {
    json = JSON.parse(last) as Record<string, number | string>;
  } catch {
    /* human output */
  }
  return { json, wallMs };
}

function lastRaw(memory: string): string {
  return readdirSync(memory)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
    .sort()
    .pop()!;
}

function bench(name: string, prepare: (memory: string) => void, queries: string[], compactNow: string | null): void {
  const dir = mkdtempSync(join(tmpdir(), `hipo-bench-search-${name}-`));
  try {
    writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
    const memory = join(dir, 'memory');
    prepare(memory);
    if (compactNow) {
      const c = node([cli, 'compact', '--catch-up', '--now', compactNow, '--dir', dir]);
      console.log(`${name.padEnd(9)} compaction (not timed here: see bench:compact) ${Math.round(c.wallMs)} ms wall`);
    }
    const build = node([driver, 'update', dir]);
    const b = build.json;
    console.log(
      `${name.padEnd(9)} build         ${String(b.updateMs).padStart(7)} ms in-process ${String(Math.round(build.wallMs)).padStart(7)} ms wall  peak RSS ${b.maxRssMB} MB  (${b.files} files, ${b.chunks} chunks, ${b.embedded} embedded)`,
    );
    const qfile = join(dir, 'queries.json');
    writeFileSync(qfile, JSON.stringify(queries));
    for (const mode of ['bm25', 'vector', 'hybrid']) {
      const q = node([driver, 'query', dir, qfile, mode]).json;
      console.log(
        `${name.padEnd(9)} query ${mode.padEnd(7)} p50 ${String(q.p50).padStart(6)} ms  p95 ${String(q.p95).padStart(6)} ms  · cold p50 ${String(q.coldP50).padStart(6)} ms  p95 ${String(q.coldP95).padStart(6)} ms  · first ${q.firstMs} ms  (${q.n} queries, ${q.meanHits} hits avg)  peak RSS ${q.maxRssMB} MB`,
      );
    }
    const shell = (extra: string[]): number =>
      median(Array.from({ length: runs }, () => node([cli, 'search', queries[1]!, ...extra, '--dir', dir]).wallMs));
    console.log(
      `${name.padEnd(9)} hipo search  hybrid ${Math.round(shell([]))} ms wall · bm25 --no-update ${Math.round(shell(['--mode', 'bm25', '--no-update']))} ms wall  (median of ${runs})`,
    );
    const last = join(memory, lastRaw(memory));
    const inProcess: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < runs; i++) {
      appendFileSync(last, `\n## benchmark note ${i} [project]\n- decided to measure reindexing, run ${i}\n`);
      const r = node([driver, 'update', dir]);
      inProcess.push(Number(r.json.updateMs));
      appendFileSync(last, `\n## benchmark note b${i} [project]\n- and once more from the shell\n`);
      wall.push(node([cli, 'index', '--dir', dir]).wallMs);
    }
    console.log(
      `${name.padEnd(9)} reindex 1 file  ${median(inProcess)} ms in-process · hipo index ${Math.round(median(wall))} ms wall  (median of ${runs})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(join(repo, 'dist', 'index', 'search-index.js'))) throw new Error('run "npm run build" first');
console.log(`hipo bench:search · node ${process.version} · ${new Date().toISOString()}`);
try {
  // The first use of the default embedder converts the wink package's JSON into the cache.
  const probe = mkdtempSync(join(tmpdir(), 'hipo-bench-probe-'));
  writeFileSync(join(probe, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
  generateCorpus(join(probe, 'memory'), { start: '2026-01-05', days: 3, seed: 1 });
  const first = node([driver, 'update', probe]);
  console.log(
    `word vectors: first use converts the package JSON into a binary cache: ${first.json.updateMs} ms, peak RSS ${first.json.maxRssMB} MB`,
  );
  rmSync(probe, { recursive: true, force: true });

  const compact = !argv.includes('--no-compact');
  const memaware = join(benchData, 'memaware', 'memory');
  const gold = join(benchData, 'memaware', 'gold.json');
  if ((!only || only === 'memaware') && existsSync(memaware)) {
    const questions = (JSON.parse((await import('node:fs')).readFileSync(gold, 'utf8')) as { question: string }[])
      .map((q) => q.question)
      .slice(0, 200);
    bench('memaware', (m) => cpSync(memaware, m, { recursive: true }), questions, null);
  } else if (!only) console.log(`memaware  skipped: no corpus at ${memaware} (set HIPO_BENCH_DATA)`);
  if (!only || only === '3y')
    bench('3-year', (m) => generateCorpus(m, { start: '2016-01-04', days: 1096, seed: 7 }), corpusQueries(), compact ? '2019-02-01' : null);
  if (!only || only === '10y')
    bench(
      '10-year',
      (m) => generateCorpus(m, { start: '2016-01-04', days: 3653, seed: 7 }),
      corpusQueries(),
      compact ? '2026-01-20' : null,
    );
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
