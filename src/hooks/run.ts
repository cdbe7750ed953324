// `hipo hook <event>`: one platform hook call. Capture events archive the transcript; SessionStart
// prints the restore JSON. Fail open: any error is recorded in the journal (`hook-error`, shown
// by `hipo status`) and the hook prints nothing and exits 0, so it can never block the agent or
// the platform's compaction. A broken workspace is the error the user must act on: a config that
// does not load, a memory folder that is not there, a file in it or in `.hipo/` that cannot be
// written, a full disk or a used-up disk quota. Each would lose sessions without a word, so it
// is said on stderr with exit 1 (the platforms show that as a non-blocking error; never 2, which
// blocks), SessionStart tells the agent, and a capture hook keeps which transcript it was given
// for the next hook or compaction that can archive it. An append lock busy past its wait keeps
// the transcript too (after SessionEnd no hook of the session retries), with exit 0: it passes
// without the user.
// A folder that is no workspace at all stays silent.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { CaptureResult } from '../capture/archive.js';
import { CAPTURE_EVENTS, type CaptureEvent } from '../capture/events.js';
import { ConfigError, loadConfig, type HipoConfig } from '../config/config.js';
import { outOfSpace, outOfSpaceCode } from '../fs/out-of-space.js';
import { appendJournal } from '../state/journal.js';
import { AppendLockBusy } from '../state/lock.js';
import { dropPendingCapture, pendingCaptures, recordPendingCapture } from '../state/pending-captures.js';
import type { Clock } from '../time/clock.js';
import { resolveClock } from '../time/clock.js';
import { workspaceAt, type Workspace } from '../tree/layout.js';
import { hookWorkspace, parseHookInput, type HookInput } from './input.js';

/** Time a prompt's recall needs (open the index, one keyword search): not started with less left. */
const PROMPT_RECALL_MIN_MS = 150;

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
  /**
   * A daemon runs the hook for the hook's process (cli/hook-entry.ts): new turns start no
   * compaction in the background (hooks/background.ts), as its watcher sees the raw log change,
   * and the journal says who archived them.
   */
  byDaemon?: boolean;
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
      if (err instanceof ConfigError) return mustAct(event, ws, input, `${err.file}: ${err.problem}`, 'once the file loads');
      throw err;
    }
    opts.capAt?.(config.agents.hookTimeoutMs);
    ws = workspaceAt(root, config.memoryDir);
    const noMemory = memoryFolderProblem(ws.memoryDir);
    if (noMemory) return mustAct(event, ws, input, `${ws.memoryDir}: ${noMemory}`, 'once the folder is there');
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
      const capturing = { event: event as CaptureEvent, sessionId, transcriptPath, prompt: str(input.prompt) };
      let r: CaptureResult;
      try {
        r = await captureTranscript(ws, config, clock, capturing, deadline);
      } catch (err) {
        const broken = unwritable(ws, err);
        if (broken) return mustAct(event, ws, input, broken, 'once it can be written');
        const full = diskFull(ws, err);
        // A quota is the user's own room, not the disk's.
        if (full)
          return mustAct(event, ws, input, full, outOfSpaceCode(err) === 'EDQUOT' ? 'once the quota has room' : 'once the disk has space');
        // Another process appending past the lock's wait: nothing for the user to do, but after
        // SessionEnd no hook of this session comes to retry, so its place is kept all the same.
        if (err instanceof AppendLockBusy) return keepQuietly(event, ws, input, err.message);
        throw err;
      }
      // This session's capture that waited for the config is this one.
      if (transcriptPath && r.backlog === 0) dropPendingCapture(ws, sessionId, transcriptPath);
      const late = await takeInWaiting(ws, config, clock, deadline, sessionId, null);
      // New turns in the raw log: the tree should follow them (hooks/background.ts).
      let background: string | null = null;
      if (r.turns + late > 0 && !opts.byDaemon) {
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
            ...(opts.byDaemon ? { byDaemon: true } : {}),
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
  if (took.turns > 0 && background && !background.byDaemon) {
    const { compactInBackground } = await import('./background.js');
    compactInBackground(ws, config, background.now ? { now: background.now } : {});
  }
  return took.turns;
}

/** Why the memory folder cannot hold the raw logs, or null when it can. */
function memoryFolderProblem(dir: string): string | null {
  try {
    return statSync(dir).isDirectory() ? null : 'is not a folder (move it away, then run "hipo init")';
  } catch {
    return 'no memory folder (run "hipo init")';
  }
}

