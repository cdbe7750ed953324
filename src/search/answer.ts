// One search as every caller runs it (the CLI, the API, MCP and the daemon for a one-shot
// command): the query's other wordings (`--also`, and the model's when asked), then the index.
import type { HipoConfig } from '../config/config.js';
import type { SearchIndex } from '../index/search-index.js';
import type { Workspace } from '../tree/layout.js';
import { extraQueries, type ExtraQueries } from './expand.js';
import type { SearchFilters } from './filters.js';
import type { SearchMode } from './modes.js';
import { search, type SearchResult } from './search.js';
import { pickSaid } from './said-pick.js';
import { SAID_ROOM } from './said.js';
import { saidBeside } from './said-index.js';

export interface SearchAsk {
  mode?: SearchMode;
  limit?: number;
  filters?: SearchFilters;
  /** Other wordings of what the query depends on (`--also`). */
  also?: string[];
  /** Ask the configured model for more queries (`--expand`); default `search.expand.enabled`. */
  expand?: boolean;
  /** With `search.store` "postgres": the workspaces to read (`--workspace`; default this one and the configured). */
  workspaces?: string[];
  /** Each hit also with what the user said of themselves in its section (said.ts; the MCP tool asks). */
  said?: boolean;
}

/** A whole search as a command asks for it: the query, and whether the index is brought up to date first. */
export interface SearchRequest extends SearchAsk {
  query: string;
  update: boolean;
}

export interface SearchAnswer extends SearchResult {
  /** Problems that did not stop the search (an embedder that is down, a rebuilt index). */
  warnings: string[];
  /** The model's part, when it expanded the query. */
  expansion: ExtraQueries['expansion'];
}

export async function answerSearch(
  index: SearchIndex,
  ws: Workspace,
  config: HipoConfig,
  query: string,
  opts: SearchAsk,
  /** Aborted when the owner stops: a query expansion in flight is abandoned (expand.ts). */
  signal?: AbortSignal,
): Promise<SearchAnswer> {
  return searchWith(index, query, opts, await extraQueries(ws, config, query, { also: opts.also, expand: opts.expand, signal }));
}

/**
 * The index's part of a search, with the query's other wordings found already: the daemon asks
 * the model for them before the search takes its turn at the index (daemon/index-keeper.ts).
 */
export async function searchWith(index: SearchIndex, query: string, opts: SearchAsk, x: ExtraQueries): Promise<SearchAnswer> {
  const result = await search(index, query, {
    mode: opts.mode ?? 'hybrid',
    limit: opts.limit ?? 10,
    filters: opts.filters,
    also: x.also,
    workspaces: opts.workspaces,
  });
  // Hits read from a shared PostgreSQL store may be another workspace's: only this index's are read.
  const hits = opts.said
    ? result.hits.map((h) => {
        if (h.workspace) return h;
        const said = pickSaid(saidBeside(index.db, h), query, SAID_ROOM, (s) => s.text.length);
        return said.length ? { ...h, said } : h;
      })
    : result.hits;
  return { ...result, hits, warnings: [...x.warnings, ...result.warnings], expansion: x.expansion };
}
