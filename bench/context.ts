// npm run bench:context — cost of the context pack (`hipo context`, SessionStart) against the
// size of history: a 4-month and a 10-year generated corpus, each compacted with
// `hipo compact --catch-up`, then the pack built at budgets of 2,000 and 8,000 tokens.
// Figures: in-process build time (median of 21 after a warm-up), wall time of the CLI (median
// of 5, Node start-up and tokenizer load included), files the pack opened, tokens per level.
// Reuse an already compacted 10-year workspace with `--ten-year DIR` (catch-up takes minutes).
import { spawnSync } from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateCorpus } from './lib/corpus.js';

const here = resolve(import.meta.dirname);
const cli = join(here, '..', 'dist', 'cli.js');
const arg = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Corpus {
  name: string;
  dir: string;
  now: string;
  temp: boolean;
}

function build(name: string, start: string, days: number, now: string): Corpus {
  const dir = mkdtempSync(join(tmpdir(), `hipo-bench-context-${name}-`));
  writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
  generateCorpus(join(dir, 'memory'), { start, days, seed: 7 });
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'compact', '--dir', dir, '--catch-up', '--now', now], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compact failed: ${r.stderr}`);
  console.log(`${name.padEnd(9)} built: ${Math.round((performance.now() - t0) / 1000)} s catch-up`);
  return { name, dir, now, temp: true };
}

async function measure(c: Corpus): Promise<void> {
  const { buildPack } = await import('../dist/context/pack.js');
  const { loadTokenCounter } = await import('../dist/text/tokens.js');
  const { workspaceAt } = await import('../dist/tree/layout.js');
  const fs = await import('node:fs');
  const count = await loadTokenCounter('cl100k_base');
  const ws = workspaceAt(c.dir);
  const files =
    fs.readdirSync(ws.memoryDir).length +
    ['daily', 'weekly', 'monthly'].reduce(
      (n, d) => n + (existsSync(join(ws.memoryDir, d)) ? fs.readdirSync(join(ws.memoryDir, d)).length : 0),
      0,
    );
  for (const budget of [2000, 8000]) {
    // Count the files the pack opens by wrapping openSync/existsSync for one build.
    const cjs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
    let opened = 0;
    let stats = 0;
    const origOpen = cjs.openSync;
    const origExists = cjs.existsSync;
    const opts = {
      memoryDir: ws.memoryDir,
      memoryName: 'memory',
      today: c.now,
      timeZone: 'UTC',
      budget,
      unit: 'tokens' as const,
      measure: count,
    };
    cjs.openSync = ((...a: Parameters<typeof cjs.openSync>) => (opened++, origOpen(...a))) as typeof cjs.openSync;
    cjs.existsSync = ((p: import('node:fs').PathLike) => (stats++, origExists(p))) as typeof cjs.existsSync;
    syncBuiltinESMExports();
    let pack: ReturnType<typeof buildPack>;
    try {
      pack = buildPack(opts);
    } finally {
      cjs.openSync = origOpen;
      cjs.existsSync = origExists;
      syncBuiltinESMExports();
    }
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t0 = performance.now();
      buildPack(opts);
      times.push(performance.now() - t0);
    }
    const walls: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [cli, 'context', '--dir', c.dir, '--now', c.now, '--budget', String(budget)], {
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(r.stderr);
      walls.push(performance.now() - t0);
    }
    const levels = Object.entries(pack.spent as Record<string, number>)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `${c.name.padEnd(9)} ${String(files).padStart(5)} files  budget ${String(budget).padStart(5)}  build ${median(times).toFixed(1).padStart(6)} ms  cli ${Math.round(median(walls)).toString().padStart(4)} ms wall  opened ${opened} files, ${stats} existence checks  ${pack.total} tokens (${levels}); ${pack.parts.length} parts, ${pack.omitted.length} left out`,
    );
  }
}

if (!existsSync(cli)) throw new Error('run "npm run build" first');
console.log(`hipo bench:context · node ${process.version} · ${new Date().toISOString()}`);
const corpora: Corpus[] = [build('4-month', '2025-09-20', 122, '2026-01-20')];
const reuse = arg('--ten-year');
corpora.push(
  reuse
    ? { name: '10-year', dir: resolve(reuse), now: arg('--now') ?? '2026-01-20', temp: false }
    : build('10-year', '2016-01-04', 3653, '2026-01-20'),
);
try {
  for (const c of corpora) await measure(c);
} finally {
  for (const c of corpora) if (c.temp) rmSync(c.dir, { recursive: true, force: true });
}
