import type { Command } from 'commander';
import { INDEX_LEVELS } from '../../index/levels.js';
import { Hipo } from '../../api/hipo.js';
import { SEARCH_MODES } from '../../search/modes.js';
import { MEMORY_TYPES } from '../../tree/layout.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { EXIT } from '../exit.js';
import { printSearch } from '../search-output.js';
import { searchRequest, type SearchFlags } from '../search-options.js';
import type { CommandSetup } from '../command-setup.js';
import { progressSink } from '../progress.js';

interface SearchOpts extends SearchFlags {
  dir?: string;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerSearch(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('search')
    .description('Search the memory tree: keywords (BM25), meaning (vectors) or both (hybrid)')
    .argument('<query...>', 'what to look for: words, "exact phrases", -excluded words')
    .option('--mode <mode>', `ranking: ${SEARCH_MODES.join(', ')}`, 'hybrid')
    .option('-n, --limit <n>', 'number of results', '10')
    .option('--level <levels>', `only these levels, comma-separated: ${INDEX_LEVELS.join(', ')}`)
    .option('--since <date>', 'only what covers this day or later (YYYY-MM-DD)')
    .option('--until <date>', 'only what covers this day or earlier (YYYY-MM-DD)')
    .option('--type <types>', `only entries of these memory types: ${MEMORY_TYPES.join(', ')}`)
    .option(
      '--also <text>',
      'another wording, e.g. the fact the request depends on (repeatable): ranked like the query, at equal weight',
      collect,
    )
    .option('--said', "also what the user said of themselves in each hit's section (a conversation), beside its matched lines")
    .option('--expand', 'let the configured model (llm section) read ROOT.md and add queries for what the request depends on')
    .option('--no-expand', 'no model expansion, even if search.expand.enabled is set')
    .option(
      '--workspace <name>',
      'with search.store "postgres": read this workspace (repeatable; default this one and search.postgres.workspaces)',
      collect,
    )
    .option('--json', 'print the results as JSON')
    .option('--no-update', 'search the index as it is, without bringing it up to date first')
    .option(DIR_FLAGS, DIR_HELP)
    .addHelpText(
      'after',
      '\nThe index (.hipo/index.db) is brought up to date before searching; it is built on first use.\nExit codes: 0 done (also when nothing matched), 2 bad usage/config or no memory folder.',
    )
    .action((words: string[], opts: SearchOpts) => {
      setRun(async () => {
        const { query, ...ask } = searchRequest(words, opts);
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        const progress = progressSink(process.stderr, (l) => io.err(l), { plain: false, delayMs: 300 });
        // The search code loads here, not at start-up: other commands need no database or embedder.
        const answer = await Hipo.at(ws, config, { caller: '' })
          .search(query, {
            ...ask,
            onProgress: (p) => progress.update(p),
          })
          .finally(() => progress.done());
        printSearch(answer, io, { json: !!opts.json, configWarnings });
        return EXIT.ok;
      });
    });
}
