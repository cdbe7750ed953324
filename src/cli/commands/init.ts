import type { Command } from 'commander';
import { initWorkspace } from '../../setup/init.js';
import { installAgentPlatform, parsePlatform } from '../../platforms/setup.js';
import type { InstallReport } from '../../platforms/install.js';
import { PLATFORMS } from '../../platforms/plans.js';
import { EXIT } from '../exit.js';
import type { CommandContext } from '../context.js';

export function registerInit(program: Command, { io, setRun }: CommandContext): void {
  program
    .command('init')
    .argument('[dir]', 'workspace folder to set up', '.')
    .description('Create memory/ and hipo.config.json in a workspace; never overwrites anything. With --platform, also install skills, hooks and session-start loading for an agent platform')
    .option('--timezone <tz>', 'IANA time zone to record in the config (default: the system\'s)')
    .option('--platform <name>', `agent platform to integrate: ${PLATFORMS.join(', ')} (idempotent; "hipo uninstall" removes it)`)
    .option('--json', 'print what was created as JSON')
    .action((dir: string, opts: { timezone?: string; platform?: string; json?: boolean }) => {
      setRun(async () => {
        const platform = opts.platform ? parsePlatform(opts.platform) : null;
        const r = initWorkspace(dir, { timeZone: opts.timezone });
        const installed: InstallReport | null = platform ? installAgentPlatform(r.workspace, platform) : null;
        if (opts.json) io.out(JSON.stringify({ ...r, ...(installed ? { platform: installed } : {}) }, null, 2));
        else {
          io.out(`hipo init · ${r.workspace}`);
          for (const c of r.created) io.out(`  created  ${c}`);
          for (const k of r.kept) io.out(`  kept     ${k} (already there)`);
          if (installed) {
            io.out(`  platform ${installed.platform}:`);
            for (const c of installed.created) io.out(`    created  ${c}`);
            for (const c of installed.updated) io.out(`    updated  ${c}`);
            for (const c of installed.merged) io.out(`    merged   ${c} (hipo's hooks added; other settings untouched)`);
            for (const c of installed.unchanged) io.out(`    current  ${c}`);
            for (const c of installed.skipped) io.out(`    skipped  ${c} (exists and is not hipo's)`);
            for (const n of installed.notes) io.out(`    note: ${n}`);
          } else io.out('  next: write raw logs as memory/YYYY-MM-DD.md, then run "hipo compact"');
        }
        return EXIT.ok;
      });
    });
}
