import type { Command } from 'commander';
import { initWorkspace } from '../../setup/init.js';
import { EXIT } from '../exit.js';
import type { CommandContext } from '../context.js';

export function registerInit(program: Command, { io, setRun }: CommandContext): void {
  program
    .command('init')
    .argument('[dir]', 'workspace folder to set up', '.')
    .description('Create memory/ and hipo.config.json in a workspace; never overwrites anything')
    .option('--timezone <tz>', 'IANA time zone to record in the config (default: the system\'s)')
    .option('--json', 'print what was created as JSON')
    .action((dir: string, opts: { timezone?: string; json?: boolean }) => {
      setRun(async () => {
        const r = initWorkspace(dir, { timeZone: opts.timezone });
        if (opts.json) io.out(JSON.stringify(r, null, 2));
        else {
          io.out(`hipo init · ${r.workspace}`);
          for (const c of r.created) io.out(`  created  ${c}`);
          for (const k of r.kept) io.out(`  kept     ${k} (already there)`);
          io.out('  next: write raw logs as memory/YYYY-MM-DD.md, then run "hipo compact"');
        }
        return EXIT.ok;
      });
    });
}
