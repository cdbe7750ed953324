// npm run bench:redact — what secret redaction catches, what it leaves alone, and what it costs.
// 1. The test corpus (test/fixtures/secret-corpus.ts): formats redacted, look-alikes changed.
// 2. Real text with no planted secrets, where every redaction is a false positive: the
//    MemAware conversations (16 MB, if the benchmark data is there) and a generated 3-year
//    memory folder. Reported: redactions by kind, and the time of one pass over all files
//    (median of 7, each pass with a fresh redactor so nothing is answered from its memory).
// 3. One line holding 5,000 and 20,000 secrets (a minified JSON dump): time of one pass.
//
//   --baseline <module>   also time another redactor (a module exporting `Redactor`, e.g. an
//                         older version's file), pass for pass alternating with this one in the
//                         same process, and print both medians and their ratio.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redactor } from '../src/redact/redactor.js';
import { LOOKALIKES, SECRETS } from '../test/fixtures/secret-corpus.js';
import { generateCorpus } from './lib/corpus.js';
import { memawareMemory } from './lib/memaware.js';

interface AnyRedactor {
  redact(text: string): { text: string; counts: Record<string, number> };
}
type Make = () => AnyRedactor;

const PASSES = 7;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${x.toFixed(0)} ms`;

function corpus(make: Make, name: string): void {
  const r = make();
  const missed = SECRETS.filter((s) => r.redact(s.text).text.includes(s.secret));
  const changed = LOOKALIKES.filter((l) => r.redact(l).text !== l);
  console.log(
    `corpus (${name}): ${SECRETS.length - missed.length}/${SECRETS.length} secret formats redacted, ${changed.length}/${LOOKALIKES.length} look-alikes changed (${((100 * changed.length) / LOOKALIKES.length).toFixed(1)} %)`,
  );
  for (const m of missed) console.log(`  missed: ${m.format}`);
  for (const c of changed) console.log(`  changed: ${c.slice(0, 100)}`);
}

/** One pass over `files` with a fresh redactor: its time, and what it redacted by kind. */
function pass(make: Make, files: string[]): { ms: number; counts: Record<string, number> } {
  const r = make();
  const counts: Record<string, number> = {};
  const t0 = performance.now();
  for (const f of files) for (const [k, n] of Object.entries(r.redact(f).counts)) counts[k] = (counts[k] ?? 0) + n;
  return { ms: performance.now() - t0, counts };
}

function throughput(name: string, dir: string, runs: { name: string; make: Make }[]): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const mb = files.reduce((n, f) => n + Buffer.byteLength(f), 0) / 1e6;
  const times = runs.map(() => [] as number[]);
  const counts = runs.map(() => ({}) as Record<string, number>);
  // Pass 0 warms up (regex compilation); then the redactors take turns.
  for (let p = 0; p <= PASSES; p++) {
    runs.forEach((run, i) => {
      const r = pass(run.make, files);
      if (p === 0) counts[i] = r.counts;
      else times[i]!.push(r.ms);
    });
  }
  console.log(`${name}: ${files.length} files, ${mb.toFixed(1)} MB`);
  runs.forEach((run, i) => {
    const m = median(times[i]!);
    const found = Object.entries(counts[i]!).sort((a, b) => b[1] - a[1]);
    console.log(
      `  ${run.name}: ${ms(m)} per pass (median of ${PASSES}; ${ms(Math.min(...times[i]!))}-${ms(Math.max(...times[i]!))}), ${(mb / (m / 1000)).toFixed(1)} MB/s; redactions (each a false positive): ${found.length ? found.map(([k, n]) => `${k} ${n}`).join(', ') : 'none'}`,
    );
  });
  if (runs.length === 2) console.log(`  ${runs[0]!.name} / ${runs[1]!.name}: ${(median(times[0]!) / median(times[1]!)).toFixed(2)}x`);
}

const at = process.argv.indexOf('--baseline');
const runs: { name: string; make: Make }[] = [{ name: 'this redactor', make: () => new Redactor() }];
if (at !== -1) {
  const file = resolve(process.argv[at + 1] ?? '');
  const mod = (await import(pathToFileURL(file).href)) as { Redactor: new () => AnyRedactor };
  runs.push({ name: 'baseline', make: () => new mod.Redactor() });
}

for (const run of runs) corpus(run.make, run.name);
const generated = mkdtempSync(join(tmpdir(), 'hipo-bench-redact-'));
try {
  generateCorpus(generated, { start: '2024-01-01', days: 3 * 365, seed: 7 });
  throughput('generated 3-year folder', generated, runs);
} finally {
  rmSync(generated, { recursive: true, force: true });
}
try {
  throughput('MemAware', memawareMemory(), runs);
} catch (err) {
  console.log(`MemAware: skipped (${(err as Error).message})`);
}

/**
 * Many secrets on one line, as a minified JSON dump of accounts holds them: the cost must grow
 * with the line, not with the line times its secrets (each candidate once copied its whole line).
 */
function oneLine(n: number): string {
  return Array.from({ length: n }, (_, i) => `{"user":"u${i}","password":"Pw${i}x!k9"},`).join('');
}
for (const run of runs) {
  const cells = [5_000, 20_000].map((n) => {
    const text = oneLine(n);
    const t0 = performance.now();
    run.make().redact(text);
    return `${n.toLocaleString('en')} secrets (${(text.length / 1e6).toFixed(2)} MB) ${ms(performance.now() - t0)}`;
  });
  console.log(`one line, ${run.name}: ${cells.join(' · ')}`);
}
