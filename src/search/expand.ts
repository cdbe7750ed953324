// Query expansion: the configured model (the `llm` section) reads ROOT.md — the topics this
// memory holds — and the query, and writes a few more queries for the past notes that matter
// to it. A request rarely names the fact it depends on ("a vacuum for a shedding, long-haired
// housemate" needs "my dog is a Golden Retriever"); knowing what the memory knows is how the
// model bridges that. Keyword lines go to BM25, sentence lines to vectors, fused with the
// query's own lists (search.ts). Optional and best-effort: any failure leaves the plain search.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HipoConfig } from '../config/config.js';
import { ROOT_FILE, type Workspace } from '../tree/layout.js';
import { openAiChatClient, type ChatMessage, LlmCallError } from '../summarize/llm/client.js';
import { AnswerCache, requestKey } from '../summarize/llm/cache.js';
import { resolveLlmSettings, type LlmSettings } from '../summarize/llm/settings.js';
import { rephrasings, type ExtraQuery } from './extra-queries.js';

/** ROOT.md beyond this is not sent (ROOT is capped by compaction.rootMaxTokens anyway). */
const MAX_ROOT_CHARS = 24_000;
/** One extra query: longer lines are cut. */
const MAX_LINE_CHARS = 300;
const MAX_OUTPUT_TOKENS = 400;

const SYSTEM = [
  "You write search queries over a person's long-term memory: dated markdown notes of their past conversations and work.",
  "You get the memory's topic index (ROOT.md) and a request. Think of what the memory may hold that matters to the request although the request does not name it:",
  'facts about the person (what they own, who they know, where they live and go, their job, plans, habits, preferences, numbers and dates they mentioned, decisions made before).',
  'Use the topic index to see what is there.',
  'Answer with 2 to 4 lines and nothing else. Each line is one of:',
  'lex: 3 to 10 keywords likely to appear in such a note (names, products, places, exact terms)',
  "vec: one sentence such a note might contain, in the person's own words",
].join('\n');

function expansionMessages(query: string, root: string): ChatMessage[] {
  const index = root.length > MAX_ROOT_CHARS ? `${root.slice(0, MAX_ROOT_CHARS)}\n…` : root;
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `Topic index (ROOT.md):\n${index.trim() || '(empty: the memory has no topics yet)'}\n\nRequest:\n${query.trim()}`,
    },
  ];
}

const LINE = /^\s*(?:[-*\d.)]+\s*)?[`*_]*(lex|vec)[`*_]*\s*[:=]\s*(.+?)\s*$/i;

/** The `lex:`/`vec:` lines of a model's answer; anything else (prose, fences) is ignored. */
export function parseExpansions(text: string, query: string, max: number): ExtraQuery[] {
  const out: ExtraQuery[] = [];
  const seen = new Set([query.trim().toLowerCase()]);
  // Reasoning models may think aloud first; only the answer counts.
  const answer = text.replace(/<think>[\s\S]*?(?:<\/think>|$)/g, '');
  for (const line of answer.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const body = m[2]!
      .replace(/^["'`]+|["'`]+$/g, '')
      .trim()
      .slice(0, MAX_LINE_CHARS);
    if (!body || seen.has(body.toLowerCase())) continue;
    seen.add(body.toLowerCase());
    out.push({ kind: m[1]!.toLowerCase() as ExtraQuery['kind'], text: body });
    if (out.length >= max) break;
  }
  return out;
}

export interface Expansion {
  also: ExtraQuery[];
  /** Why there is no expansion although one was asked for; null when it worked. */
  warning: string | null;
  /** Answered from .hipo/llm-cache without a call. */
  cached: boolean;
  /** The model that answered. */
  model: string | null;
}

export interface ExpandOptions {
  /** The environment HIPO_LLM_* are read from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Aborted when the owner stops (a daemon on SIGTERM): the call in flight is abandoned, which
   * would otherwise hold it until search.expand.timeoutMs; the search goes on without expansion.
   */
  signal?: AbortSignal | undefined;
}

/** The settings for one expansion call: the `llm` endpoint, the search's own time limit, no retries. */
function expansionSettings(config: HipoConfig, env: NodeJS.ProcessEnv): LlmSettings | null {
  const { settings } = resolveLlmSettings(config, env);
  if (!settings) return null;
  // A search waits for this call: a shorter limit than summaries, and a down endpoint is not retried.
  const own = config.search.expand.timeoutMs <= settings.timeoutMs;
  return {
    ...settings,
    timeoutMs: own ? config.search.expand.timeoutMs : settings.timeoutMs,
    timeoutSetting: own ? 'search.expand.timeoutMs' : 'llm.timeoutMs',
    maxRetries: 0,
    temperature: 0,
  };
}

export async function expandQuery(ws: Workspace, config: HipoConfig, query: string, opts: ExpandOptions = {}): Promise<Expansion> {
  const none = (warning: string): Expansion => ({ also: [], warning: `query expansion skipped: ${warning}`, cached: false, model: null });
  const settings = expansionSettings(config, opts.env ?? process.env);
  if (!settings) return none('no model is configured (llm.baseUrl and llm.model, or HIPO_LLM_BASE_URL and HIPO_LLM_MODEL)');
  const rootPath = join(ws.memoryDir, ROOT_FILE);
  let root = '';
  try {
    if (existsSync(rootPath)) root = readFileSync(rootPath, 'utf8');
  } catch (err) {
    return none(`${rootPath} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const messages = expansionMessages(query, root);
  const max = config.search.expand.maxQueries;
  const cache = new AnswerCache(ws);
  const key = requestKey(settings, messages, MAX_OUTPUT_TOKENS);
  const hit = cache.get(key);
  if (hit) return { also: parseExpansions(hit.text, query, max), warning: null, cached: true, model: hit.model };
  try {
    const client = await openAiChatClient(settings);
    const answer = await client.complete(messages, MAX_OUTPUT_TOKENS, opts.signal);
    const also = parseExpansions(answer.text, query, max);
    if (also.length === 0) return none(`${answer.model} wrote no "lex:" or "vec:" line`);
    cache.put(key, answer);
    return { also, warning: null, cached: false, model: answer.model };
  } catch (err) {
    if (err instanceof LlmCallError) return none(`${settings.baseUrl}: ${err.message}`);
    throw err;
  }
}

export interface ExtraQueries {
  also: ExtraQuery[];
  warnings: string[];
  /** The model's part, when it expanded the query. */
  expansion: { model: string | null; cached: boolean } | null;
}

/**
 * Everything a search runs besides the query: the caller's rephrasings, then the model's
 * expansion when `expand` (default: search.expand.enabled) asks for it.
 */
export async function extraQueries(
  ws: Workspace,
  config: HipoConfig,
  query: string,
  opts: { also?: readonly string[] | undefined; expand?: boolean | undefined } & ExpandOptions = {},
): Promise<ExtraQueries> {
  const out: ExtraQueries = { also: rephrasings(opts.also ?? []), warnings: [], expansion: null };
  if (!(opts.expand ?? config.search.expand.enabled)) return out;
  const x = await expandQuery(ws, config, query, opts);
  out.also.push(...x.also);
  if (x.warning) out.warnings.push(x.warning);
  else out.expansion = { model: x.model, cached: x.cached };
  return out;
}
