import type { Command } from 'commander';
import { recall, renderRecall } from '../../context/recall.js';
import { resolveClock } from '../../time/clock.js';
import { loadTokenCounter, type TokenizerName } from '../../write/tokens.js';
import { loadWorkspace } from '../context.js';
import { CliError, EXIT } from '../exit.js';
import type { CommandContext } from '../main.js';

export function registerRecall(program: Command, { io, setRun }: CommandContext): void {
  program
    .command('recall')
    .argument('<question...>', 'what to look up')
    .description("Find the passages of memory that answer a question: ROOT's Topics Index, then the nodes' topics and periods, then search; ranked, with file and line range, under a token budget")
    .option('--budget <tokens>', 'token budget (default: agents.contextTokens in hipo.config.json)')
    .option('--json', 'print topics, days and passages as JSON')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD or ISO instant)')
    .option('--dir <path>', 'workspace holding memory/ and hipo.config.json', '.')
    .action((words: string[], opts: { budget?: string; json?: boolean; now?: string; dir: string }) => {
      setRun(async () => {
        const { ws, config } = loadWorkspace(opts.dir, true);
        const question = words.join(' ').trim();
        if (!question) throw new CliError('recall: the question is empty');
        const budget = opts.budget === undefined ? config.agents.contextTokens : Number(opts.budget);
        if (!Number.isInteger(budget) || budget < 100) throw new CliError(`--budget: "${opts.budget}" is not a whole number of tokens of at least 100`);
        const clock = resolveClock(config.timeZone, opts.now);
        const measure = await loadTokenCounter(config.compaction.tokenizer as TokenizerName);
        const r = await recall({ memoryDir: ws.memoryDir, today: clock.today, question, budget, measure });
        if (opts.json) io.out(JSON.stringify({ ...r, passages: r.passages.map((p) => ({ ...p, path: `${ws.memoryName}/${p.path}` })) }, null, 2));
        else io.out(renderRecall(r, ws.memoryName));
        return EXIT.ok;
      });
    });
}
