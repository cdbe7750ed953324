import type { Command } from 'commander';
import { Hipo } from '../../api/hipo.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { CliError } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';
import { progressSink } from '../progress.js';

interface CompactOpts {
  dryRun?: boolean;
  catchUp?: boolean;
  resummarize?: boolean;
  index?: boolean;
  now?: string;
  json?: boolean;
  verbose?: boolean;
  dir?: string;
}

export function registerCompact(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('compact')
    .description('Run a compaction cycle: raw logs → daily → weekly → monthly → ROOT.md')
    .option('--dry-run', 'print the plan (what would be created, regenerated or fixed, and why) and write nothing')
    .option('--catch-up', 'run cycles until nothing is left to do (per-cycle limits apply to each cycle)')
    .option(
      '--now <date>',
      'treat this as today: YYYY-MM-DD, or YYYY-MM-DDTHH:MM in the configured zone or with Z or an offset (default: clock, HIPO_NOW)',
    )
    .option(
      '--resummarize',
      'also give fixed nodes with an extractive summary a pass by the configured model (costs calls; per-cycle limits apply)',
    )
    .option('--index', 'build the search index when there is none (as search.autoIndex does for every run)')
    .option('--json', 'print the plan or result as JSON')
    .option('--verbose', 'list every action of every cycle')
    .option(DIR_FLAGS, DIR_HELP)
    .addHelpText(
      'after',
      '\nWhen a daemon runs for the workspace, it runs the cycle (on the tree it already holds) and this prints its result.\nExit codes: 0 done, 1 a node could not be written, 2 bad usage/config or no memory folder, 3 another hipo holds the lock.',
    )
    .action((opts: CompactOpts) => {
      setRun(async () => {
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        // A running daemon was asked first (cli/daemon-first.ts); it declined, or none runs.
        const [{ ResummarizeWithoutModel }, { formatCompact, compactJson, compactExit }] = await Promise.all([
          import('../../cycle/compaction.js'),
          import('../format.js'),
        ]);
        const hipo = Hipo.at(ws, config, { now: opts.now, caller: '' });
        // Work that runs past two seconds shows its progress on stderr (a bar on a terminal).
        const progress = progressSink(process.stderr, (l) => io.err(l), { plain: !opts.json, delayMs: 2000 });
        const result = await hipo
          .compact({
            dryRun: !!opts.dryRun,
            catchUp: !!opts.catchUp,
            resummarize: !!opts.resummarize,
            onProgress: (p) => progress.update(p),
          })
          .catch((err: unknown) => {
            throw err instanceof ResummarizeWithoutModel ? new CliError(err.message) : err;
          })
          .finally(() => progress.done());
        // Keep the search index current for what was written (only if there is one, or
        // search.autoIndex or --index asks for it); a failure there is a warning, never the command's.
        const indexProgress = progressSink(process.stderr, (l) => io.err(l), { plain: !opts.json, delayMs: 2000 });
        const index = result.dryRun
          ? { report: null, warnings: [] as string[] }
          : await hipo.keepIndexCurrent({ onProgress: (p) => indexProgress.update(p), create: !!opts.index });
        indexProgress.done();
        if (opts.json)
          io.out(
            JSON.stringify(
              {
                ...(compactJson(result, ws) as object),
                searchIndex: index.report ? { updated: true, ...index.report } : { updated: false, warnings: index.warnings },
              },
              null,
              2,
            ),
          );
        else {
          io.out(formatCompact(result, ws, { verbose: !!opts.verbose, configWarnings }));
          if (index.report)
            io.out(
              `  search index: ${index.report.changed + index.report.added} file(s) reindexed, +${index.report.chunksAdded} −${index.report.chunksRemoved} chunks, ${index.report.embedded} embedded`,
            );
          for (const w of index.warnings) io.out(`  warning: search index: ${w}`);
        }
        return compactExit(result);
      });
    });
}
