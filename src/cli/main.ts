// The command line: one module per command under ./commands, registered here. Only the module of
// the command being run is loaded (all of them for help and unknown commands): a command pays
// for its own code, not for the search index's or the daemon's.
import { Command, CommanderError } from 'commander';
import { redactingIo, type CommandSetup, type Run } from './command-setup.js';
import { processIo, type Io } from './io.js';
import { CliError, EXIT } from './exit.js';
import { VERSION } from './version.js';

type Register = (program: Command, ctx: CommandSetup) => void;

/** In the order `hipo --help` lists them. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  init: async () => (await import('./commands/init.js')).registerInit,
  compact: async () => (await import('./commands/compact.js')).registerCompact,
  status: async () => (await import('./commands/status.js')).registerStatus,
  hook: async () => (await import('./commands/hook.js')).registerHook,
  context: async () => (await import('./commands/context.js')).registerContext,
  log: async () => (await import('./commands/log.js')).registerLog,
  uninstall: async () => (await import('./commands/uninstall.js')).registerUninstall,
  recall: async () => (await import('./commands/recall.js')).registerRecall,
  mcp: async () => (await import('./commands/mcp.js')).registerMcp,
  daemon: async () => (await import('./commands/daemon.js')).registerDaemon,
  search: async () => (await import('./commands/search.js')).registerSearch,
  index: async () => (await import('./commands/index-command.js')).registerIndex,
};

/** The program with `argv`'s command registered, or every command when argv names none. */
async function buildProgram(io: Io, setRun: (run: Run) => void, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('hipo')
    .description('Memory for AI agents: raw markdown logs compacted into a searchable daily/weekly/monthly/ROOT tree.')
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride();
  const ctx: CommandSetup = { io, setRun };
  const named = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? [argv[0]] : Object.keys(COMMANDS);
  for (const register of await Promise.all(named.map((name) => COMMANDS[name]!()))) register(program, ctx);
  return program;
}

export async function main(argv: string[], rawIo: Io = processIo): Promise<number> {
  const io = redactingIo(rawIo);
  let run: Run | null = null;
  const program = await buildProgram(
    io,
    (r) => {
      run = r;
    },
    argv,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    throw err;
  }
  if (!run) return EXIT.ok;
  try {
    return await (run as Run)();
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`hipo: ${err.message}`);
      return err.code;
    }
    const code = await exitCodeOf(err);
    if (code === null) throw err;
    io.err(`hipo: ${(err as Error).message}`);
    return code;
  }
}

/** The exit code of an error a command may throw, or null for a bug. (Loaded only on error.) */
async function exitCodeOf(err: unknown): Promise<number | null> {
  const [{ LockBusy }, { MemoryDirMissing }, { ClockError }, { TemplateError }, { InitError }, { InstallError }, { ConfigError }] =
    await Promise.all([
      import('../state/lock.js'),
      import('../tree/scan.js'),
      import('../time/clock.js'),
      import('../write/template.js'),
      import('../setup/init.js'),
      import('../platforms/command.js'),
      import('../config/config.js'),
    ]);
  if (err instanceof LockBusy) return EXIT.busy;
  if (
    err instanceof MemoryDirMissing ||
    err instanceof ClockError ||
    err instanceof TemplateError ||
    err instanceof InitError ||
    err instanceof InstallError ||
    err instanceof ConfigError
  )
    return EXIT.usage;
  return null;
}
