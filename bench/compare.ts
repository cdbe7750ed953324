// npm run bench:compare -- BASE.json RUN.json [--questions FILE] [--resamples 10000] [--seed 1]
// Is RUN better than BASE on MemAware, or just different? Both are session-level runs of
// bench:recall over the same questions. For R@1/R@5/R@10 and MRR (all questions and per tier),
// prints the difference and its 95% interval by a paired bootstrap over questions: the
// questions are resampled with replacement and both runs scored on each resample, so a
// difference whose interval holds 0 is within what the choice of questions explains.
import { readFileSync } from 'node:fs';
import { loadQuestions, type Question } from './lib/memaware.js';

const argv = process.argv.slice(2);
const arg = (name: string, dflt?: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const files = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (files.length !== 2) {
  process.stderr.write('usage: npm run bench:compare -- BASE.json RUN.json [--questions FILE] [--resamples N] [--seed N]\n');
  process.exit(2);
}
const questions = loadQuestions(arg('--questions'));
const resamples = Number(arg('--resamples', '10000'));
let seed = Number(arg('--seed', '1')) >>> 0;
/** mulberry32: a small seeded generator, so reruns print the same intervals. */
const random = (): number => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

type Run = Record<string, string[]>;
const load = (f: string): Run => JSON.parse(readFileSync(f, 'utf8')) as Run;
const [base, run] = [load(files[0]!), load(files[1]!)];

/** Rank of the first gold session (1-based), Infinity when absent. */
function rankOf(r: Run, q: Question): number {
  const gold = new Set(q.gold_sessions);
  const i = (r[q.id] ?? []).findIndex((k) => gold.has(k));
  return i < 0 ? Infinity : i + 1;
}

const METRICS: [string, (rank: number) => number][] = [
  ['R@1', (r) => (r <= 1 ? 1 : 0)],
  ['R@5', (r) => (r <= 5 ? 1 : 0)],
  ['R@10', (r) => (r <= 10 ? 1 : 0)],
  ['MRR', (r) => (Number.isFinite(r) ? 1 / r : 0)],
];

function report(group: string, qs: Question[]): void {
  const a = qs.map((q) => rankOf(base, q));
  const b = qs.map((q) => rankOf(run, q));
  const parts: string[] = [];
  for (const [name, m] of METRICS) {
    const d = qs.map((_, i) => m(b[i]!) - m(a[i]!));
    const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    const boot: number[] = [];
    for (let r = 0; r < resamples; r++) {
      let s = 0;
      for (let i = 0; i < d.length; i++) s += d[Math.floor(random() * d.length)]!;
      boot.push(s / d.length);
    }
    boot.sort((x, y) => x - y);
    const scale = name === 'MRR' ? 1 : 100;
    const f = (x: number): string => (name === 'MRR' ? x.toFixed(3) : x.toFixed(1));
    const lo = boot[Math.floor(resamples * 0.025)]! * scale;
    const hi = boot[Math.floor(resamples * 0.975)]! * scale;
    const sure = lo > 0 || hi < 0 ? '*' : ' ';
    parts.push(
      `${name} ${f(mean(a.map(m)) * scale)}→${f(mean(b.map(m)) * scale)} (${mean(d) >= 0 ? '+' : ''}${f(mean(d) * scale)} [${f(lo)}, ${f(hi)}])${sure}`,
    );
  }
  console.log(`${group.padEnd(7)} ${String(qs.length).padStart(4)}  ${parts.join('  ')}`);
}

console.log(`${files[0]} → ${files[1]}: difference and 95% paired-bootstrap interval (${resamples} resamples; * the interval excludes 0)`);
report('all', questions);
const TIERS = ['easy', 'medium', 'hard'];
const tiers = [...new Set(questions.map((q) => q.tier))].sort((a, b) => (TIERS.indexOf(a) + 1 || 99) - (TIERS.indexOf(b) + 1 || 99));
for (const tier of tiers)
  report(
    tier,
    questions.filter((q) => q.tier === tier),
  );
