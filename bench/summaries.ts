// npm run bench:summaries — how many facts survive compaction, per level (figures, not a test).
// For the MemAware dev corpus (91 days of chat logs and 596 gold questions), the tree is built
// by a catch-up in a temp dir (--now the day after the last log), then for every question we
// check whether its gold `answer` phrase (case-insensitive) still appears in the raw log of its
// gold day(s) (the ceiling), in the daily node of those days, in the weekly and monthly nodes
// covering them, and in ROOT.md. A question counts at a level when any of its gold days' nodes
// holds the phrase. `substring` is a plain match; `word` requires no letter or digit on either
// side ("20" does not match inside "2023"). Node sizes are body tokens (cl100k_base).
//
// The extractive summarizer always runs. An LLM run follows when an endpoint is configured in
// the environment: HIPO_LLM_BASE_URL, HIPO_LLM_MODEL (and HIPO_LLM_API_KEY if it needs one).
//   --llm-only   skip the extractive run        --keep DIR   build the trees under DIR and keep them
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultConfig, loadConfig } from '../src/config/config.js';
import { compact } from '../src/cycle/compaction.js';
import { resolveLlmSettings } from '../src/summarize/llm/settings.js';
import { isoWeekOf, monthOf, parseLocalDate, type LocalDate } from '../src/time/calendar.js';
import { splitFrontmatter } from '../src/tree/frontmatter.js';
import { workspaceAt } from '../src/tree/layout.js';
import { loadTokenCounter } from '../src/text/tokens.js';

const here = resolve(import.meta.dirname);
const benchData = resolve(process.env.HIPO_BENCH_DATA ?? join(here, '..', '..', 'shared', 'bench'));
const corpus = join(benchData, 'memaware');
const llmOnly = process.argv.includes('--llm-only');
const keepAt = process.argv.includes('--keep') ? resolve(process.argv[process.argv.indexOf('--keep') + 1]!) : null;

interface Gold {
  id: string;
  gold_days: string[];
  answer: string | number;
}

type Level = 'raw' | 'daily' | 'weekly' | 'monthly' | 'root';
const LEVELS: readonly Level[] = ['raw', 'daily', 'weekly', 'monthly', 'root'];

function body(file: string): string | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const doc = splitFrontmatter(text);
  return doc.data ? doc.body : text;
}

