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
import type { LoggedEntry } from '../capture/log-entry.js';
import { type HipoConfig, loadConfig } from '../config/config.js';
import { findWorkspaceRoot } from '../config/workspace-root.js';
import type { Pack } from '../context/pack.js';
import type { Recall, TreeSearch } from '../context/recall.js';
import type { CompactProgress, CompactResult } from '../cycle/compaction.js';
import type { IndexTotals } from '../index/totals.js';
import type { UpdateProgress, UpdateReport } from '../index/update.js';
import type { SearchAnswer, SearchAsk } from '../search/answer.js';
import type { RecallAnswer, RecallAsk } from '../context/recall-run.js';
import { pendingCaptures } from '../state/pending-captures.js';
import type { StatusReport } from '../status/status.js';
import type { TokenizerName } from '../text/tokens.js';
import { resolveClock } from '../time/clock.js';
import { type MemoryType, type Workspace, workspaceAt } from '../tree/layout.js';

// Each method loads the code it needs when first called: opening a workspace costs a config
// read, and a command that logs one entry does not load the search index or the summarizers.

export type { SearchAnswer } from '../search/answer.js';
export type { RecallAnswer } from '../context/recall-run.js';

/** A workspace that cannot be opened: the message names the folder and what is missing. */
export class HipoError extends Error {}

export interface OpenOptions {
  /** "Today" for every method (`YYYY-MM-DD` or an ISO instant), as `--now`; default the clock. */
  now?: string;
  /** Who calls, as the lock and the journal name a compaction (`api compact`); "" for the CLI. */
  caller?: string;
}

export interface SearchOptions extends SearchAsk {
  /** Bring the index up to date with the tree first (default true; `--no-update`). */
  update?: boolean;
  onProgress?: (p: UpdateProgress) => void;
  /**
   * Aborted when the caller stops (an MCP server whose session ended): a query expansion or
   * embeddings request in flight is abandoned rather than waited for until its time limit.
   */
  signal?: AbortSignal;
}

export interface RecallOptions extends RecallAsk {
  /** Use the search index (default true); without it, the topics, nodes and matching days answer. */
  search?: boolean;
  /** Bring the index up to date with the tree first (default true). */
  update?: boolean;
}

export interface IndexAnswer {
  report: UpdateReport;
  warnings: string[];
  totals: IndexTotals;
}

export class Hipo {
  private constructor(
    readonly workspace: Workspace,
    readonly config: HipoConfig,
    /** Problems with hipo.config.json that did not stop it loading. */
    readonly configWarnings: string[],
    private readonly now: string | undefined,
    private readonly caller: string,
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
    return new Hipo(ws, config, warnings, opts.now, opts.caller ?? 'api');
  }

  /** A workspace already found and configured (the MCP server holds one for its lifetime). */
  static at(workspace: Workspace, config: HipoConfig, opts: OpenOptions = {}): Hipo {
    return new Hipo(workspace, config, [], opts.now, opts.caller ?? 'api');
  }

  /** One compaction cycle (`catchUp`: until nothing is left), as `hipo compact`. */
  async compact(
    opts: { catchUp?: boolean; dryRun?: boolean; resummarize?: boolean; onProgress?: (p: CompactProgress) => void } = {},
  ): Promise<CompactResult> {
    const { compact } = await import('../cycle/compaction.js');
    const flags = `${opts.dryRun ? ' --dry-run' : ''}${opts.resummarize ? ' --resummarize' : ''}`;
    const command = `${this.caller ? `${this.caller} ` : ''}compact${flags}`;
    // Sessions a hook could not capture while the config did not load are archived first.
    if (!opts.dryRun && pendingCaptures(this.workspace).length) {
      const { takeInPendingCaptures } = await import('../capture/pending.js');
      await takeInPendingCaptures(this.workspace, this.config, resolveClock(this.config.timeZone, this.now), Number.POSITIVE_INFINITY);
    }
    return compact(this.workspace, this.config, { ...opts, now: this.now, command });
  }

  /**
   * After a compaction: brings the search index up to date with what was written, when there is
   * one (or `search.autoIndex` or `create` asks for one). Never throws: a failure is a warning.
   */
  async keepIndexCurrent(
    opts: { onProgress?: (p: UpdateProgress) => void; create?: boolean } = {},
  ): Promise<{ report: UpdateReport | null; warnings: string[] }> {
    const { keepIndexCurrent } = await import('../index/maintain.js');
    return keepIndexCurrent(this.workspace, this.config, opts);
  }

