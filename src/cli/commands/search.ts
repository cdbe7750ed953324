import type { Command } from 'commander';
import { INDEX_LEVELS, type IndexLevel } from '../../index/files.js';
import type { SearchResult } from '../../search/search.js';
import { formatSearch } from '../../search/format.js';
import { Hipo } from '../../api/hipo.js';
import type { ExtraQueries } from '../../search/expand.js';
import { SEARCH_MODES, type SearchMode } from '../../search/modes.js';
import type { SearchFilters } from '../../search/filters.js';
import { parseLocalDate, type LocalDate } from '../../time/calendar.js';
import { MEMORY_TYPES, type MemoryType } from '../../tree/layout.js';
import { WORKSPACE_NAME } from '../../config/config.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { CliError, EXIT } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';
import { progressSink } from '../progress.js';

interface SearchOpts {
  mode: string;
  limit: string;
  level?: string;
  since?: string;
  until?: string;
  type?: string;
  json?: boolean;
  update: boolean;
  expand?: boolean;
  also?: string[];
  workspace?: string[];
  dir?: string;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function listOption<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const item of items) if (!allowed.includes(item as T)) throw new CliError(`${flag}: "${item}" is not one of ${allowed.join(', ')}`);
  return items as T[];
}

function dateOption(value: string | undefined, flag: string): LocalDate | undefined {
  if (value === undefined) return undefined;
  const d = parseLocalDate(value.trim());
  if (!d) throw new CliError(`${flag}: "${value}" is not a date (YYYY-MM-DD)`);
  return d;
}

export function parseSearchFilters(opts: Pick<SearchOpts, 'level' | 'since' | 'until' | 'type'>): SearchFilters {
  const filters: SearchFilters = {
    levels: listOption<IndexLevel>(opts.level, INDEX_LEVELS, '--level'),
    since: dateOption(opts.since, '--since'),
    until: dateOption(opts.until, '--until'),
    types: listOption<MemoryType>(opts.type, MEMORY_TYPES, '--type'),
  };
  if (filters.since && filters.until && filters.since > filters.until)
    throw new CliError(`--since ${filters.since} is after --until ${filters.until}`);
  return filters;
}

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
        const query = words.join(' ').trim();
        if (query === '') throw new CliError('search: the query is empty');
        const mode = opts.mode as SearchMode;
        if (!SEARCH_MODES.includes(mode)) throw new CliError(`--mode: "${opts.mode}" is not one of ${SEARCH_MODES.join(', ')}`);
        const limit = Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new CliError(`--limit: "${opts.limit}" is not a whole number of at least 1`);
        const filters = parseSearchFilters(opts);
        for (const w of opts.workspace ?? [])
          if (!WORKSPACE_NAME.test(w)) throw new CliError(`--workspace: "${w}" is not a workspace name (letters, digits, ".", "_", "-")`);
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        const progress = progressSink(process.stderr, (l) => io.err(l), { plain: false, delayMs: 300 });
        // The search code loads here, not at start-up: other commands need no database or embedder.
        const { expansion, ...result } = await Hipo.at(ws, config, { caller: '' })
          .search(query, {
            mode,
            limit,
            filters,
            ...(opts.also ? { also: opts.also } : {}),
            ...(opts.expand !== undefined ? { expand: opts.expand } : {}),
            ...(opts.workspace ? { workspaces: opts.workspace } : {}),
            update: opts.update,
            onProgress: (p) => progress.update(p),
          })
          .finally(() => progress.done());
        const warnings = [...configWarnings, ...result.warnings];
        if (opts.json) io.out(JSON.stringify(searchJson(result, warnings, expansion), null, 2));
        else {
          io.out(formatSearch(result));
          for (const w of warnings) io.err(`hipo: warning: ${w}`);
        }
        return EXIT.ok;
      });
    });
}

function searchJson(r: SearchResult, warnings: string[], expansion: ExtraQueries['expansion']): unknown {
  return { query: r.query, also: r.also, mode: r.mode, ms: Math.round(r.ms * 10) / 10, hits: r.hits, warnings, expansion };
}