/** File system refusals that stay until the user acts (a full disk too, below). */
const REFUSALS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR']);

/**
 * A capture's error as "<path>: <problem>" when it is the workspace's own folders refusing a
 * write (a transcript the platform made unreadable is not the workspace's), else null.
 */
function unwritable(ws: Workspace, err: unknown): string | null {
  const e = err as NodeJS.ErrnoException;
  if (!(err instanceof Error) || !e.code || !REFUSALS.has(e.code) || typeof e.path !== 'string') return null;
  const base = [ws.root, ws.memoryDir].find((dir) => {
    const rel = relative(dir, e.path!);
    return rel.split(sep)[0] !== '..' && !isAbsolute(rel);
  });
  if (base === undefined) return null;
  // ENOTDIR names the file it wanted to make: the one to move is the file where a folder must be.
  if (e.code === 'ENOTDIR') return `${notAFolder(base, e.path) ?? e.path}: is not a folder (ENOTDIR)`;
  // "EACCES: permission denied, open '/…'": Node's words without the code and the quoted path.
  const words = /^\w+: ([^,]+),/.exec(e.message)?.[1] ?? e.code;
  return `${e.path}: ${words} (${e.code})`;
}

/**
 * A capture's error as "<folder>: disk full (ENOSPC)" or "…: disk quota exceeded (EDQUOT)" when
 * it ran out of room, else null. The append was cut back and nothing moved on, but only the
 * user can free space, and a SessionEnd has no next hook of its session to retry it. A write to
 * the raw log's descriptor names no path: that folder is the memory folder.
 */
function diskFull(ws: Workspace, err: unknown): string | null {
  const problem = outOfSpace(err);
  if (!problem) return null;
  const path = (err as NodeJS.ErrnoException).path;
  return `${typeof path === 'string' ? dirname(path) : ws.memoryDir}: ${problem}`;
}

/** The first path from `base` down to `path` that is there and not a folder. */
function notAFolder(base: string, path: string): string | null {
  let at = base;
  for (const part of relative(base, path).split(sep)) {
    at = join(at, part);
    const st = statSync(at, { throwIfNoEntry: false });
    if (!st) return null;
    if (!st.isDirectory()) return at;
  }
  return null;
}

/**
 * The workspace is broken (`what`: the file or folder and its problem): nothing of memory can
 * be written, or read. The user is told (stderr, exit 1), the agent too (SessionStart's
 * context, a line it can pass on), and a capture hook keeps its transcript's path so that the
 * turns are archived `when` the workspace is fixed.
 */
function mustAct(event: string, ws: Workspace, input: HookInput, what: string, when: string): HookRun {
  if (event === 'SessionStart') {
    journalError(ws, event, input, what);
    const context = `hipo's memory could not be loaded because of ${what}. Nothing from memory is in this context until that is fixed.`;
    const json = JSON.stringify({
      systemMessage: `hipo: memory not loaded: ${what}`,
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context },
    });
    return { stdout: json, error: what, stderr: `hipo: memory not loaded: ${what}`, exitCode: 0 };
  }
  if (!(event in CAPTURE_EVENTS)) return { stdout: null, error: null };
  const kept = keepPlace(ws, event, input, what);
  const outcome = kept ? `nothing archived; the transcript is archived ${when}` : 'nothing archived, and nothing kept to archive later';
  journalError(ws, event, input, `${what} (${outcome})`, kept ? { pending: true } : {});
  return { stdout: null, error: what, stderr: `hipo: ${what} (${outcome})`, exitCode: 1 };
}

/** Keeps which transcript a capture hook was given, for a later hook or compaction; false when it cannot. */
function keepPlace(ws: Workspace, event: string, input: HookInput, problem: string): boolean {
  const sessionId = str(input.session_id);
  const transcript = str(input.transcript_path);
  if (!sessionId || !transcript) return false;
  try {
    recordPendingCapture(ws, { sessionId, transcript, event, at: new Date().toISOString(), problem });
    return true;
  } catch {
    return false;
  }
}

/** A capture that failed for a while only (`what`): journalled, its place kept, exit 0 and nothing said. */
function keepQuietly(event: string, ws: Workspace, input: HookInput, what: string): HookRun {
  const kept = keepPlace(ws, event, input, what);
  const outcome = kept
    ? 'nothing archived; the transcript is archived by a later hook'
    : 'nothing archived, and nothing kept to archive later';
  journalError(ws, event, input, `${what} (${outcome})`, kept ? { pending: true } : {});
  return { stdout: null, error: what };
}
