import type { Command } from 'commander';
import { parsePlatform, parseScope, uninstallAgentPlatforms } from '../../platforms/setup.js';
import { SCOPES } from '../../platforms/manifest.js';
import { EXIT } from '../exit.js';
import { DIR_FLAGS, workspaceRoot, type CommandSetup } from '../command-setup.js';
import { targetDir } from './init.js';

export function registerUninstall(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('uninstall')
    .argument('[dir]', 'workspace folder (default: the workspace at or above the current folder)')
    .description(
      'Remove exactly what "hipo init --platform" added (skills, hooks, plugin files, the MCP server); memory/ and hipo.config.json stay',
    )
    .option('--platform <name>', 'only this platform (default: every platform installed here)')
    .option('--scope <scope>', `only this scope: ${SCOPES.join(', ')} (default: the workspace's scopes; user only when named)`)
    .option(DIR_FLAGS, 'the same as [dir]')
    .option('--json', 'print what was removed as JSON')
    .action((dir: string | undefined, opts: { platform?: string; scope?: string; dir?: string; json?: boolean }) => {
      setRun(async () => {
        const root = workspaceRoot(targetDir(dir, opts.dir)).root;
        const reports = uninstallAgentPlatforms(
          root,
          opts.platform ? parsePlatform(opts.platform) : null,
          opts.scope ? parseScope(opts.scope) : null,
        );
        if (opts.json) io.out(JSON.stringify(reports, null, 2));
        else if (reports.length === 0) io.out(`hipo uninstall · nothing of hipo's installed in ${root}`);
        else {
          for (const r of reports) {
            io.out(`hipo uninstall · ${r.platform} (${r.scope} scope${r.base === root ? '' : ` in ${r.base}`})`);
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
