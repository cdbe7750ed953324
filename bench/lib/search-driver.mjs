// One measurement of the search index in a fresh process (bench/search.ts runs it), printed as
// JSON with the process's peak RSS. Uses the compiled dist/.
//   node bench/lib/search-driver.mjs update DIR [--rebuild]
//   node bench/lib/search-driver.mjs query DIR QUERIES.json MODE [LIMIT]
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../dist/config/config.js';
import { openIndex } from '../../dist/index/search-index.js';
import { updateIndex } from '../../dist/index/update.js';
import { search } from '../../dist/search/search.js';
import { workspaceAt } from '../../dist/tree/layout.js';

const [cmd, dir, ...rest] = process.argv.slice(2);
const { config } = loadConfig(dir);
const ws = workspaceAt(dir, config.memoryDir);
const rss = () => Math.round(process.resourceUsage().maxRSS / 1024);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

if (cmd === 'update') {
  const t0 = performance.now();
  const index = openIndex(ws, config);
  const t1 = performance.now();
  const r = await updateIndex(index, { rebuild: rest.includes('--rebuild') });
  const t2 = performance.now();
  const chunks = index.db.prepare('SELECT count(*) AS n FROM chunks').get().n;
  index.close();
  console.log(
    JSON.stringify({
      openMs: Math.round(t1 - t0),
      updateMs: Math.round(t2 - t1),
      files: r.files,
      changed: r.added + r.changed,
      chunks,
      chunksAdded: r.chunksAdded,
      embedded: r.embedded,
      warnings: r.warnings.length,
      maxRssMB: rss(),
    }),
  );
} else if (cmd === 'query') {
  const [file, mode, limit = '10'] = rest;
  const queries = JSON.parse(readFileSync(file, 'utf8'));
  const index = openIndex(ws, config);
  // Warm-up: the first query loads the embedder and SQLite's pages.
  const t0 = performance.now();
  await search(index, queries[0], { mode, limit: Number(limit) });
  const firstMs = performance.now() - t0;
  for (const q of queries.slice(0, 10)) await search(index, q, { mode, limit: Number(limit) });
  const times = [];
  let hits = 0;
  for (const q of queries) {
    const t = performance.now();
    const r = await search(index, q, { mode, limit: Number(limit) });
    times.push(performance.now() - t);
    hits += r.hits.length;
  }
  // Cold: each query on a fresh handle (no posting cache, no resident vectors), the embedder
  // already loaded: what a one-shot process pays after start-up.
  const cold = [];
  for (const q of queries.slice(0, 30)) {
    const fresh = openIndex(ws, config, { embedder: index.embedder });
    const t = performance.now();
    await search(fresh, q, { mode, limit: Number(limit) });
    cold.push(performance.now() - t);
    fresh.db.close();
  }
  index.close();
  console.log(
    JSON.stringify({
      mode,
      n: queries.length,
      coldP50: +pct(cold, 0.5).toFixed(2),
      coldP95: +pct(cold, 0.95).toFixed(2),
      firstMs: Math.round(firstMs),
      p50: +pct(times, 0.5).toFixed(2),
      p95: +pct(times, 0.95).toFixed(2),
      meanHits: +(hits / queries.length).toFixed(1),
      maxRssMB: rss(),
    }),
  );
} else {
  console.error('usage: search-driver.mjs update DIR [--rebuild] | query DIR QUERIES.json MODE [LIMIT]');
  process.exit(2);
}
