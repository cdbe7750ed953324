// A hook process: `hipo hook <event> [--dir D] [--now T]` runs through here without loading the
// command-line framework and every command (a hook runs on every prompt, so its start-up time
// matters). `hipo hook --help` still goes through the full CLI.
//
// Its work goes to a running daemon first. SessionStart (the memory context), UserPromptSubmit
// (archive what is new, then memory about the prompt) and Stop (archive the turn) run at every
// session start, prompt and turn, and the agent waits for them; a hook process that does their
// work loads the config validation, the redactor, the capture and search code and opens the index
// each time (~250 ms before its first byte of work here). The daemon has all of it loaded; the
// hook asks over its socket and prints the answer, which the daemon redacted as the hook would.
// Until then only small modules are loaded; the hook's own code (hooks/run.ts) only when the
// daemon does not answer.
//
// The hook does its own work whenever the daemon's answer might not be its own (another clock or
// other settings, no daemon, no answer within half its time budget) and when the work could be
// large for a resident process: a transcript with more than UNREAD_MAX bytes not yet archived
// (the first hook of a long session, a turn with huge tool output), or captures waiting for a
// config that did not load.
import { existsSync, statSync } from 'node:fs';
import { DEFAULT_HOOK_BUDGET_MS, DEFAULT_HOOK_TIMEOUT_MS } from '../config/settings-source.js';
import type { HookAnswered } from '../daemon/requests.js';
import { canonicalEvent, HOOK_EVENTS, parseHookArgs } from '../hooks/args.js';
import { hookWorkspace, MAX_INPUT_BYTES, parseHookInput, readStdin, type HookInput } from '../hooks/input.js';
import { statePath, stateRecords } from '../state/dir.js';
import { archivedOffset } from '../state/session-file.js';
import { workspaceAt } from '../tree/layout.js';
import { askDaemonAbout, timerOr } from './daemon-first.js';

/** Transcript bytes not yet archived above which the hook reads them itself, not the daemon. */
const UNREAD_MAX = 1024 * 1024;

/** The least a hook waits for the daemon's answer (about what loading its own code takes here). */
const DAEMON_MIN_WAIT_MS = 300;

/** `agents.hookBudgetMs` as the config file sets it, or its default. */
function budgetMs(config: string | null): number {
  const c = JSON.parse(config ?? '{}') as { agents?: { hookBudgetMs?: unknown } };
  return timerOr(c.agents?.hookBudgetMs, 0, DEFAULT_HOOK_BUDGET_MS);
}

/** Bytes of the session's transcript that no hook has archived yet. */
function unreadBytes(ws: { stateDir: string }, input: HookInput): number {
  const transcript = typeof input.transcript_path === 'string' ? input.transcript_path : null;
  const session = typeof input.session_id === 'string' ? input.session_id : null;
  if (!transcript || !session) return 0;
  try {
    const size = statSync(transcript).size;
    const offset = archivedOffset(ws, session);
    // A transcript shorter than the offset was rewritten: capture reads it again from the start.
    return size < offset ? size : size - offset;
  } catch {
    return 0;
  }
}

interface DaemonHookRun {
  /** What to print on stdout: the hook output the daemon made and redacted. */
  stdout: string | null;
  stderr: string | null;
  exitCode: number;
}

/** The daemon's run of the hook, or null: the hook does its work itself. */
async function hookViaDaemon(event: string, stdin: string | Error, opts: { dir?: string; now?: string }): Promise<DaemonHookRun | null> {
  if (!(HOOK_EVENTS as readonly string[]).includes(event) || stdin instanceof Error || process.env.HIPO_HOOK_DAEMON === '0') return null;
  try {
    const input = parseHookInput(stdin);
    const root = hookWorkspace(opts.dir, input);
    if (!root) return null;
    // The state folder does not depend on the configured memory folder.
    const ws = workspaceAt(root);
    // No socket, no daemon: nothing more to look at (the hook's own run is slower by nothing).
    if (!existsSync(statePath(ws, 'daemonSocket'))) return null;
    if (unreadBytes(ws, input) > UNREAD_MAX || stateRecords(ws, 'pendingCaptures').length > 0) return null;
    const hook = { event, input: stdin, elapsedMs: performance.now() };
    // Half the budget: a daemon busy with a long cycle leaves the other half for the hook's own run.
    // At least DAEMON_MIN_WAIT_MS, though: a hook that took most of its budget to start (a loaded
    // machine) is answered sooner by the daemon than by loading its own code.
    const wait = (config: string | null): number => Math.max(DAEMON_MIN_WAIT_MS, budgetMs(config) / 2 - performance.now());
    const answer = await askDaemonAbout<HookAnswered>(root, opts.now, { op: 'hook', hook }, wait);
    const run = answer?.ok ? answer.result.hook : null;
    if (!run) return null;
    const out = run.stdout;
    return { ...run, stdout: out === null ? null : 'json' in out ? JSON.stringify(out.json) : out.text };
  } catch {
    // Input or a config that does not parse: the hook's own run says what is wrong.
    return null;
  }
}

/** Runs a hook; resolves to the exit code (0; 1 when the user must act, a config that does not load). */
export async function hookEntry(
  argv: readonly string[],
  out: (s: string) => void = (s) => void process.stdout.write(`${s}\n`),
  err: (s: string) => void = (s) => void process.stderr.write(`${s}\n`),
): Promise<number> {
  const args = parseHookArgs(argv);
  // The hard cap: whatever happens, the platform gets its exit 0 in time. Armed before anything
  // can be slow (stdin, the config file), from the variable or the default; the workspace's
  // `agents.hookTimeoutMs` takes over once its config is loaded, unless the variable is set.
  const fromEnv = Number(process.env.HIPO_HOOK_TIMEOUT_MS) || null;
  let cap = armCap(fromEnv ?? DEFAULT_HOOK_TIMEOUT_MS);
  const capAt = fromEnv
    ? undefined
    : (ms: number): void => {
        clearTimeout(cap);
        cap = armCap(ms);
      };
  const input = await readStdin(process.stdin, MAX_INPUT_BYTES, 2000).catch((e: unknown) =>
    e instanceof Error ? e : new Error(String(e)),
  );
  const event = canonicalEvent(args.event ?? '');
  const where = { ...(args.dir ? { dir: args.dir } : {}), ...(args.now ? { now: args.now } : {}) };
  // The daemon's answer went through the workspace's redactor already.
  const answered = await hookViaDaemon(event, input, where);
  if (answered) {
    if (answered.stdout) out(answered.stdout);
    if (answered.stderr) err(answered.stderr);
    return answered.exitCode ?? 0;
  }
  const [{ runHook }, { redactOutput }, { recordedRedactor }] = await Promise.all([
    import('../hooks/run.js'),
    import('../redact/lines.js'),
    import('../redact/workspace.js'),
  ]);
  const r = await runHook(event, input, { ...where, startedAt: 0, ...(capAt ? { capAt } : {}) });
  // The restore JSON carries memory: it leaves through the workspace's redactor. So does an
  // error, which may quote the config file.
  if (r.stdout) out(redactOutput(recordedRedactor(), r.stdout));
  if (r.stderr) err(recordedRedactor().redact(r.stderr).text);
  return r.exitCode ?? 0;
}

/** Ends the process with exit 0 `ms` after it started (performance.now() counts from there). */
function armCap(ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => process.exit(0), Math.max(0, ms - performance.now()));
  timer.unref();
  return timer;
}
