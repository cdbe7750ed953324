// The MemAware retrieval benchmark's side of hipo: where the corpus and questions are, how a
// search hit becomes the benchmark's session key, and the retrieval functions a run can use.
// A run maps each question id to session keys `"YYYY-MM-DD#n"`, best first, where n is the
// `## Session n` section of that day's raw log. Hits in summary nodes lead to the raw sections
// they summarize (their `sources`).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SearchIndex } from '../../src/index/search-index.js';
import { search, type SearchHit, type SearchMode } from '../../src/search/search.js';

export interface Question {
  id: string;
  tier: string;
  question: string;
  gold_sessions: string[];
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
export function hitKeys(hits: readonly SearchHit[]): string[] {
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

/** One way of answering a question with ranked session keys (search now; recall later). */
export type Retriever = (question: string) => Promise<string[]>;

export interface RetrieverOptions {
  mode: SearchMode;
  /** Hits asked for per question. */
  limit: number;
}

/** Retrieval through the search API, as `hipo search` does it. */
export function viaSearch(index: SearchIndex, opts: RetrieverOptions): Retriever {
  return async (question) => {
    const r = await search(index, question, { mode: opts.mode, limit: opts.limit });
    return hitKeys(r.hits);
  };
}

/** Retrieval functions by name (`--via`). Agents' recall plugs in here. */
export const RETRIEVERS: Record<string, (index: SearchIndex, opts: RetrieverOptions) => Retriever> = {
  search: viaSearch,
};
