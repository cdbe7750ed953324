// The hook's own entry point: `hipo hook <event> [--dir D] [--now T]` runs through here without
// loading the command-line framework and every command (a hook runs on every prompt, so its
// start-up time matters). `hipo hook --help` still goes through the full CLI.
import { defaultConfig } from '../config/config.js';
import { MAX_INPUT_BYTES, readStdin } from './input.js';
import { HOOK_EVENTS, runHook } from './run.js';
import { redactOutput } from '../redact/lines.js';
import { recordedRedactor } from '../redact/workspace.js';

/** `stop`, `session-start`, `PreCompact`… → the canonical event name. */
export function canonicalEvent(name: string): string {
  const key = name.replace(/[^a-z]/gi, '').toLowerCase();
  return HOOK_EVENTS.find((e) => e.toLowerCase() === key) ?? name;
}

export function parseHookArgs(argv: readonly string[]): { event: string | null; dir?: string; now?: string; help: boolean } {
  let event: string | null = null;
  const out: { dir?: string; now?: string } = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--(dir|now)(?:=(.*))?$/.exec(a);
    if (m) {
      const v = m[2] ?? argv[++i];
      if (v !== undefined) out[m[1] as 'dir' | 'now'] = v;
    } else if (a === '-h' || a === '--help') help = true;
    else if (!a.startsWith('-') && event === null) event = a;
  }
  return { event, ...out, help };
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
  let cap = armCap(fromEnv ?? defaultConfig().agents.hookTimeoutMs);
  const capAt = fromEnv
    ? undefined
    : (ms: number): void => {
        clearTimeout(cap);
        cap = armCap(ms);
      };
  const input = await readStdin(process.stdin, MAX_INPUT_BYTES, 2000).catch((e: unknown) =>
    e instanceof Error ? e : new Error(String(e)),
  );
  const r = await runHook(canonicalEvent(args.event ?? ''), input, {
    ...(args.dir ? { dir: args.dir } : {}),
    ...(args.now ? { now: args.now } : {}),
    startedAt: 0,
    ...(capAt ? { capAt } : {}),
  });
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
