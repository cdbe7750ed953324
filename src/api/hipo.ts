// hipo as a library: open a workspace, then compact, index, search, recall, build a context
// pack, log an entry or read its status, the same work the CLI and the MCP server do, with
// results as data instead of text. The markdown tree stays the source of truth; every method
// reads and writes it the way the commands do (same locks, redaction and journal).
//
//   import { Hipo } from 'hipo';
//   const hipo = Hipo.open('/path/to/project');          // or a folder below it
//   await hipo.compact();
//   const { hits } = await hipo.search('why did we move search to postgres');
import { existsSync, statSync } from 'node:fs';
import { appendTypedEntry, type LoggedEntry } from '../capture/log-entry.js';
import { type HipoConfig, loadConfig } from '../config/config.js';
import { findWorkspaceRoot } from '../config/workspace-root.js';
import { indexTreeSearch } from '../context/index-search.js';
import { buildPack, type Pack } from '../context/pack.js';
import { type Recall, recall } from '../context/recall.js';
import { type CompactResult, compact } from '../cycle/compaction.js';
import { withIndex } from '../index/maintain.js';
import type { UpdateReport } from '../index/update.js';
import { extraQueries } from '../search/expand.js';
import type { SearchFilters } from '../search/filters.js';
import type { SearchMode } from '../search/modes.js';
import { type SearchResult, search } from '../search/search.js';
import { gatherStatus, type StatusReport } from '../status/status.js';
import { loadTokenCounter, type TokenizerName } from '../text/tokens.js';
import { resolveClock } from '../time/clock.js';
import { type MemoryType, type Workspace, workspaceAt } from '../tree/layout.js';

/** A workspace that cannot be opened: the message names the folder and what is missing. */
export class HipoError extends Error {}

export interface OpenOptions {
  /** "Today" for every method (`YYYY-MM-DD` or an ISO instant), as `--now`; default the clock. */
  now?: string;
}

export interface SearchOptions {
  mode?: SearchMode;
  limit?: number;
  filters?: SearchFilters;
  /** Other wordings of what the query depends on (`--also`). */
  also?: string[];
  /** Ask the configured model for more queries (`--expand`). */
  expand?: boolean;
}

export interface SearchAnswer extends SearchResult {
  /** Problems that did not stop the search (an embedder that is down, a rebuilt index). */
  warnings: string[];
}

export class Hipo {
  private constructor(
    readonly workspace: Workspace,
    readonly config: HipoConfig,
    /** Problems with hipo.config.json that did not stop it loading. */
    readonly configWarnings: string[],
    private readonly now: string | undefined,
  ) {}

  /**
   * The workspace at `dir` or the nearest one above it (a folder with hipo.config.json, or a
   * compacted memory/ folder), with its configuration.
   */
  static open(dir: string = process.cwd(), opts: OpenOptions = {}): Hipo {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new HipoError(`${dir}: not a folder`);
    const root = findWorkspaceRoot(dir);
    if (!root) throw new HipoError(`no hipo workspace in ${dir} or any folder above it (run "hipo init" there to create one)`);
    const { config, warnings } = loadConfig(root);
    const ws = workspaceAt(root, config.memoryDir);
    if (!existsSync(ws.memoryDir)) throw new HipoError(`${ws.memoryDir}: no memory folder`);
    return new Hipo(ws, config, warnings, opts.now);
  }

  /** A workspace already found and configured (the MCP server holds one for its lifetime). */
  static at(workspace: Workspace, config: HipoConfig, opts: OpenOptions = {}): Hipo {
    return new Hipo(workspace, config, [], opts.now);
  }

  /** One compaction cycle (`catchUp`: until nothing is left), as `hipo compact`. */
  compact(opts: { catchUp?: boolean; dryRun?: boolean } = {}): Promise<CompactResult> {
    return compact(this.workspace, this.config, { ...opts, now: this.now, command: 'api compact' });
  }

  /** Builds the search index, or brings it up to date with the tree, as `hipo index`. */
  async index(): Promise<{ report: UpdateReport | null; warnings: string[] }> {
    const s = await withIndex(this.workspace, this.config, { update: true }, async () => undefined);
    return { report: s.report, warnings: s.warnings };
  }

  /** Search over the whole tree, one hit per fact, as `hipo search --json`. */
  async search(query: string, opts: SearchOptions = {}): Promise<SearchAnswer> {
    if (!query.trim()) throw new HipoError('search: the query is empty');
    const x = await extraQueries(this.workspace, this.config, query, { also: opts.also, expand: opts.expand });
    const s = await withIndex(this.workspace, this.config, { update: true }, (index) =>
      search(index, query, { mode: opts.mode ?? 'hybrid', limit: opts.limit ?? 10, filters: opts.filters, also: x.also }),
    );
    return { ...s.result, warnings: [...x.warnings, ...s.warnings, ...s.result.warnings] };
  }

  /** The passages that answer a question, within a token budget, as `hipo recall`. */
  async recall(question: string, opts: { budget?: number; also?: string[] } = {}): Promise<Recall> {
    if (!question.trim()) throw new HipoError('recall: the question is empty');
    const measure = await loadTokenCounter(this.config.compaction.tokenizer as TokenizerName);
    const ws = this.workspace;
    const run = (tree?: ReturnType<typeof indexTreeSearch>): Promise<Recall> =>
      recall({
        memoryDir: ws.memoryDir,
        today: this.today(),
        question,
        also: opts.also ?? [],
        budget: opts.budget ?? this.config.agents.contextTokens,
        measure,
        ...(tree ? { search: tree } : {}),
      });
    try {
      return (await withIndex(ws, this.config, { update: true }, (index) => run(indexTreeSearch(index, ws.memoryName, ws.memoryDir))))
        .result;
    } catch {
      return run(); // no usable index: the topics, nodes and matching days still answer
    }
  }

  /** What an agent loads at session start: profile and rules, ROOT, then recent nodes, as `hipo context`. */
  async context(opts: { budget?: number; query?: string } = {}): Promise<Pack> {
    const measure = await loadTokenCounter(this.config.compaction.tokenizer as TokenizerName);
    return buildPack({
      memoryDir: this.workspace.memoryDir,
      memoryName: this.workspace.memoryName,
      today: this.today(),
      timeZone: this.config.timeZone,
      budget: opts.budget ?? this.config.agents.contextTokens,
      unit: 'tokens',
      measure,
      ...(opts.query ? { query: opts.query } : {}),
    });
  }

  /** Appends an entry to today's raw log (redacted), as `hipo log`. */
  log(text: string, opts: { type?: MemoryType; topic?: string } = {}): Promise<LoggedEntry> {
    if (!text.trim()) throw new HipoError('log: the text is empty');
    const clock = resolveClock(this.config.timeZone, this.now);
    return appendTypedEntry(this.workspace, this.config, clock, { type: opts.type ?? 'project', topic: opts.topic ?? null, text });
  }

  /** The tree's state, the index, the daemon and the last runs, as `hipo status --json`. */
  status(): Promise<StatusReport> {
    return gatherStatus(this.workspace, this.config, this.now);
  }

  private today() {
    return resolveClock(this.config.timeZone, this.now).today;
  }
}
