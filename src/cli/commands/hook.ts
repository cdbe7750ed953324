import type { Command } from 'commander';
import { hookEntry } from '../hook-entry.js';
import { HOOK_EVENTS } from '../../hooks/args.js';
import type { CommandSetup } from '../command-setup.js';

export function registerHook(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('hook')
    .argument('<event>', `platform hook event: ${HOOK_EVENTS.join(', ')}`)
    .description(
      'Run as an agent platform hook: reads the hook JSON on stdin; capture events archive the transcript, SessionStart prints ' +
        'the memory context. Exits 0, or 1 (a non-blocking error to the platforms) when hipo.config.json does not load.',
    )
    .option('--dir <path>', "the workspace (default: the nearest one at or above the session's cwd from the hook input)")
    .option('--now <date>', 'treat this as today (YYYY-MM-DD, or YYYY-MM-DDTHH:MM in the configured zone, or with Z or an offset)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action((event: string, opts: { dir?: string; now?: string }) => {
      setRun(() =>
        hookEntry(
          [event, ...(opts.dir ? ['--dir', opts.dir] : []), ...(opts.now ? ['--now', opts.now] : [])],
          (s) => io.out(s),
          (s) => io.err(s),
        ),
      );
    });
}