function filesFor(level: Level, day: LocalDate, memory: string): string {
  switch (level) {
    case 'raw':
      return join(memory, `${day}.md`);
    case 'daily':
      return join(memory, 'daily', `${day}.md`);
    case 'weekly':
      return join(memory, 'weekly', `${isoWeekOf(day)}.md`);
    case 'monthly':
      return join(memory, 'monthly', `${monthOf(day)}.md`);
    case 'root':
      return join(memory, 'ROOT.md');
  }
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};
const pct = (n: number, d: number): string => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`.padStart(7);

async function measure(name: string, memory: string, gold: readonly Gold[], ms: number, calls: string): Promise<void> {
  const count = await loadTokenCounter('cl100k_base');
  const texts = new Map<string, string | null>();
  const textOf = (f: string): string | null => {
    if (!texts.has(f)) texts.set(f, body(f)?.toLowerCase() ?? null);
    return texts.get(f)!;
  };
  const hits = { substring: new Map<Level, number>(), word: new Map<Level, number>() };
  for (const g of gold) {
    const answer = String(g.answer).toLowerCase().trim();
    const word = new RegExp(`(?<![\\p{L}\\p{N}])${escape(answer)}(?![\\p{L}\\p{N}])`, 'u');
    for (const level of LEVELS) {
      const bodies = g.gold_days.map((d) => textOf(filesFor(level, parseLocalDate(d)!, memory))).filter((t): t is string => t !== null);
      if (bodies.some((t) => t.includes(answer))) hits.substring.set(level, (hits.substring.get(level) ?? 0) + 1);
      if (bodies.some((t) => word.test(t))) hits.word.set(level, (hits.word.get(level) ?? 0) + 1);
    }
  }
  const sizes = (level: Level): number[] => {
    const files =
      level === 'root'
        ? [join(memory, 'ROOT.md')]
        : readdirSync(join(memory, level))
            .filter((f) => f.endsWith('.md'))
            .map((f) => join(memory, level, f));
    return files
      .map(body)
      .filter((b): b is string => b !== null)
      .map(count);
  };
  console.log(`\n${name}: tree built in ${(ms / 1000).toFixed(1)} s${calls}`);
  console.log(`  fact survival (${gold.length} questions)   raw log    daily   weekly  monthly     ROOT`);
  for (const kind of ['substring', 'word'] as const) {
    console.log(`    ${kind.padEnd(29)}${LEVELS.map((l) => pct(hits[kind].get(l) ?? 0, gold.length).padStart(9)).join('')}`);
  }
  console.log(
    `    ${'share of the raw-log ceiling'.padEnd(29)}${' '.repeat(9)}${LEVELS.slice(1)
      .map((l) => pct(hits.substring.get(l) ?? 0, hits.substring.get('raw') ?? 1).padStart(9))
      .join('')}`,
  );
  const line = (l: Level): string => {
    const s = sizes(l);
    return `${l} ${s.length} nodes, median ${median(s).toLocaleString('en-US')} tokens (max ${Math.max(0, ...s).toLocaleString('en-US')})`;
  };
  console.log(`  node sizes (body tokens): ${(['daily', 'weekly', 'monthly', 'root'] as const).map(line).join('; ')}`);
}

async function build(name: string, label: string, withLlm: boolean, gold: readonly Gold[]): Promise<void> {
  const dir = keepAt ? join(keepAt, name) : mkdtempSync(join(tmpdir(), `hipo-bench-summaries-${name}-`));
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(join(corpus, 'memory'), join(dir, 'memory'), { recursive: true });
    writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ ...(withLlm ? {} : { llm: { baseUrl: '' } }), timeZone: 'UTC' }));
    const { config } = loadConfig(dir);
    const ws = workspaceAt(dir, config.memoryDir);
    const t0 = performance.now();
    // The extractive run must not see the endpoint even when the environment names one.
    const r = await compact(ws, config, { now: '2023-07-01', catchUp: true, command: 'bench', env: withLlm ? process.env : {} });
    const ms = performance.now() - t0;
    if (r.errors.length) console.log(`  errors: ${r.errors.slice(0, 5).join('; ')}`);
    const calls = r.applied.filter((a) => a.record.model);
    const fallbacks = r.applied.filter((a) => a.record.fallback);
    const tokensIn = calls.reduce((n, a) => n + (a.record.tokensIn ?? 0), 0);
    const tokensOut = calls.reduce((n, a) => n + (a.record.tokensOut ?? 0), 0);
    const note = withLlm
      ? ` · ${calls.length} model calls, ${tokensIn.toLocaleString('en-US')} tokens in, ${tokensOut.toLocaleString('en-US')} out, ${fallbacks.length} extractive fallbacks`
      : '';
    await measure(label, ws.memoryDir, gold, ms, note);
  } finally {
    if (!keepAt) rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(join(corpus, 'gold.json'))) {
  console.log(`bench:summaries skipped: no corpus at ${corpus} (set HIPO_BENCH_DATA)`);
  process.exit(0);
}
const gold = JSON.parse(readFileSync(join(corpus, 'gold.json'), 'utf8')) as Gold[];
console.log(`hipo bench:summaries · node ${process.version} · ${new Date().toISOString()} · MemAware dev, ${gold.length} questions`);
console.log('  reference: a tree built by an LLM agent kept the answer in ~64% of daily, 30% weekly, 37% monthly nodes, 15% of ROOT');
if (!llmOnly) await build('extractive', 'extractive', false, gold);
const llm = resolveLlmSettings(defaultConfig(), process.env);
if (llm.settings) await build('llm', `llm (${llm.settings.model} at ${llm.settings.baseUrl})`, true, gold);
else console.log('\nllm: skipped (no endpoint: set HIPO_LLM_BASE_URL and HIPO_LLM_MODEL to measure one)');
