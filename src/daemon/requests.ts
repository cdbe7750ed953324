// What a running daemon answers over its socket (ask.ts, socket.ts): `hipo compact` run as one
// of its own cycles on the tree it holds, and a search or recall with the index it keeps open. It answers
// only a command that reads the same clock and settings as it does, so an answer is what the
// command would have printed had it done the work itself. Replies pass the workspace's redactor
// whole, as the command's own output would: the asking command prints them as they are.
import type { CompactReport, CompactResult } from '../cycle/compaction.js';
import type { RecallAnswer, RecallRequest } from '../context/recall-run.js';
import type { SearchAnswer, SearchRequest } from '../search/answer.js';
import type { DaemonRequest } from './ask.js';
import type { Reply } from './socket.js';

/** What every answer carries: the configuration's warnings and where the memory folder is. */
interface AnswerContext {
  configWarnings: string[];
  /** `memoryDir` as configured (the command prints paths relative to it). */
  memoryDir: string;
}

/** The daemon's cycle; the daemon brings its search index up to date right after. */
export interface CompactAnswer extends AnswerContext {
  compact: CompactReport;
}

export interface SearchAnswered extends AnswerContext {
  search: SearchAnswer;
}

export interface RecallAnswered extends AnswerContext {
  recall: RecallAnswer;
}

/** A run the daemon made for a request. */
export interface RunOutcome {
  result: CompactResult;
}

export interface RequestHost {
  /** Where the daemon takes "today" from (ask.ts clockSource). */
  readonly clock: string | null;
  /** What its settings were made from when it started (config/settings-source.ts). */
  readonly settings: string;
  /** Its workspace as commands name theirs (workspaceIdentity): null once nothing is at its path. */
  root(): string | null;
  readonly context: AnswerContext;
  /** Why the daemon cannot take requests now (stopping, working off a backlog), or null. */
  busy(): string | null;
  /** Runs a cycle now, looking at every file touched so far (reported or not yet settled). */
  runNow(reason: string): Promise<RunOutcome>;
  /** Searches the index, brought up to date first unless the request says not to. */
  search(request: SearchRequest): Promise<SearchAnswer>;
  /** Recalls as `hipo recall` would, with the index it holds. */
  recall(request: RecallRequest): Promise<RecallAnswer>;
  /** The workspace's redactor over a value (strings inside it), as the command's output would pass. */
  redact<T>(value: T): T;
}

function compactReport(r: CompactResult): CompactReport {
  const { tree: _tree, clock, ...rest } = r;
  return { ...rest, clock: { today: clock.today, timeZone: clock.timeZone } };
}

/** The reply to `request`, redacted whole (a failure's message too). */
export async function answerRequest(host: RequestHost, request: DaemonRequest): Promise<Reply> {
  try {
    return host.redact(await reply(host, request));
  } catch (err) {
    return host.redact({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}

async function reply(host: RequestHost, request: DaemonRequest): Promise<Reply> {
  // A command of an earlier hipo names no workspace: it does its work itself, as for any doubt.
  const root = host.root();
  if (!request.root || request.root !== root)
    return { declined: root ? `the daemon serves ${root}, not the command's workspace` : 'the workspace the daemon serves is gone' };
  if ((request.clock ?? null) !== host.clock) return { declined: 'the command reads another clock' };
  if (request.settings !== host.settings)
    return { declined: 'the command reads other settings (hipo.config.json or HIPO_* variables changed since the daemon started)' };
  const busy = host.busy();
  if (busy) return { declined: busy };
  switch (request.op) {
    case 'ping':
      return { ok: true, result: { pid: process.pid } };
    case 'compact': {
      const o = await host.runNow('hipo compact');
      const answer: CompactAnswer = { ...host.context, compact: compactReport(o.result) };
      return { ok: true, result: answer };
    }
    case 'search': {
      const answer: SearchAnswered = { ...host.context, search: await host.search(request.search) };
      return { ok: true, result: answer };
    }
    case 'recall': {
      const answer: RecallAnswered = { ...host.context, recall: await host.recall(request.recall) };
      return { ok: true, result: answer };
    }
    default:
      return { ok: false, error: `unknown request "${(request as { op: string }).op}"` };
  }
}
