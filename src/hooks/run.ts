// `hipo hook <event>`: one platform hook call. Capture events archive the transcript; SessionStart
// prints the restore JSON. Fail open: any error is recorded in the journal (`hook-error`, shown
// by `hipo status`) and the hook prints nothing and exits 0, so it can never block the agent or
// the platform's compaction.
import { existsSync } from 'node:fs';
import { CAPTURE_EVENTS, type CaptureEvent } from '../capture/events.js';
import { loadConfig } from '../config/config.js';
import { appendJournal } from '../state/journal.js';
import { resolveClock } from '../time/clock.js';
import { workspaceAt, type Workspace } from '../tree/layout.js';
import { hookWorkspace, parseHookInput, type HookInput } from './input.js';

/** Time a prompt's recall needs (open the index, one keyword search): not started with less left. */
const PROMPT_RECALL_MIN_MS = 150;

export const HOOK_EVENTS = ['SessionStart', ...Object.keys(CAPTURE_EVENTS)] as const;

export interface HookRun {
  /** What to print on stdout (only SessionStart prints). */
  stdout: string | null;
  /** The error that was recorded, if any. */
  error: string | null;
}

export interface HookOptions {
  dir?: string;
  now?: string;
  /** performance.now() at process start, for the time budget. */
  startedAt: number;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export async function runHook(event: string, stdinText: string | Error, opts: HookOptions): Promise<HookRun> {
  let ws: Workspace | null = null;
  let input: HookInput = {};
  try {
    // With --dir the workspace is known before the input is read, so bad input can be reported.
    if (opts.dir) {
      ws = workspaceAt(opts.dir); // where to report a bad config, if loading it fails
      ws = workspaceAt(opts.dir, loadConfig(opts.dir).config.memoryDir);
    }
    if (stdinText instanceof Error) throw stdinText;
    input = parseHookInput(stdinText);
    const root = hookWorkspace(opts.dir, input);
    if (!root) return { stdout: null, error: null }; // not a hipo workspace: nothing to do, nowhere to log
    const { config } = loadConfig(root);
    ws = workspaceAt(root, config.memoryDir);
    if (!existsSync(ws.memoryDir)) throw new Error(`${ws.memoryDir}: no memory folder (run "hipo init")`);
    const clock = resolveClock(config.timeZone, opts.now);
    const sessionId = str(input.session_id);
    const transcriptPath = str(input.transcript_path);
    // Each event loads only what it needs: a capture hook never pays for the context pack.
    if (event === 'SessionStart') {
      const { sessionStart } = await import('./session-start.js');
      const out = await sessionStart(ws, config, clock, { sessionId, source: str(input.source), transcriptPath });
      return { stdout: out.json, error: null };
    }
    if (event in CAPTURE_EVENTS) {
      if (!sessionId) throw new Error('hook input has no session_id');
      const deadline = opts.startedAt + config.agents.hookBudgetMs;
      const { captureTranscript } = await import('../capture/archive.js');
      const r = await captureTranscript(
        ws,
        config,
        clock,
        { event: event as CaptureEvent, sessionId, transcriptPath, prompt: str(input.prompt) },
        deadline,
      );
      // New turns in the raw log: the tree should follow them (hooks/background.ts).
      let background: string | null = null;
      if (r.turns > 0) {
        const { compactInBackground } = await import('./background.js');
        background = compactInBackground(ws, config, opts.now ? { now: opts.now } : {});
      }
      // A compaction is worth a line even when every turn was archived before it.
      if (r.turns > 0 || r.backlog > 0 || r.malformed > 0 || r.note || event === 'PreCompact') {
        appendJournal(ws, [
          {
            type: 'capture',
            at: new Date().toISOString(),
            event,
            session: sessionId,
            file: r.file,
            turns: r.turns,
            bytes: r.bytes,
            backlog: r.backlog,
            malformed: r.malformed,
            oversized: r.oversized,
            redacted: r.redacted,
            ...(input.trigger ? { trigger: String(input.trigger) } : {}),
            ...(r.note ? { note: r.note } : {}),
            ...(background === 'started' ? { compacting: 'started in the background' } : {}),
            ms: Math.round(performance.now() - opts.startedAt),
          },
        ]);
      }
      // The prompt's turn is archived at Stop; what memory holds about it goes to the agent now,
      // when the capture left time for it (hooks/prompt-recall.ts).
      if (event === 'UserPromptSubmit' && performance.now() < deadline - PROMPT_RECALL_MIN_MS) {
        const { promptRecall } = await import('./prompt-recall.js');
        return { stdout: await promptRecall(ws, config, str(input.prompt), sessionId), error: null };
      }
      return { stdout: null, error: null };
    }
    return { stdout: null, error: null }; // an event hipo does not handle: ignore it
  } catch (err) {
    const message =
      err instanceof SyntaxError ? `hook input is not JSON (${err.message})` : err instanceof Error ? err.message : String(err);
    if (ws) {
      try {
        appendJournal(ws, [{ type: 'hook-error', at: new Date().toISOString(), event, session: str(input.session_id), message }]);
      } catch {
        /* nowhere left to report: still exit 0 */
      }
    }
    return { stdout: null, error: message };
  }
}
