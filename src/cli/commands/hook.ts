import type { Command } from 'commander';
import { defaultConfig } from '../../config/config.js';
import { MAX_INPUT_BYTES, readStdin } from '../../hooks/input.js';
import { HOOK_EVENTS, runHook } from '../../hooks/run.js';
import { EXIT } from '../exit.js';
import type { CommandContext } from '../main.js';

/** `stop`, `session-start`, `PreCompact`… → the canonical event name. */
function canonicalEvent(name: string): string {
  const key = name.replace(/[^a-z]/gi, '').toLowerCase();
  return HOOK_EVENTS.find((e) => e.toLowerCase() === key) ?? name;
}

export function registerHook(program: Command, { io, setRun }: CommandContext): void {
  program
    .command('hook')
    .argument('<event>', `platform hook event: ${HOOK_EVENTS.join(', ')}`)
    .description('Run as an agent platform hook: reads the hook JSON on stdin; capture events archive the transcript, SessionStart prints the memory context. Always exits 0.')
    .option('--dir <path>', 'workspace (default: the nearest folder up from the hook\'s cwd with hipo.config.json)')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD or ISO instant)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action((event: string, opts: { dir?: string; now?: string }) => {
      setRun(async () => {
        // The hard cap: whatever happens, the platform gets its exit 0 in time.
        const cap = Number(process.env.HIPO_HOOK_TIMEOUT_MS) || defaultConfig().agents.hookTimeoutMs;
        setTimeout(() => process.exit(0), cap).unref();
        const input = await readStdin(process.stdin, MAX_INPUT_BYTES, 2000).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
        const r = await runHook(canonicalEvent(event), input, { dir: opts.dir, now: opts.now, startedAt: 0 });
        if (r.stdout) io.out(r.stdout);
        return EXIT.ok;
      });
    });
}