  /** Builds the search index, or brings it up to date with the tree, as `hipo index`. */
  async index(opts: { rebuild?: boolean; onProgress?: (p: UpdateProgress) => void } = {}): Promise<IndexAnswer> {
    const [{ withIndex }, { indexTotals }] = await Promise.all([import('../index/maintain.js'), import('../index/totals.js')]);
    const s = await withIndex(this.workspace, this.config, { update: true, ...opts }, async (index) => indexTotals(index));
    return { report: s.report!, warnings: s.warnings, totals: s.result };
  }

  /** Search over the whole tree, one hit per fact, as `hipo search --json`. */
  async search(query: string, opts: SearchOptions = {}): Promise<SearchAnswer> {
    if (!query.trim()) throw new HipoError('search: the query is empty');
    this.requireMemory();
    const [{ withIndex }, { answerSearch }] = await Promise.all([import('../index/maintain.js'), import('../search/answer.js')]);
    const { update, onProgress, signal, ...ask } = opts;
    const s = await withIndex(this.workspace, this.config, { update: update ?? true, onProgress, signal }, (index) =>
      answerSearch(index, this.workspace, this.config, query, ask, signal),
    );
    return { ...s.result, warnings: [...s.warnings, ...s.result.warnings] };
  }

  /** The passages that answer a question, within a token budget, as `hipo recall`. */
  async recall(question: string, opts: RecallOptions = {}): Promise<RecallAnswer> {
    if (!question.trim()) throw new HipoError('recall: the question is empty');
    this.requireMemory();
    const { recallIn } = await import('../context/recall-run.js');
    const ws = this.workspace;
    const run = (tree?: TreeSearch): Promise<Recall> => recallIn(ws, this.config, this.today(), question, opts, tree);
    if (opts.search === false) return { ...(await run()), warnings: [] };
    const [{ withIndex }, { indexTreeSearch }, { linesRedactor }] = await Promise.all([
      import('../index/maintain.js'),
      import('../context/index-search.js'),
      import('../redact/lines.js'),
    ]);
    const redact = linesRedactor(this.config.redactPatterns);
    try {
      const s = await withIndex(ws, this.config, { update: opts.update ?? true }, (index) =>
        run(indexTreeSearch(index, ws.memoryName, ws.memoryDir, redact)),
      );
      return { ...s.result, warnings: s.warnings };
    } catch (err) {
      // No usable index: the topics, nodes and matching days still answer.
      return { ...(await run()), warnings: [`search index not used: ${(err as Error).message}`] };
    }
  }

  /** What an agent loads at session start: profile and rules, ROOT, then recent nodes, as `hipo context`. */
  async context(opts: { budget?: number; query?: string } = {}): Promise<Pack> {
    this.requireMemory();
    const [{ buildPack }, { loadTokenCounter }] = await Promise.all([import('../context/pack.js'), import('../text/tokens.js')]);
    const measure = await loadTokenCounter(this.config.compaction.tokenizer as TokenizerName);
    return buildPack({
      memoryDir: this.workspace.memoryDir,
      memoryName: this.workspace.memoryName,
      today: this.today(),
      timeZone: this.config.timeZone,
      budget: opts.budget ?? this.config.agents.contextTokens,
      unit: 'tokens',
      measure,
      ephemeralMarkers: this.config.compaction.ephemeralMarkers,
      activeContextDays: this.config.compaction.activeContextDays,
      ...(opts.query ? { query: opts.query } : {}),
    });
  }

  /** Appends an entry to today's raw log (redacted), as `hipo log`. */
  async log(text: string, opts: { type?: MemoryType; topic?: string } = {}): Promise<LoggedEntry> {
    if (!text.trim()) throw new HipoError('log: the text is empty');
    this.requireMemory();
    const { appendTypedEntry } = await import('../capture/log-entry.js');
    const clock = resolveClock(this.config.timeZone, this.now);
    return appendTypedEntry(this.workspace, this.config, clock, { type: opts.type ?? 'project', topic: opts.topic ?? null, text });
  }

  /** The tree's state, the index, the daemon and the last runs, as `hipo status --json`. */
  async status(): Promise<StatusReport> {
    const { gatherStatus } = await import('../status/status.js');
    const report = await gatherStatus(this.workspace, this.config, this.now);
    if (this.config.search.store === 'postgres') {
      const { storeStatus } = await import('../index/pg/status.js');
      report.store = await storeStatus(this.workspace, this.config);
    }
    return report;
  }

  /**
   * The memory folder may go after the workspace was opened (a server holds one for a session):
   * then there is nothing to answer from, which is not the same as nothing found.
   */
  private requireMemory(): void {
    if (!existsSync(this.workspace.memoryDir)) throw new HipoError(`${this.workspace.memoryDir}: no memory folder`);
  }

  private today() {
    return resolveClock(this.config.timeZone, this.now).today;
  }
}
