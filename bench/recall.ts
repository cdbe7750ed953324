// npm run bench:recall -- --questions FILE --out RUN.json [--mode bm25|vector|hybrid]
//   [--via search] [--limit 50] [--embedder wink|use-lite|openai|none] [--compact]
//   [--workspace DIR] [--brief] [--rrf-k K] [--vector-weight W] [--also-field FIELD] [--expand]
//   [--no-fold] [--vote-weight W] [--no-topic-leads] [--fact-chunks]
// Retrieval quality on MemAware (figures, not a test). Copies the corpus into a workspace (a temp
// dir, or --workspace DIR kept between runs so the index is reused), indexes it, runs every
// question through a retrieval function (--via; `search` is the search API) and writes a
// session-level run: {question id: ["YYYY-MM-DD#n", …]}. Score it with the benchmark's score.mjs
// (printed here too when the benchmark data has it). --mode takes a comma list; with more than
// one mode, RUN.json becomes RUN.<mode>.json per mode. --compact runs compaction first, so that
// summary nodes are in the index and their hits lead to raw sections.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultConfig } from '../src/config/config.js';
import { compact } from '../src/cycle/compaction.js';
import { openIndex } from '../src/index/search-index.js';
import { updateIndex } from '../src/index/update.js';
import { embedderFor } from '../src/index/embed/select.js';
import { rephrasings, type ExtraQuery } from '../src/search/extra-queries.js';
import { SEARCH_MODES, type SearchMode } from '../src/search/search.js';
import { expandQuery } from '../src/search/expand.js';
import { workspaceAt } from '../src/tree/layout.js';
import { benchDataDir, loadQuestions, memawareMemory, RETRIEVERS, runQuestions, type Question } from './lib/memaware.js';

const argv = process.argv.slice(2);
const arg = (name: string, dflt?: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const out = arg('--out');
if (!out) {
  process.stderr.write(
    'usage: npm run bench:recall -- --out RUN.json [--questions FILE] [--mode bm25|vector|hybrid[,…]] [--via search] [--limit 50] [--embedder NAME] [--compact] [--workspace DIR]\n',
  );
  process.exit(2);
}
const modes = arg('--mode', 'hybrid')!.split(',') as SearchMode[];
for (const m of modes) if (!SEARCH_MODES.includes(m)) throw new Error(`--mode: unknown mode "${m}"`);
const via = arg('--via', 'search')!;
const makeRetriever = RETRIEVERS[via];
if (!makeRetriever) throw new Error(`--via: unknown retrieval "${via}" (known: ${Object.keys(RETRIEVERS).join(', ')})`);
const limit = Number(arg('--limit', '50'));
const questions = loadQuestions(arg('--questions'));

const kept = arg('--workspace');
const root = kept ? resolve(kept) : mkdtempSync(join(tmpdir(), 'hipo-recall-'));
try {
  const config = defaultConfig();
  config.timeZone = 'UTC';
  const embedderName = arg('--embedder');
  if (embedderName) config.search.embedder = embedderName;
  // Fusion constants to try (the defaults come from the config).
  if (arg('--rrf-k')) config.search.hybrid.k = Number(arg('--rrf-k'));
  if (arg('--vector-weight')) config.search.hybrid.vectorWeight = Number(arg('--vector-weight'));
  if (argv.includes('--fact-chunks')) config.search.factChunks = true;
  const ws = workspaceAt(root);
  if (!existsSync(ws.memoryDir)) {
    mkdirSync(root, { recursive: true });
    cpSync(memawareMemory(), ws.memoryDir, { recursive: true });
  }
  if (argv.includes('--compact')) {
    const t = performance.now();
    const r = await compact(ws, config, { catchUp: true, now: '2023-07-15' });
    console.log(`compaction: ${r.written.length} nodes written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const index = openIndex(ws, config, { embedder: embedderFor(ws, config.search) });
  const t0 = performance.now();
  const report = await updateIndex(index);
  console.log(
    `index: ${report.files} files, +${report.chunksAdded} chunks, ${report.embedded} embedded in ${((performance.now() - t0) / 1000).toFixed(1)} s (${index.embedder?.id ?? 'no embedder'})`,
  );
  for (const w of report.warnings) console.log(`  warning: ${w}`);

  // --also-field F: the question's field F as an agent's own rephrasing (should_recall is an
  // oracle: the benchmark's statement of the fact needed). --expand: the configured model's
  // expansion (HIPO_LLM_BASE_URL, HIPO_LLM_MODEL, HIPO_LLM_API_KEY), cached in the workspace's .hipo/.
  const alsoField = arg('--also-field');
  let alsoFor: ((q: Question) => Promise<ExtraQuery[]>) | null = null;
  if (alsoField) alsoFor = async (q) => rephrasings(typeof q[alsoField] === 'string' ? [q[alsoField] as string] : []);
  if (argv.includes('--expand')) {
    const fails = new Map<string, number>();
    alsoFor = async (q) => {
      const x = await expandQuery(ws, config, q.question);
      if (x.warning) fails.set(x.warning, (fails.get(x.warning) ?? 0) + 1);
      return x.also;
    };
    process.on('exit', () => {
      for (const [w, n] of fails) console.log(`  ${n}× ${w}`);
    });
  }
  // How summary nodes count: --no-fold ranks them as sections of their own (as before links),
  // --vote-weight W weighs their votes for their raw sections (0: fold only), --no-topic-leads
  // folds topic lines without their leading anywhere.
  const tree = {
    fold: !argv.includes('--no-fold'),
    topicLeads: !argv.includes('--no-topic-leads'),
    ...(arg('--vote-weight') ? { voteWeight: Number(arg('--vote-weight')) } : {}),
  };
  for (const mode of modes) {
    const retrieve = makeRetriever(index, { mode, limit, tree, ...(alsoFor ? { also: alsoFor } : {}) });
    const { run, times } = await runQuestions(retrieve, questions);
    const file = modes.length > 1 ? out.replace(/(\.json)?$/, `.${mode}.json`) : out;
    writeFileSync(file, JSON.stringify(run, null, 1));
    times.sort((a, b) => a - b);
    const p = (x: number): string => times[Math.min(times.length - 1, Math.floor(times.length * x))]!.toFixed(1);
    console.log(`${mode}: ${questions.length} questions via ${via}, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms → ${file}`);
    const scorer = join(benchDataDir(), 'score.mjs');
    if (!existsSync(scorer)) continue;
    if (argv.includes('--brief')) {
      const r = (
        JSON.parse(execFileSync(process.execPath, [scorer, '--run', file, '--json'], { encoding: 'utf8' })) as {
          run: Record<string, Record<string, number>>;
        }
      ).run;
      const pct = (x: number | undefined): string => ((x ?? 0) * 100).toFixed(1);
      console.log(
        ['all', 'easy', 'medium', 'hard']
          .map((g) => `${g} ${pct(r[g]!['R@1'])}/${pct(r[g]!['R@5'])}/${pct(r[g]!['R@10'])} ${r[g]!.MRR!.toFixed(3)}`)
          .join(' | '),
      );
    } else console.log(execFileSync(process.execPath, [scorer, '--run', file], { encoding: 'utf8' }));
  }
  index.close();
} finally {
  if (!kept) rmSync(root, { recursive: true, force: true });
}
