// `hipo hook <event>`: one platform hook call. Capture events archive the transcript; SessionStart
// prints the restore JSON. Fail open: any error is recorded in the journal (`hook-error`, shown
// by `hipo status`) and the hook prints nothing and exits 0, so it can never block the agent or
// the platform's compaction. A config that does not load is the one error the user must act on,
// and it hides all of memory: it is said on stderr with exit 1 (the platforms show that as a
// non-blocking error; never 2, which blocks), SessionStart tells the agent, and a capture hook
// keeps which transcript it was given for the next hook or compaction that can archive it.
import { existsSync } from 'node:fs';
import { CAPTURE_EVENTS, type CaptureEvent } from '../capture/events.js';
import { ConfigError, loadConfig, type HipoConfig } from '../config/config.js';
import { appendJournal } from '../state/journal.js';
import { dropPendingCapture, pendingCaptures, recordPendingCapture } from '../state/pending-captures.js';
import type { Clock } from '../time/clock.js';
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
  /** What the user must see, on stderr (the platforms show it for a non-zero exit). */
  stderr?: string;
  /** 0, or 1 when the user must act (never 2: that blocks the prompt or the compaction). */
  exitCode?: number;
}

export interface HookOptions {
  dir?: string;
  now?: string;
  /** performance.now() at process start, for the time budget. */
  startedAt: number;
  /** Moves the process's hard cap to `agents.hookTimeoutMs` from its start, once the config is loaded. */
  capAt?: (ms: number) => void;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export async function runHook(event: string, stdinText: string | Error, opts: HookOptions): Promise<HookRun> {
  // Where to report bad input: with --dir the workspace is known before the input is read.
  let ws: Workspace | null = opts.dir ? workspaceAt(opts.dir) : null;
  let input: HookInput = {};
  try {
    if (stdinText instanceof Error) throw stdinText;
    input = parseHookInput(stdinText);
    const root = hookWorkspace(opts.dir, input);
    if (!root) return { stdout: null, error: null }; // not a hipo workspace: nothing to do, nowhere to log
    ws = workspaceAt(root); // its state folder does not depend on the config
    let config: HipoConfig;
    try {
      config = loadConfig(root).config;
    } catch (err) {
      if (err instanceof ConfigError) return configNotLoaded(event, ws, input, err);
      throw err;
    }
    opts.capAt?.(config.agents.hookTimeoutMs);
    ws = workspaceAt(root, config.memoryDir);
    if (!existsSync(ws.memoryDir)) throw new Error(`${ws.memoryDir}: no memory folder (run "hipo init")`);
    const clock = resolveClock(config.timeZone, opts.now);
    const sessionId = str(input.session_id);
    const transcriptPath = str(input.transcript_path);
    const deadline = opts.startedAt + config.agents.hookBudgetMs;
    // Each event loads only what it needs: a capture hook never pays for the context pack.
    if (event === 'SessionStart') {
      const { sessionStart } = await import('./session-start.js');
      const out = await sessionStart(ws, config, clock, { sessionId, source: str(input.source), transcriptPath });
      await takeInWaiting(ws, config, clock, deadline, null, opts);
      return { stdout: out.json, error: null };
    }
    if (event in CAPTURE_EVENTS) {
      if (!sessionId) throw new Error('hook input has no session_id');
      const { captureRecord, captureTranscript } = await import('../capture/archive.js');
      const r = await captureTranscript(
        ws,
        config,
        clock,
        { event: event as CaptureEvent, sessionId, transcriptPath, prompt: str(input.prompt) },
        deadline,
      );
      // This session's capture that waited for the config is this one.
      if (transcriptPath && r.backlog === 0) dropPendingCapture(ws, sessionId, transcriptPath);
      const late = await takeInWaiting(ws, config, clock, deadline, sessionId, null);
      // New turns in the raw log: the tree should follow them (hooks/background.ts).
      let background: string | null = null;
      if (r.turns + late > 0) {
        const { compactInBackground } = await import('./background.js');
        background = compactInBackground(ws, config, opts.now ? { now: opts.now } : {});
      }
      // A compaction is worth a line even when every turn was archived before it.
      if (r.turns > 0 || r.backlog > 0 || r.malformed > 0 || r.note || event === 'PreCompact') {
        appendJournal(ws, [
          {
            ...captureRecord(event, sessionId, r),
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
    if (ws) journalError(ws, event, input, message);
    return { stdout: null, error: message };
  }
}

function journalError(ws: Workspace, event: string, input: HookInput, message: string, extra: Record<string, unknown> = {}): void {
  try {
    appendJournal(ws, [{ type: 'hook-error', at: new Date().toISOString(), event, session: str(input.session_id), message, ...extra }]);
  } catch {
    /* nowhere left to report: still exit 0 */
  }
}

/**
 * Captures that waited for the config (capture/pending.ts), with the time the hook has left;
 * returns the turns archived. SessionStart (`background` set) starts the tree following them.
 */
async function takeInWaiting(
  ws: Workspace,
  config: HipoConfig,
  clock: Clock,
  deadline: number,
  except: string | null,
  background: HookOptions | null,
): Promise<number> {
  if (pendingCaptures(ws).every((p) => p.sessionId === except)) return 0;
  const { takeInPendingCaptures } = await import('../capture/pending.js');
  const took = await takeInPendingCaptures(ws, config, clock, deadline, except);
  if (took.turns > 0 && background) {
    const { compactInBackground } = await import('./background.js');
    compactInBackground(ws, config, background.now ? { now: background.now } : {});
  }
  return took.turns;
}

/**
 * The config does not load: nothing of memory can be read or written. The user is told (stderr,
 * exit 1), the agent too (SessionStart's context, a line it can pass on), and a capture hook
 * keeps its transcript's path so that the turns are archived once the file is fixed.
 */
function configNotLoaded(event: string, ws: Workspace, input: HookInput, err: ConfigError): HookRun {
  const what = `${err.file}: ${err.problem}`;
  if (event === 'SessionStart') {
    journalError(ws, event, input, what);
    const context = `hipo's memory could not be loaded because of ${what}. Nothing from memory is in this context until the file is fixed.`;
    const json = JSON.stringify({
      systemMessage: `hipo: memory not loaded: ${what}`,
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context },
    });
    return { stdout: json, error: what, stderr: `hipo: memory not loaded: ${what}`, exitCode: 0 };
  }
  if (!(event in CAPTURE_EVENTS)) return { stdout: null, error: null };
  const sessionId = str(input.session_id);
  const transcript = str(input.transcript_path);
  let kept = false;
  if (sessionId && transcript) {
    try {
      recordPendingCapture(ws, { sessionId, transcript, event, at: new Date().toISOString(), problem: what });
      kept = true;
    } catch {
      /* said below: nothing is kept */
    }
  }
  const outcome = kept
    ? 'nothing archived; the transcript is archived once the file loads'
    : 'nothing archived, and nothing kept to archive later';
  journalError(ws, event, input, `${what} (${outcome})`, kept ? { pending: true } : {});
  return { stdout: null, error: what, stderr: `hipo: ${what} (${outcome})`, exitCode: 1 };
}
