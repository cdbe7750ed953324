// The hooks an agent waits for, handed to a running daemon: SessionStart (the memory context) and
// UserPromptSubmit (archive what is new, then memory about the prompt) run on every session and
// every prompt, and a hook process that does the work itself loads the config validation, the
// redactor, the capture and search code and opens the index each time (~250 ms before its first
// byte of work here). The daemon has all of it loaded; the hook asks over its socket and prints
// the answer, which the daemon redacted as the hook would. Loaded at a hook's start: only small
// modules.
//
// The hook does its own work whenever the daemon's answer might not be its own (another clock or
// other settings, no daemon, no answer within half its time budget) and when the work could be
// large for a resident process: a transcript with more than UNREAD_MAX bytes not yet archived
// (the first hook of a long session), captures waiting for a config that did not load, and the
// events an agent does not wait for (Stop, PreCompact, SessionEnd: they may read megabytes).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { askDaemon, clockSource, type DaemonRequest } from '../daemon/ask.js';
import type { HookAnswered } from '../daemon/requests.js';
import { configText, DEFAULT_HOOK_BUDGET_MS, MAX_TIMER_MS, settingsDigest } from '../config/settings-source.js';
import { archivedOffset } from '../state/session-file.js';
import { statePath } from '../state/dir.js';
import { workspaceAt } from '../tree/layout.js';
import { hookWorkspace, parseHookInput, type HookInput } from './input.js';

/** The events an agent waits for. */
const WAITED_FOR = new Set(['SessionStart', 'UserPromptSubmit']);

/** Transcript bytes not yet archived above which the hook reads them itself, not the daemon. */
const UNREAD_MAX = 1024 * 1024;

/** `agents.hookBudgetMs` as the config file sets it, or its default. */
function budgetMs(config: string | null): number {
  const v = (JSON.parse(config ?? '{}') as { agents?: { hookBudgetMs?: unknown } }).agents?.hookBudgetMs;
  return typeof v === 'number' && v >= 0 && v <= MAX_TIMER_MS ? v : DEFAULT_HOOK_BUDGET_MS;
}

/** Bytes of the session's transcript that no hook has archived yet. */
function unreadBytes(ws: { stateDir: string }, input: HookInput): number {
  const transcript = typeof input.transcript_path === 'string' ? input.transcript_path : null;
  const session = typeof input.session_id === 'string' ? input.session_id : null;
  if (!transcript || !session) return 0;
  try {
    return Math.max(0, statSync(transcript).size - archivedOffset(ws, session));
  } catch {
    return 0;
  }
}

function capturesWaiting(ws: { stateDir: string }): boolean {
  const dir = statePath(ws, 'pendingCaptures');
  try {
    return existsSync(dir) && readdirSync(dir).length > 0;
  } catch {
    return true;
  }
}

export interface DaemonHookRun {
  /** What to print on stdout: the hook output the daemon made and redacted. */
  stdout: string | null;
  stderr: string | null;
  exitCode: number;
}

/** The daemon's run of the hook, or null: the hook does its work itself. */
export async function hookViaDaemon(
  event: string,
  stdin: string | Error,
  opts: { dir?: string; now?: string },
): Promise<DaemonHookRun | null> {
  if (!WAITED_FOR.has(event) || stdin instanceof Error || process.env.HIPO_HOOK_DAEMON === '0') return null;
  try {
    const input = parseHookInput(stdin);
    const root = hookWorkspace(opts.dir, input);
    if (!root) return null;
    // The state folder does not depend on the configured memory folder.
    const ws = workspaceAt(root);
    // No socket, no daemon: nothing more to look at (the hook's own run is slower by nothing).
    if (!existsSync(statePath(ws, 'daemonSocket'))) return null;
    if (unreadBytes(ws, input) > UNREAD_MAX || capturesWaiting(ws)) return null;
    const config = configText(root);
    const request = {
      op: 'hook',
      hook: { event, input: stdin, elapsedMs: performance.now() },
      clock: clockSource(process.env, opts.now),
      settings: settingsDigest(root, process.env, config),
    } as DaemonRequest;
    // Half the budget: a daemon busy with a long cycle leaves the other half for the hook's own run.
    const answer = await askDaemon<HookAnswered>(ws, request, Math.max(0, budgetMs(config) / 2 - performance.now()));
    const run = answer?.ok ? answer.result.hook : null;
    if (!run) return null;
    const out = run.stdout;
    return { ...run, stdout: out === null ? null : 'json' in out ? JSON.stringify(out.json) : out.text };
  } catch {
    // Input or a config that does not parse: the hook's own run says what is wrong.
    return null;
  }
}
