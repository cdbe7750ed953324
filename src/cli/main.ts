// The command line: one module per command under ./commands, registered here.
import { Command, CommanderError } from 'commander';
import { ClockError } from '../time/clock.js';
import { LockBusy } from '../cycle/lock.js';
import { MemoryDirMissing } from '../tree/scan.js';
import { TemplateError } from '../write/template.js';
import { InitError } from '../setup/init.js';
import { processIo, redactingIo, type CommandContext, type Io, type Run } from './context.js';
import { CliError, EXIT } from './exit.js';
import { registerCompact } from './commands/compact.js';
import { registerInit } from './commands/init.js';
import { registerStatus } from './commands/status.js';
import { registerHook } from './commands/hook.js';
import { registerContext } from './commands/context.js';
import { registerLog } from './commands/log.js';
import { registerUninstall } from './commands/uninstall.js';
import { registerMcp } from './commands/mcp.js';
import { registerRecall } from './commands/recall.js';
import { InstallError } from '../platforms/command.js';
import { registerDaemon } from './commands/daemon.js';
import { registerIndex } from './commands/index.js';
import { registerSearch } from './commands/search.js';
import { VERSION } from './version.js';



export function buildProgram(io: Io, setRun: (run: Run) => void): Command {
  const program = new Command('hipo')
    .description('Memory for AI agents: raw markdown logs compacted into a searchable daily/weekly/monthly/ROOT tree.')
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride();
  const ctx: CommandContext = { io, setRun };
  registerInit(program, ctx);
  registerCompact(program, ctx);
  registerStatus(program, ctx);
  registerHook(program, ctx);
  registerContext(program, ctx);
  registerLog(program, ctx);
  registerUninstall(program, ctx);
  registerRecall(program, ctx);
  registerMcp(program, ctx);
  registerDaemon(program, ctx);
  registerSearch(program, ctx);
  registerIndex(program, ctx);
  return program;
}

export async function main(argv: string[], rawIo: Io = processIo): Promise<number> {
  const io = redactingIo(rawIo);
  let run: Run | null = null;
  const program = buildProgram(io, (r) => {
    run = r;
  });
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
    if (err instanceof LockBusy) {
      io.err(`hipo: ${err.message}`);
      return EXIT.busy;
    }
    if (err instanceof MemoryDirMissing || err instanceof ClockError || err instanceof TemplateError || err instanceof InitError || err instanceof InstallError) {
      io.err(`hipo: ${err.message}`);
      return EXIT.usage;
    }
    throw err;
  }
}
