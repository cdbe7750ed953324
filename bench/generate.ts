// Writes a generated memory folder: tsx bench/generate.ts --out DIR [--years 3] [--seed 7]
import { join } from 'node:path';
import { generateCorpus } from './lib/corpus.js';

const arg = (name: string, dflt?: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const out = arg('--out');
if (!out) {
  process.stderr.write('usage: tsx bench/generate.ts --out DIR [--years N] [--seed N] [--start YYYY-MM-DD]\n');
  process.exit(2);
}
const years = Number(arg('--years', '3'));
const stats = generateCorpus(join(out, 'memory'), {
  start: arg('--start', '2016-01-04')!,
  days: Math.round(years * 365.25),
  seed: Number(arg('--seed', '7')),
});
process.stdout.write(`${JSON.stringify(stats)}\n`);
