// `hipo search`'s options, checked: the command and its daemon-first path (daemon-first.ts) read
// them the same way, so a search asked of a running daemon is the one the command would run.
import { INDEX_LEVELS, type IndexLevel } from '../index/levels.js';
import type { SearchRequest } from '../search/answer.js';
import type { SearchFilters } from '../search/filters.js';
import { SEARCH_MODES, type SearchMode } from '../search/modes.js';
import { parseLocalDate, type LocalDate } from '../time/calendar.js';
import { MEMORY_TYPES, type MemoryType } from '../tree/layout.js';
import { WORKSPACE_NAME } from '../config/settings-source.js';
import { CliError } from './exit.js';

/** The options as given on the command line. */
export interface SearchFlags {
  mode?: string;
  limit?: string;
  level?: string;
  since?: string;
  until?: string;
  type?: string;
  json?: boolean;
  /** false for `--no-update`. */
  update?: boolean;
  expand?: boolean;
  also?: string[];
  workspace?: string[];
  said?: boolean;
}

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

function parseSearchFilters(opts: Pick<SearchFlags, 'level' | 'since' | 'until' | 'type'>): SearchFilters {
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

/** The search the words and flags ask for; a CliError says which flag is wrong. */
export function searchRequest(words: readonly string[], flags: SearchFlags): SearchRequest {
  const query = words.join(' ').trim();
  if (query === '') throw new CliError('search: the query is empty');
  const mode = (flags.mode ?? 'hybrid') as SearchMode;
  if (!SEARCH_MODES.includes(mode)) throw new CliError(`--mode: "${flags.mode}" is not one of ${SEARCH_MODES.join(', ')}`);
  const limit = Number(flags.limit ?? '10');
  if (!Number.isInteger(limit) || limit < 1) throw new CliError(`--limit: "${flags.limit}" is not a whole number of at least 1`);
  const filters = parseSearchFilters(flags);
  for (const w of flags.workspace ?? [])
    if (!WORKSPACE_NAME.test(w)) throw new CliError(`--workspace: "${w}" is not a workspace name (letters, digits, ".", "_", "-")`);
  return {
    query,
    mode,
    limit,
    filters,
    ...(flags.also ? { also: flags.also } : {}),
    ...(flags.expand !== undefined ? { expand: flags.expand } : {}),
    ...(flags.workspace ? { workspaces: flags.workspace } : {}),
    ...(flags.said ? { said: true } : {}),
    update: flags.update !== false,
  };
}
