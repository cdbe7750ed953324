// The daemon's search index: opened once and held for the daemon's life, brought up to date
// after the runs that changed something (one incremental update per debounced batch). The
// index is a cache: a file found damaged is deleted and rebuilt (index/maintain.ts, as for the
// commands); an embeddings endpoint that is down leaves chunks waiting for their vectors, and
// the next update retries them.
import type { HipoConfig } from '../config/config.js';
import type { Workspace } from '../tree/layout.js';
import type { SearchIndex } from '../index/search-index.js';
import type { UpdateReport } from '../index/update.js';
import type { SearchAnswer, SearchRequest } from '../search/answer.js';
import type { ExtraQueries } from '../search/expand.js';
import type { RecallRequest } from '../context/recall-run.js';
import type { Recall } from '../context/recall.js';
import type { LocalDate } from '../time/calendar.js';

export class IndexKeeper {
  private index: SearchIndex | null = null;
  /** Updates and searches take turns: one SQLite handle, and updates await embeddings. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Aborted by interrupt(): an embeddings request, or a search's query expansion, in flight would
   * otherwise hold a stopping daemon.
   */
  private readonly stopping = new AbortController();

  constructor(
    private readonly ws: Workspace,
    private readonly config: HipoConfig,
  ) {}

  private turn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Updates the index (opening or rebuilding it as needed); warnings go to `warn`. With
   * `memoryFiles`, only those memory files are looked at (updateIndex's `memoryFiles`).
   */
  update(warn: (message: string) => void, memoryFiles?: readonly string[]): Promise<UpdateReport> {
    return this.turn(() => this.updateNow(warn, memoryFiles));
  }

  /**
   * The query's other wordings: the caller's, and the model's when the request asks for an
   * expansion (search/expand.ts). Outside the turns: the model call takes up to
   * search.expand.timeoutMs, and every other search and update would wait behind it.
   */
  extraQueries(request: SearchRequest): Promise<ExtraQueries> {
    return import('../search/expand.js').then(({ extraQueries }) =>
      extraQueries(this.ws, this.config, request.query, { also: request.also, expand: request.expand, signal: this.stopping.signal }),
    );
  }

  /**
   * Searches the index as it is (the caller brings it up to date first when it wants), as `hipo
   * search` would; `extras`: from extraQueries, asked for here first when not given. Only the
   * index work takes a turn.
   */
  async search(request: SearchRequest, warn: (message: string) => void, extras?: ExtraQueries): Promise<SearchAnswer> {
    const x = extras ?? (await this.extraQueries(request));
    return this.turn(async () => {
      // A search that was still waiting for its model when the daemon began to stop does not open
      // the index again under stop()'s close.
      if (this.stopping.signal.aborted) throw new Error('the daemon is stopping');
      const { searchWith } = await import('../search/answer.js');
      // Opened as it is: the daemon brought it up to date first when the request asked for that.
      if (!this.index) await this.updateNow(warn, []);
      const { query, update: _update, ...ask } = request;
      return searchWith(this.index!, query, ask, x);
    });
  }

  /** Recalls as `hipo recall` would, on `today`, searching the index as it is. */
  recall(request: RecallRequest, today: LocalDate, warn: (message: string) => void): Promise<Recall> {
    return this.turn(async () => {
      const [{ recallIn }, { indexTreeSearch }, { linesRedactor }] = await Promise.all([
        import('../context/recall-run.js'),
        import('../context/index-search.js'),
        import('../redact/lines.js'),
      ]);
      if (!this.index) await this.updateNow(warn, []);
      const tree = indexTreeSearch(this.index!, this.ws.memoryName, this.ws.memoryDir, linesRedactor(this.config.redactPatterns));
      return recallIn(this.ws, this.config, today, request.question, request, tree);
    });
  }

  private async updateNow(warn: (message: string) => void, memoryFiles?: readonly string[]): Promise<UpdateReport> {
    // Loaded on first use: the database and embedder code are not needed to watch files.
    const [{ withRebuild }, { updateIndex }] = await Promise.all([import('../index/maintain.js'), import('../index/update.js')]);
    try {
      const { index, result } = await withRebuild(
        this.ws,
        this.config,
        { cacheMB: this.config.daemon.indexCacheMB, signal: this.stopping.signal },
        this.index,
        warn,
        (index) => updateIndex(index, memoryFiles ? { memoryFiles } : {}),
      );
      this.index = index;
      for (const w of result.warnings) warn(w);
      return result;
    } catch (err) {
      // withRebuild closed it.
      this.index = null;
      throw err;
    }
  }

  /**
   * The daemon is stopping: an embeddings request in flight is abandoned (its chunks stay
   * waiting for their vectors), and so is a search's query expansion, so the work in progress
   * ends soon instead of at the timeout.
   */
  interrupt(): void {
    this.stopping.abort();
  }

  /** Closes the index once the work in progress is done: its memory goes until the next use. */
  release(): Promise<void> {
    return this.turn(async () => this.close());
  }

  close(): void {
    this.index?.close();
    this.index = null;
  }
}
