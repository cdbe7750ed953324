import type { Command } from 'commander';
import { parsePlatform, uninstallAgentPlatforms } from '../../platforms/setup.js';
import { EXIT } from '../exit.js';
import type { CommandContext } from '../context.js';

export function registerUninstall(program: Command, { io, setRun }: CommandContext): void {
  program
    .command('uninstall')
    .argument('[dir]', 'workspace folder', '.')
    .description('Remove exactly what "hipo init --platform" added (skills, hooks, plugin files); memory/ and hipo.config.json stay')
    .option('--platform <name>', 'only this platform (default: every platform installed here)')
    .option('--json', 'print what was removed as JSON')
    .action((dir: string, opts: { platform?: string; json?: boolean }) => {
      setRun(async () => {
        const reports = uninstallAgentPlatforms(dir, opts.platform ? parsePlatform(opts.platform) : null);
        if (opts.json) io.out(JSON.stringify(reports, null, 2));
        else if (reports.length === 0) io.out('hipo uninstall · nothing installed here');
        else {
          for (const r of reports) {
            io.out(`hipo uninstall · ${r.platform}`);
            for (const f of r.removed) io.out(`  removed   ${f}`);
            for (const f of r.restored) io.out(`  restored  ${f}`);
            for (const f of r.kept) io.out(`  kept      ${f} (changed since hipo wrote it)`);
            for (const n of r.notes) io.out(`  note: ${n}`);
          }
        }
        return EXIT.ok;
      });
    });
}
