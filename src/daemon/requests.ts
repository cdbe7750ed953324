// What a running daemon answers over its socket (ask.ts, socket.ts): `hipo compact` run as one
// of its own cycles on the tree it holds, a search or recall with the index it keeps open, and an
// agent's hook run with the code it has loaded. It answers only a command that reads the same
// clock and settings as it does, so an answer is what the command would have printed had it done
// the work itself. Replies pass the workspace's redactor whole, as the command's own output would:
// the asking command prints them as they are.
import type { CompactReport, CompactResult } from '../cycle/compaction.js';
import type { RecallAnswer, RecallRequest } from '../context/recall-run.js';
import type { SearchAnswer, SearchRequest } from '../search/answer.js';
import type { HookRun } from '../hooks/run.js';
import type { DaemonRequest, HookRequest } from './ask.js';
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

/**
 * A hook's run. Its stdout, when a JSON document (the platforms' hook output), travels as that
 * value: the reply's redaction then goes string by string, as a hook's own output does
 * (redact/lines.ts redactOutput), and the JSON stays valid.
 */
export interface HookAnswered {
  hook: { stdout: { json: unknown } | { text: string } | null; stderr: string | null; exitCode: number };
}

function hookAnswer(run: HookRun): HookAnswered {
  let stdout: HookAnswered['hook']['stdout'] = null;
  if (run.stdout !== null) {
    try {
      stdout = { json: JSON.parse(run.stdout) };
    } catch {
      stdout = { text: run.stdout };
    }
  }
  return { hook: { stdout, stderr: run.stderr ?? null, exitCode: run.exitCode ?? 0 } };
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
  /** Runs an agent's hook as `hipo hook` would, but leaves following the raw log to its own watcher. */
  hook(request: HookRequest): Promise<HookRun>;
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
    case 'hook': {
      return { ok: true, result: hookAnswer(await host.hook(request.hook)) };
    }
    default:
      return { ok: false, error: `unknown request "${(request as { op: string }).op}"` };
  }
}
