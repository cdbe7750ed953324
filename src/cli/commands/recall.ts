import type { Command } from 'commander';
import { Hipo } from '../../api/hipo.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { CliError, EXIT } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';
import { printRecall } from '../recall-output.js';

export function registerRecall(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('recall')
    .argument('<question...>', 'what to look up')
    .description(
      "Find the passages of memory that answer a question: ROOT's Topics Index, then the nodes' topics and periods, then search; ranked, with file and line range, under a token budget",
    )
    .option('--budget <tokens>', 'token budget (default: agents.contextTokens in hipo.config.json)')
    .option('--also <text>', 'another wording, e.g. the fact the question depends on (repeatable)', (v: string, prev: string[] = []) => [
      ...prev,
      v,
    ])
    .option('--json', 'print topics, days and passages as JSON')
    .option('--no-search', 'skip the search index (topics, manifest and the matching days only)')
    .option('--no-update', 'search the index as it is, without bringing it up to date first')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD, or YYYY-MM-DDTHH:MM in the configured zone, or with Z or an offset)')
    .option(DIR_FLAGS, DIR_HELP)
    .action(
      (
        words: string[],
        opts: { budget?: string; also?: string[]; json?: boolean; search: boolean; update: boolean; now?: string; dir?: string },
      ) => {
        setRun(async () => {
          const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
          const question = words.join(' ').trim();
          if (!question) throw new CliError('recall: the question is empty');
          const budget = opts.budget === undefined ? config.agents.contextTokens : Number(opts.budget);
          if (!Number.isInteger(budget) || budget < 100)
            throw new CliError(`--budget: "${opts.budget}" is not a whole number of tokens of at least 100`);
          const answer = await Hipo.at(ws, config, { now: opts.now, caller: '' }).recall(question, {
            budget,
            also: opts.also ?? [],
            search: opts.search,
            update: opts.update,
          });
          printRecall(answer, ws.memoryName, io, { json: !!opts.json, configWarnings });
          return EXIT.ok;
        });
      },
    );
}
