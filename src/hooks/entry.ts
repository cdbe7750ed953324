// The hook's own entry point: `hipo hook <event> [--dir D] [--now T]` runs through here without
// loading the command-line framework and every command (a hook runs on every prompt, so its
// start-up time matters). A running daemon is asked first (daemon-first.ts); only when it does not
// answer is the hook's own code loaded. `hipo hook --help` still goes through the full CLI.
import { DEFAULT_HOOK_TIMEOUT_MS } from '../config/settings-source.js';
import { canonicalEvent, parseHookArgs } from './args.js';
import { hookViaDaemon } from './daemon-first.js';
import { MAX_INPUT_BYTES, readStdin } from './input.js';


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
    import('./run.js'),
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
