// The MemAware retrieval benchmark's side of hipo: where the corpus and questions are, how a
// search hit becomes the benchmark's session key, and the retrieval functions a run can use.
// A run maps each question id to session keys `"YYYY-MM-DD#n"`, best first, where n is the
// `## Session n` section of that day's raw log. Hits in summary nodes lead to the raw sections
// they summarize (their `sources`).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SearchIndex } from '../../src/index/search-index.js';
import type { ExtraQuery } from '../../src/search/extra-queries.js';
import { search, type SearchHit, type SearchMode, type SearchOptions } from '../../src/search/search.js';
import { indexTreeSearch } from '../../src/context/index-search.js';
import { recall } from '../../src/context/recall.js';
import { linesRedactor } from '../../src/redact/lines.js';
import type { LocalDate } from '../../src/time/calendar.js';

export interface Question {
  id: string;
  tier: string;
  question: string;
  gold_sessions: string[];
  [field: string]: unknown;
}

export function benchDataDir(): string {
  return resolve(process.env.HIPO_BENCH_DATA ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'bench'));
}

export function memawareMemory(): string {
  const dir = join(benchDataDir(), 'memaware', 'memory');
  if (!existsSync(dir)) throw new Error(`no MemAware corpus at ${dir} (set HIPO_BENCH_DATA)`);
  return dir;
}

export function loadQuestions(file?: string): Question[] {
  return JSON.parse(readFileSync(file ?? join(benchDataDir(), 'memaware', 'gold.json'), 'utf8')) as Question[];
}

const SESSION = /^Session (\d+)$/;

/** The session key of a raw-log section, or null when the hit is not in a session. */
function sessionKey(ref: { level: string; period: { start: string } | null; headingPath: string[] }): string | null {
  if (ref.level !== 'raw' || !ref.period) return null;
  for (const h of ref.headingPath) {
    const m = SESSION.exec(h.trim());
    if (m) return `${ref.period.start}#${m[1]}`;
  }
  return null;
}

/** Session keys of ranked hits: a raw hit is its session, a node hit its sources' sessions. */
function hitKeys(hits: readonly SearchHit[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (k: string | null): void => {
    if (k && !seen.has(k)) {
      seen.add(k);
      out.push(k);
    }
  };
  for (const h of hits) {
    add(sessionKey(h));
    for (const s of h.sources) add(sessionKey(s));
  }
  return out;
}

/** One way of answering a question with ranked session keys. */
export type Retriever = (question: Question) => Promise<string[]>;

/** Every question through `retrieve`: the run (question id → session keys) and each one's time in ms. */
export async function runQuestions(retrieve: Retriever, questions: readonly Question[]) {
  const run: Record<string, string[]> = {};
  const times: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    run[q.id] = await retrieve(q);
    times.push(performance.now() - t);
  }
  return { run, times };
}

export interface RetrieverOptions {
  mode: SearchMode;
  /** Hits asked for per question. */
  limit: number;
  /** Extra queries for a question (an agent's rephrasing, a model's expansion), if any. */
  also?: (question: Question) => Promise<ExtraQuery[]>;
  /** How summary nodes count (search's `tree` option). */
  tree?: SearchOptions['tree'];
}

/** Retrieval through the search API, as `hipo search` does it. */
function viaSearch(index: SearchIndex, opts: RetrieverOptions): Retriever {
  return async (q) => {
    const also = opts.also ? await opts.also(q) : [];
    const r = await search(index, q.question, { mode: opts.mode, limit: opts.limit, also, ...(opts.tree ? { tree: opts.tree } : {}) });
    return hitKeys(r.hits);
  };
}

/** The `## Session n` headings of a raw log, by line, read once per file. */
function sessionHeadings(memoryDir: string, rel: string, cache: Map<string, [number, string][]>): [number, string][] {
  let heads = cache.get(rel);
  if (!heads) {
    heads = [];
    let text = '';
    try {
      text = readFileSync(join(memoryDir, rel), 'utf8');
    } catch {
      /* not a raw log */
    }
    text.split('\n').forEach((l, i) => {
      const m = /^## Session (\d+)/.exec(l);
      if (m) heads!.push([i + 1, m[1]!]);
    });
    cache.set(rel, heads);
  }
  return heads;
}

/** Retrieval through `hipo recall`: topics index, node manifest, then hybrid search, fused. */
function viaRecall(index: SearchIndex, opts: RetrieverOptions): Retriever {
  const cache = new Map<string, [number, string][]>();
  const redact = linesRedactor([]);
  const search = indexTreeSearch(index, index.ws.memoryName, index.ws.memoryDir, redact, opts.mode);
  return async (q) => {
    // Recall takes plain wordings: the extra queries' texts.
    const also = opts.also ? (await opts.also(q)).map((x) => x.text) : [];
    const r = await recall({
      memoryDir: index.ws.memoryDir,
      today: '2023-07-15' as LocalDate,
      question: q.question,
      also,
      budget: 1e9,
      measure: (t) => Math.ceil(t.length / 4),
      search,
      limit: opts.limit,
      redact,
    });
    const out: string[] = [];
    for (const p of r.passages) {
      if (!/^\d{4}-\d{2}-\d{2}\.md$/.test(p.path)) continue; // sessions live in raw logs
      let n: string | null = null;
      for (const [line, s] of sessionHeadings(index.ws.memoryDir, p.path, cache)) if (line <= p.from) n = s;
      const k = n && `${p.path.slice(0, 10)}#${n}`;
      if (k && !out.includes(k)) out.push(k);
    }
    return out;
  };
}

/** Retrieval functions by name (`--via`). */
export const RETRIEVERS: Record<string, (index: SearchIndex, opts: RetrieverOptions) => Retriever> = {
  search: viaSearch,
  recall: viaRecall,
};
