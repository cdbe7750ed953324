// What a running daemon answers over its socket (ask.ts, socket.ts): `hipo compact` run as one
// of its own cycles on the tree it holds, and a search of the index it keeps open. It answers
// only a command that reads the same clock as it does, so an answer is what the command would
// have printed had it done the work itself.
import type { CompactReport, CompactResult } from '../cycle/compaction.js';
import type { DaemonRequest } from './ask.js';
import type { Reply } from './socket.js';

/** The daemon's cycle; the daemon brings its search index up to date right after. */
export interface CompactAnswer {
  compact: CompactReport;
}

/** A run the daemon made for a request. */
export interface RunOutcome {
  result: CompactResult;
}

export interface RequestHost {
  /** Where the daemon takes "today" from (ask.ts clockSource). */
  readonly clock: string | null;
  /** Why the daemon cannot take requests now (stopping, working off a backlog), or null. */
  busy(): string | null;
  /** Runs a cycle now, looking at every file touched so far (reported or not yet settled). */
  runNow(reason: string): Promise<RunOutcome>;
  /** Searches the index, brought up to date first unless `update` is false. */
  search(query: string, options: Record<string, unknown>, update: boolean): Promise<unknown>;
}

function compactReport(r: CompactResult): CompactReport {
  const { tree: _tree, clock, ...rest } = r;
  return { ...rest, clock: { today: clock.today, timeZone: clock.timeZone } };
}

export async function answerRequest(host: RequestHost, request: DaemonRequest): Promise<Reply> {
  if ((request.clock ?? null) !== host.clock) return { declined: 'the command reads another clock' };
  const busy = host.busy();
  if (busy) return { declined: busy };
  switch (request.op) {
    case 'ping':
      return { ok: true, result: { pid: process.pid } };
    case 'compact': {
      const o = await host.runNow('hipo compact');
      const answer: CompactAnswer = { compact: compactReport(o.result) };
      return { ok: true, result: answer };
    }
    case 'search': {
      const { update, ...options } = request.options;
      return { ok: true, result: await host.search(request.query, options, update !== false) };
    }
    default:
      return { ok: false, error: `unknown request "${(request as { op: string }).op}"` };
  }
}
