// What the MCP tools do, as plain functions of the workspace: the server only adapts them.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { HipoConfig } from '../config/config.js';
import type { Hipo } from '../api/hipo.js';
import { renderRecall } from '../context/recall.js';
import type { IndexLevel } from '../index/levels.js';
import type { RecallAnswered, SearchAnswered } from '../daemon/requests.js';
import type { DaemonAsk, DaemonRequest } from '../daemon/ask.js';
import type { SearchMode } from '../search/modes.js';
import type { SectionRef } from '../search/search.js';
import { parseLocalDate, type LocalDate } from '../time/calendar.js';
import { readLineRange } from './read-lines.js';
import type { MemoryType, Workspace } from '../tree/layout.js';
import { redactKeepingLines } from '../redact/lines.js';
import { redactorFor } from '../redact/workspace.js';

export class ToolError extends Error {}

/** The library's door to the workspace the server was started in (loaded on first use: the server starts fast). */
async function hipoOf(env: ToolEnv): Promise<Hipo> {
  const { Hipo } = await import('../api/hipo.js');
  return Hipo.at(env.ws, env.config, { now: env.now });
}

/** A tool's answer: the text an agent reads, and the same facts as fields (`structuredContent`). */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

export interface ToolEnv {
  ws: Workspace;
  config: HipoConfig;
  /** Injected "today" (tests); default the clock. */
  now?: string;
  /**
   * The clock and settings digest the server started with (daemon/ask.ts): given them, a search
   * or recall is asked of a running daemon first, as `hipo search` and `hipo recall` do.
   */
  daemon?: { clock: string | null; settings: string };
  /**
   * Aborted when the session ends (stdin closed): a search's model call, embeddings request or
   * wait on the daemon in flight is abandoned, which would otherwise keep the server's process
   * alive until its time limit.
   */
  signal?: AbortSignal;
}

/** A running daemon's answer to `asked`, or null when none answered (the server does the work itself). */
async function daemonAnswer<T>(env: ToolEnv, asked: DaemonAsk): Promise<T | null> {
  if (!env.daemon) return null;
  const { askDaemon } = await import('../daemon/ask.js');
  // A search the model expands first may take search.expand.timeoutMs more: the daemon is not
  // given up on (and the model asked again) while it waits for that call.
  const { lockWaitMs, search } = env.config;
  const expands = asked.op === 'search' && (asked.search.expand ?? search.expand.enabled);
  const waitMs = expands ? lockWaitMs + search.expand.timeoutMs : lockWaitMs;
  const answer = await askDaemon<T>(env.ws, { ...asked, ...env.daemon } as DaemonRequest, waitMs, env.signal);
  return answer?.ok ? answer.result : null;
}

export async function contextTool(env: ToolEnv, args: { budget?: number; query?: string }): Promise<ToolAnswer> {
  const pack = await (await hipoOf(env)).context(args);
  return {
    text: pack.text,
    data: {
      today: pack.today,
      budget: pack.budget,
      unit: pack.unit,
      total: pack.total,
      spent: pack.spent,
      parts: pack.parts.map(({ level, path, period, cost, trimmed }) => ({ level, path, period, cost, trimmed })),
      omitted: pack.omitted,
      text: pack.text,
    },
  };
}

const MAX_GET_LINES = 2000;
/** A longer line (a pasted blob, a one-line log) is cut: the answer stays readable and bounded. */
const MAX_GET_LINE_BYTES = 8000;
/** More than the longest private key block (an 8192-bit RSA key is about 100 lines). */
const GET_LOOKBACK_LINES = 200;

/**
 * An absolute path in the memory folder (an agent's own file tools name files so, and status
 * shows the folder's) as its path there, or null; "/2026-03-14.md" names memory's file still.
 */
