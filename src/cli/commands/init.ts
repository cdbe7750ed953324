import type { Command } from 'commander';
import { initWorkspace } from '../../setup/init.js';
import { installAgentPlatform, parsePlatform, parseScope } from '../../platforms/setup.js';
import type { InstallReport } from '../../platforms/install.js';
import { PLATFORMS } from '../../platforms/plans.js';
import { SCOPES } from '../../platforms/manifest.js';
import { CliError, EXIT } from '../exit.js';
import { DIR_FLAGS, workspaceRoot, type CommandSetup } from '../command-setup.js';

/** `[dir]` or `--dir` (not both, unless they agree). */
export function targetDir(positional: string | undefined, flag: string | undefined): string | undefined {
  if (positional !== undefined && flag !== undefined && positional !== flag)
    throw new CliError(`two folders given ("${positional}" and --dir "${flag}"): give one`);
  return positional ?? flag;
}

export function registerInit(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('init')
    .argument('[dir]', 'workspace folder to set up (default: the workspace at or above the current folder, else the current folder)')
    .description(
      'Create memory/ and hipo.config.json in a workspace; never overwrites anything. With --platform, also install skills, hooks, the MCP server and session-start loading for an agent platform',
    )
    .option('--timezone <tz>', "IANA time zone to record in the config (default: the system's)")
    .option('--platform <name>', `agent platform to integrate: ${PLATFORMS.join(', ')} (idempotent; "hipo uninstall" removes it)`)
    .option(
      '--scope <scope>',
      `where the platform's hooks go: ${SCOPES.join(', ')} (claude-code: local = .claude/settings.local.json, project = .claude/settings.json and .mcp.json, user = ~/.claude/; default: the platform's first)`,
    )
    .option(DIR_FLAGS, 'the same as [dir]')
    .option('--json', 'print what was created as JSON')
    .action((dir: string | undefined, opts: { timezone?: string; platform?: string; scope?: string; dir?: string; json?: boolean }) => {
      setRun(async () => {
        const platform = opts.platform ? parsePlatform(opts.platform) : null;
        const scope = opts.scope ? parseScope(opts.scope) : null;
        if (scope && !platform) throw new CliError('--scope needs --platform');
        const explicit = targetDir(dir, opts.dir);
        const r = initWorkspace(workspaceRoot(explicit).root, { timeZone: opts.timezone });
        const installed: InstallReport | null = platform ? installAgentPlatform(r.workspace, platform, scope) : null;
        if (opts.json) io.out(JSON.stringify({ ...r, ...(installed ? { platform: installed } : {}) }, null, 2));
        else {
          io.out(`hipo init · ${r.workspace}`);
          for (const c of r.created) io.out(`  created  ${c}`);
          for (const k of r.kept) io.out(`  kept     ${k} (already there)`);
          for (const t of r.takenOver) io.out(`  took     ${t.key} ${JSON.stringify(t.value)} from ${t.from}`);
          for (const n of r.notes) io.out(`  note: ${n}`);
          if (installed) {
            const where = installed.base === r.workspace ? '' : ` in ${installed.base}`;
            io.out(`  platform ${installed.platform} (${installed.scope} scope${where}):`);
            for (const c of installed.created) io.out(`    created  ${c}`);
            for (const c of installed.updated) io.out(`    updated  ${c}`);
            for (const c of installed.merged) io.out(`    merged   ${c} (hipo's entries added; other settings untouched)`);
            for (const c of installed.unchanged) io.out(`    current  ${c}`);
            for (const c of installed.skipped) io.out(`    skipped  ${c} (exists and is not hipo's)`);
            for (const c of installed.registered) io.out(`    ${c}`);
            io.out(`    recorded ${installed.record} (what "hipo uninstall" takes out)`);
            for (const n of installed.notes) io.out(`    note: ${n}`);
          } else io.out(`  next: write raw logs as ${r.memoryName}/YYYY-MM-DD.md, then run "hipo compact"`);
        }
        return EXIT.ok;
      });
    });
}
