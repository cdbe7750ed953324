// npm run bench:scale [-- --baseline DIR | --baseline-rev REV] [--runs N] [--idle-s S] [--quick] [--skip-daemon]
// How hipo's costs grow with history (figures, not a test), for this checkout and a baseline
// build measured in the same run, interleaved (this machine is shared and noisy):
//   - catch-up of the MemAware corpus (91 days, 16 MB) and of generated 1-, 3- and 10-year trees:
//     wall, CPU, peak RSS (median of --runs), and whether both builds wrote the same bytes;
//   - a fresh `hipo compact` after one appended line, 1 and 10 years: without a daemon, and
//     with one running (which, from this version on, runs the cycle for the command);
//   - the daemon on the caught-up, indexed 10-year tree: RSS settled, peak and RSS after 10
//     changes, CPU in the quiet minute after, and `hipo search` (both modes) while it runs;
//   - `hipo --version` cold start, against bare `node -e 0`.
// The baseline is the commit before HEAD unless told otherwise (bench/lib/baseline.ts).
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prepareBaseline } from './lib/baseline.js';
import { generateCorpus } from './lib/corpus.js';
import { lastRawLog, probeDaemon, type DaemonFigures } from './lib/daemon-probe.js';
import { benchDataDir } from './lib/memaware.js';
import { treeHashes } from './lib/tree-hashes.js';

const repo = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const quick = argv.includes('--quick');
const runs = Number(arg('--runs') ?? (quick ? 1 : 3));
const idleS = Number(arg('--idle-s') ?? (quick ? 10 : 60));
const compactRuns = quick ? 3 : 7;
if (!existsSync(join(repo, 'dist', 'cli.js'))) throw new Error('run "npm run build" first');
const base = prepareBaseline(repo, { dir: arg('--baseline'), rev: arg('--baseline-rev') });
const builds = [
  { name: 'before', dir: base.dir },
  { name: 'now', dir: repo },
] as const;
type Build = (typeof builds)[number]['name'];
const work = mkdtempSync(join(tmpdir(), 'hipo-bench-scale-'));
const env = { ...process.env, HIPO_NOW: '', HIPO_CACHE_DIR: join(work, 'cache') };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[][] = [];
const WIDTHS = [52, 9, 9, 6];
const show = (r: string[]): void =>
  console.log(
    r
      .map((x, i) => (i === 0 ? x.padEnd(WIDTHS[0]!) : i < 4 ? x.padStart(WIDTHS[i]!) : x))
      .join('  ')
      .trimEnd(),
  );
