// Taking in the captures hooks could not make while the config did not load, the workspace could
// not be written (a folder missing or refusing, a full disk) or the append lock stayed busy
// (state/pending-captures.ts): with a config that loads, each waiting session's transcript is
// archived from where its session stopped, as its own hook would have done. Hooks, `hipo compact`
// and a daemon starting do it, so a session that ended while the workspace was broken is archived
// once it is fixed, whichever comes first.
import type { HipoConfig } from '../config/config.js';
import { appendJournal } from '../state/journal.js';
import { dropArchivedCopy } from '../state/opencode-copies.js';
import { dropPendingCapture, pendingCaptures } from '../state/pending-captures.js';
import { loadSessionState } from '../state/sessions.js';
import type { Clock } from '../time/clock.js';
import type { Workspace } from '../tree/layout.js';
import { captureRecord, captureTranscript } from './archive.js';
import { CAPTURE_EVENTS, type CaptureEvent } from './events.js';

export interface TakenIn {
  /** Sessions whose waiting capture was archived. */
  sessions: number;
  turns: number;
}

/**
 * Archives the waiting captures (but `except`'s, which the calling hook archives itself), while
 * `deadline` (performance.now()) allows; one not finished waits for the next call. Failures are
 * journalled and the capture keeps waiting.
 */
export async function takeInPendingCaptures(
  ws: Workspace,
  config: HipoConfig,
  clock: Clock,
  deadline: number,
  except: string | null = null,
): Promise<TakenIn> {
  const out: TakenIn = { sessions: 0, turns: 0 };
  for (const p of pendingCaptures(ws)) {
    if (p.sessionId === except) continue;
    if (performance.now() >= deadline) break;
    const event = (p.event in CAPTURE_EVENTS ? p.event : 'Stop') as CaptureEvent;
    try {
      const r = await captureTranscript(ws, config, clock, { event, sessionId: p.sessionId, transcriptPath: p.transcript }, deadline);
      appendJournal(ws, [
        {
          ...captureRecord(event, p.sessionId, r),
          // The hook that could not capture, and why: the turns come late, or (the transcript gone) not at all.
          pendingSince: p.at,
          note: `${r.note ? `${r.note}; ` : ''}captured late: the hook at ${p.at} could not (${p.problem})`,
        },
      ]);
      if (r.backlog === 0) {
        dropPendingCapture(ws, p.sessionId, p.transcript);
        // The OpenCode plugin's copy, which its own hook would have removed once archived.
        dropArchivedCopy(ws, p.transcript, loadSessionState(ws, p.sessionId)?.offset ?? 0);
      }
      out.turns += r.turns;
      if (r.backlog === 0) out.sessions++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      appendJournal(ws, [
        { type: 'hook-error', at: new Date().toISOString(), event, session: p.sessionId, message: `waiting capture: ${message}` },
      ]);
    }
  }
  return out;
}
