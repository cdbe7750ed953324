import type { Command } from 'commander';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../context.js';
import { EXIT } from '../exit.js';
import { VERSION } from '../version.js';
import type { CommandContext } from '../context.js';

export function registerMcp(program: Command, { setRun }: CommandContext): void {
  program
    .command('mcp')
    .description('Serve the memory over MCP on stdio: tools context, get, log, status, search, recall')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD or ISO instant)')
    .option(DIR_FLAGS, DIR_HELP)
    .action((opts: { now?: string; dir?: string }) => {
      setRun(async () => {
        const { ws, config } = loadWorkspace(opts.dir, true);
        const { serveStdio } = await import('../../mcp/server.js');
        await serveStdio({ ws, config, ...(opts.now ? { now: opts.now } : {}) }, VERSION);
        return EXIT.ok;
      });
    });
}