/** Records a row of the table and prints it at once (a full run takes minutes). */
const row = (what: string, before: number, now: number, unit: string, digits = 0, note = ''): void => {
  const f = (x: number): string => `${x.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
  const r = [what, f(before), f(now), before > 0 ? `${(now / before).toFixed(2)}×` : '—', note];
  rows.push(r);
  show(r);
};

interface Corpus {
  name: string;
  now: string;
  make(memory: string): void;
}
const memaware = join(benchDataDir(), 'memaware', 'memory');
const corpora: Corpus[] = [
  ...(existsSync(memaware) ? [{ name: 'MemAware', now: '2023-07-01', make: (m: string) => cpSync(memaware, m, { recursive: true }) }] : []),
  { name: '1 y', now: '2017-01-20', make: (m) => void generateCorpus(m, { start: '2016-01-04', days: 365, seed: 7 }) },
  { name: '3 y', now: '2019-02-01', make: (m) => void generateCorpus(m, { start: '2016-01-04', days: 1096, seed: 7 }) },
  { name: '10 y', now: '2026-01-20', make: (m) => void generateCorpus(m, { start: '2016-01-04', days: 3653, seed: 7 }) },
];
if (!existsSync(memaware)) console.log(`MemAware skipped: no corpus at ${memaware} (set HIPO_BENCH_DATA)`);

/** A fresh copy of a corpus's raw logs, with a config pinning the time zone. */
function freshCopy(source: string, label: string): string {
  const dir = mkdtempSync(join(work, `${label}-`));
  cpSync(join(source, 'memory'), join(dir, 'memory'), { recursive: true });
  writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
  return dir;
}

function measured(build: string, args: string[]): { wallMs: number; cpuMs: number; maxRssMB: number } {
  const out = join(work, 'rusage.json');
  const t0 = performance.now();
  const p = spawnSync(process.execPath, [join(repo, 'bench', 'lib', 'measured.mjs'), build, ...args], {
    env: { ...env, HIPO_BENCH_RUSAGE: out },
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const wallMs = performance.now() - t0;
  if (p.status !== 0) throw new Error(`hipo ${args.join(' ')} failed (${p.status}): ${p.stderr.slice(-2000)}`);
  const r = JSON.parse(readFileSync(out, 'utf8')) as { cpuMs: number; maxRssMB: number };
  return { wallMs, cpuMs: r.cpuMs, maxRssMB: r.maxRssMB };
}

function wall(build: string, args: string[]): number {
  const t0 = performance.now();
  const p = spawnSync(process.execPath, [join(build, 'dist', 'cli.js'), ...args], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (p.status !== 0) throw new Error(`hipo ${args.join(' ')} failed (${p.status}): ${p.stderr.slice(-2000)}`);
  return performance.now() - t0;
}

console.log(
  `hipo bench:scale · node ${process.version} · ${new Date().toISOString()}\nbefore: ${base.label}\nnow:    ${repo} (working tree)\n`,
);
show(['what', 'before', 'now', 'ratio', '']);
const trees: Record<string, Record<Build, string>> = {};
const identical: string[] = [];
for (const c of corpora) {
  const source = mkdtempSync(join(work, 'source-'));
  c.make(join(source, 'memory'));
  const got: Record<Build, { wallMs: number; cpuMs: number; maxRssMB: number }[]> = { before: [], now: [] };
  for (let i = 0; i < runs; i++) {
    for (const b of i % 2 ? [...builds].reverse() : builds) {
      const dir = freshCopy(source, `${c.name.replace(/\W/g, '')}-${b.name}`);
      got[b.name].push(measured(b.dir, ['compact', '--catch-up', '--now', c.now, '--dir', dir]));
      trees[c.name] ??= {} as Record<Build, string>;
      if (i === 0) trees[c.name]![b.name] = dir;
      else rmSync(dir, { recursive: true, force: true });
    }
  }
  const m = (b: Build, k: 'wallMs' | 'cpuMs' | 'maxRssMB'): number => median(got[b].map((r) => r[k]));
  row(`${c.name} catch-up, wall`, m('before', 'wallMs') / 1000, m('now', 'wallMs') / 1000, 's', 2, `median of ${runs}`);
  row(`${c.name} catch-up, CPU (all threads)`, m('before', 'cpuMs') / 1000, m('now', 'cpuMs') / 1000, 's', 2);
  row(`${c.name} catch-up, peak RSS`, m('before', 'maxRssMB'), m('now', 'maxRssMB'), 'MB');
  const [a, b] = [treeHashes(join(trees[c.name]!.before, 'memory')), treeHashes(join(trees[c.name]!.now, 'memory'))];
  const differ = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => a[f] !== b[f]);
  identical.push(
    `${c.name}: ${differ.length === 0 ? `identical (${Object.keys(a).length} files)` : `${differ.length} files differ, e.g. ${differ.slice(0, 3).join(', ')}`}`,
  );
  rmSync(source, { recursive: true, force: true });
}
const days = (name: string): number => ({ '1 y': 365, '3 y': 1096, '10 y': 3653 })[name] ?? 0;
const perDay = (name: string, b: Build): number =>
  Number(rows.find((r) => r[0] === `${name} catch-up, wall`)?.[b === 'before' ? 1 : 2]?.split(' ')[0]) / days(name);
// Linear: a day of history costs the same to catch up at 10 years as at 3.
if (rows.some((r) => r[0] === '3 y catch-up, wall'))
  row(
    'catch-up time per day, 10 y ÷ 3 y (1.00: linear)',
    perDay('10 y', 'before') / perDay('3 y', 'before'),
    perDay('10 y', 'now') / perDay('3 y', 'now'),
    '',
    2,
  );

// A fresh `hipo compact` after one appended line, no daemon running.
for (const name of ['1 y', '10 y']) {
  const c = corpora.find((x) => x.name === name)!;
  const t: Record<Build, number[]> = { before: [], now: [] };
  for (let i = 0; i < compactRuns; i++) {
    for (const b of i % 2 ? [...builds].reverse() : builds) {
      const dir = trees[name]![b.name];
      appendFileSync(join(dir, 'memory', lastRawLog(join(dir, 'memory'))), `- fresh compact probe ${i}\n`);
      t[b.name].push(wall(b.dir, ['compact', '--now', c.now, '--dir', dir]));
    }
  }
  row(`${name}: hipo compact after one append, no daemon`, median(t.before), median(t.now), 'ms', 0, `wall, median of ${compactRuns}`);
}

if (!argv.includes('--skip-daemon')) {
  const d: Partial<Record<Build, DaemonFigures>> = {};
  const d1: Partial<Record<Build, DaemonFigures>> = {};
  for (const b of builds) {
    for (const [name, into, changes, idle] of [
      ['1 y', d1, 0, 0],
      ['10 y', d, 10, idleS],
    ] as const) {
      const dir = trees[name]![b.name];
      wall(b.dir, ['index', '--dir', dir]);
      into[b.name] = await probeDaemon(b.dir, dir, corpora.find((x) => x.name === name)!.now, { changes, idleS: idle, compactRuns });
    }
  }
  row(
    '1 y: hipo compact after one append, daemon running',
    median(d1.before!.compactMs),
    median(d1.now!.compactMs),
    'ms',
    0,
    `wall, median of ${compactRuns}`,
  );
  row(
    '10 y: hipo compact after one append, daemon running',
    median(d.before!.compactMs),
    median(d.now!.compactMs),
    'ms',
    0,
    `wall, median of ${compactRuns}`,
  );
  for (const mode of ['bm25', 'hybrid'] as const)
    row(
      `10 y: hipo search --mode ${mode}, daemon running`,
      median(d.before!.searchMs[mode]),
      median(d.now!.searchMs[mode]),
      'ms',
      0,
      `wall, median of ${2 * compactRuns}`,
    );
  row('10 y daemon RSS, settled (caught up, indexed)', d.before!.settledMB, d.now!.settledMB, 'MB');
  row('10 y daemon RSS, peak after 10 changes', d.before!.peakMB, d.now!.peakMB, 'MB');
  row('10 y daemon RSS after 10 changes', d.before!.afterMB, d.now!.afterMB, 'MB');
  row(
    `10 y daemon CPU in the ${idleS} s after`,
    d.before!.idleCpuS,
    d.now!.idleCpuS,
    's',
    2,
    `RSS then ${Math.round(d.before!.idleRssMB)} → ${Math.round(d.now!.idleRssMB)} MB`,
  );
}

// Cold start: bare node, then each build's --version, interleaved.
const cold: Record<'node' | Build, number[]> = { node: [], before: [], now: [] };
for (let i = 0; i < 21; i++) {
  let t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  cold.node.push(performance.now() - t0);
  for (const b of builds) {
    t0 = performance.now();
    spawnSync(process.execPath, [join(b.dir, 'dist', 'cli.js'), '--version']);
    cold[b.name].push(performance.now() - t0);
  }
}
row(
  'hipo --version, cold',
  median(cold.before),
  median(cold.now),
  'ms',
  0,
  `bare node -e 0: ${median(cold.node).toFixed(0)} ms; median of 21`,
);

console.log(`\nbytes written, before vs now:\n  ${identical.join('\n  ')}`);
rmSync(work, { recursive: true, force: true });