function insideMemory(path: string, memory: readonly string[]): string | null {
  if (!isAbsolute(path)) return null;
  for (const dir of memory) {
    const rel = relative(dir, path);
    if (rel && rel.split(sep)[0] !== '..' && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return null;
}

/** Lines `from`..`from+lines-1` of a file in the memory folder, each prefixed with its number. */
export function getTool(env: ToolEnv, args: { path: string; from?: number; lines?: number }): ToolAnswer {
  const memory = realpathSync(env.ws.memoryDir);
  let rel = insideMemory(args.path, [memory, resolve(env.ws.memoryDir)]) ?? args.path.replace(/^\/+/, '');
  if (rel.startsWith(`${env.ws.memoryName}/`)) rel = rel.slice(env.ws.memoryName.length + 1);
  const m = /^(.*?):(\d+)(?::(\d+))?$/.exec(rel); // path:from[:lines], as search results print it
  let from = args.from ?? 1;
  let count = args.lines ?? 200;
  if (m) {
    rel = m[1]!;
    from = args.from ?? Number(m[2]);
    if (m[3]) count = args.lines ?? Number(m[3]);
  }
  let abs: string;
  try {
    abs = realpathSync(resolve(memory, rel));
  } catch {
    throw new ToolError(`${env.ws.memoryName}/${rel}: no such file in the memory folder`);
  }
  if (!abs.startsWith(memory + sep)) throw new ToolError(`${args.path}: outside the memory folder`);
  const shown = `${env.ws.memoryName}/${relative(memory, abs).split(sep).join('/')}`;
  // A FIFO or device would block the server for good: only regular files are opened.
  if (!statSync(abs).isFile()) throw new ToolError(`${shown}: not a regular file`);
  const start = Math.max(1, Math.floor(from));
  const n = Math.min(Math.max(1, Math.floor(count)), MAX_GET_LINES);
  // Lines above the range are read too, so that a private key block beginning there is seen
  // whole; redaction keeps line numbers (the block's lines become blank lines).
  const first = Math.max(1, start - GET_LOOKBACK_LINES);
  const file = readLineRange(abs, first, n + start - first, MAX_GET_LINE_BYTES);
  if (!file) throw new ToolError(`${shown}: cannot be read as text`);
  const redacted = file.lines.length
    ? redactKeepingLines(redactorFor(env.config.redactPatterns), file.lines.join('\n')).text.split('\n')
    : [];
  const lines = redacted.slice(start - first);
  const end = start + lines.length - 1;
  if (!lines.length && file.total) throw new ToolError(`${shown}: line ${start} is past the end (${file.total} lines)`);
  return {
    text: [
      lines.length ? `${shown} lines ${start}-${end} of ${file.total}` : `${shown}: empty`,
      ...lines.map((l, i) => `${String(start + i).padStart(5)}  ${l}`),
    ].join('\n'),
    data: {
      path: shown,
      from: start,
      to: Math.max(start - 1, end),
      total: file.total,
      lines: lines.map((text, i) => ({ n: start + i, text })),
    },
  };
}

export async function logTool(env: ToolEnv, args: { text: string; type?: MemoryType; topic?: string }): Promise<ToolAnswer> {
  if (!args.text.trim()) throw new ToolError('text is empty');
  const r = await (await hipoOf(env)).log(args.text, { type: args.type, topic: args.topic });
  const file = `${env.ws.memoryName}/${r.rel}`;
  return {
    text: `appended to ${file}: ${r.heading}${r.redacted ? ` (${r.redacted} secret(s) redacted)` : ''}`,
    data: { file, heading: r.heading, bytes: r.bytes, redacted: r.redacted },
  };
}

export async function statusTool(env: ToolEnv): Promise<ToolAnswer> {
  const r = await (await hipoOf(env)).status();
  const data = {
    memoryDir: r.memoryDir,
    today: r.clock.today,
    timeZone: r.clock.timeZone,
    raw: r.raw,
    nodes: r.nodes,
    pending: r.next.actions.length + r.next.deferred.length,
    lastCycle: r.lastCycle,
    lastCapture: r.lastCapture,
    hookErrors: r.hookErrors,
    warnings: r.warnings.slice(0, 20),
    ...(r.store ? { store: r.store } : {}),
  };
  return { text: JSON.stringify(data, null, 2), data };
}

export async function recallTool(env: ToolEnv, args: { question: string; budget?: number; also?: string[] }): Promise<ToolAnswer> {
  if (!args.question.trim()) throw new ToolError('question is empty');
  const ask = { budget: args.budget, also: args.also };
  const r =
    (await daemonAnswer<RecallAnswered>(env, { op: 'recall', recall: { question: args.question, ...ask, search: true, update: true } }))
      ?.recall ?? (await (await hipoOf(env)).recall(args.question, ask));
  return {
    text: renderRecall(r, env.ws.memoryName),
    data: {
      question: r.question,
      topics: r.topics.map(({ name, type, latest }) => ({ name, type, latest })),
      days: r.days,
      passages: r.passages.map((p) => ({
        path: `${env.ws.memoryName}/${p.path}`,
        from: p.from,
        to: p.to,
        score: p.score,
        via: p.via,
        trimmed: p.trimmed,
        text: p.text,
        ...(p.said ? { said: p.said } : {}),
      })),
      leftOut: r.leftOut,
      tokens: r.tokens,
      budget: r.budget,
      searched: r.searched,
    },
  };
}

export interface SearchArgs {
  query: string;
  mode?: SearchMode;
  limit?: number;
  levels?: IndexLevel[];
  since?: string;
  until?: string;
  types?: MemoryType[];
  also?: string[];
  expand?: boolean;
  workspaces?: string[];
}

export async function searchTool(env: ToolEnv, args: SearchArgs): Promise<ToolAnswer> {
  if (!args.query.trim()) throw new ToolError('query is empty');
  const date = (s: string | undefined, name: string): LocalDate | undefined => {
    if (s === undefined) return undefined;
    const d = parseLocalDate(s);
    if (!d) throw new ToolError(`${name}: "${s}" is not a date (YYYY-MM-DD)`);
    return d;
  };
  const filters = { levels: args.levels, since: date(args.since, 'since'), until: date(args.until, 'until'), types: args.types };
  const { formatSearch } = await import('../search/format.js');
  // An agent gets what the user said of themselves beside each hit's matched lines (search/said.ts).
  const ask = {
    mode: args.mode,
    limit: args.limit,
    filters,
    also: args.also,
    expand: args.expand,
    workspaces: args.workspaces,
    said: true,
  };
  const byDaemon = (await daemonAnswer<SearchAnswered>(env, { op: 'search', search: { query: args.query, ...ask, update: true } }))?.search;
  // Nobody is left to read an answer: no index update or search for it.
  if (!byDaemon && env.signal?.aborted) throw new ToolError('the session ended');
  const result = byDaemon ?? (await (await hipoOf(env)).search(args.query, { ...ask, signal: env.signal }));
  const warnings = result.warnings;
  const ref = (h: SectionRef) => ({ path: h.path, lines: h.lines, heading: h.heading, level: h.level, period: h.period, score: h.score });
  return {
    text: formatSearch(result) + (warnings.length ? `\n\nwarnings:\n${warnings.map((w) => `- ${w}`).join('\n')}` : ''),
    data: {
      query: result.query,
      mode: result.mode,
      also: result.also.map(({ kind, text }) => ({ kind, text })),
      hits: result.hits.map((h) => ({
        ...ref(h),
        headingPath: h.headingPath,
        status: h.status,
        type: h.type,
        snippet: { line: h.snippet.line, text: h.snippet.text },
        ...(h.said ? { said: h.said } : {}),
        sources: h.sources.map(ref),
        ...(h.workspace ? { workspace: h.workspace } : {}),
      })),
      warnings,
    },
  };
}
