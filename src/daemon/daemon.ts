// `hipo daemon`: keeps the tree current by itself. It catches up on start, then runs a cycle
// after file changes (debounced) and on a heartbeat (so nodes turn fixed after midnight even
// when nothing is written), one cycle per run so a backlog never blocks file-change handling.
// It writes only under the shared writer lock, so `hipo compact` and the daemon never interleave.
import { resourceLimits } from 'node:worker_threads';
import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { createTask, type ScheduledTask } from 'node-cron';
import type { HipoConfig } from '../config/config.js';
import { compact } from '../cycle/compaction.js';
import { acquireLock, LockBusy, type Lock } from '../state/lock.js';
import type { Workspace } from '../tree/layout.js';
import { MemoryDirMissing } from '../tree/scan.js';
import { StampCache } from '../state/stamp-cache.js';
import { workspaceIdentity } from '../config/workspace-root.js';
import { pendingCaptures } from '../state/pending-captures.js';
import type { TreeSnapshot } from '../tree/snapshot.js';
import type { DaemonLog } from './log.js';
import { CoalescingRunner } from './runner.js';
import { writeDaemonState, type DaemonState } from '../state/daemon-record.js';
import { type MemoryWatcher, watchMemory } from './watcher.js';
import { IndexKeeper } from './index-keeper.js';
import { exposeGc } from './gc.js';
import { BACKLOG_NODES, workOffBacklog } from './backlog.js';
import { SummaryMemo } from '../summarize/memo.js';
import type { UpdateReport } from '../index/update.js';
import { clockSource, socketPath } from './ask.js';
import { RequestServer } from './socket.js';
import { answerRequest, type RequestHost, type RunOutcome } from './requests.js';
import { Planner } from '../plan/planner.js';
import { SettledMonths } from '../compose/root.js';
import { workspaceRedactor } from '../redact/workspace.js';
import { redactValue } from '../redact/lines.js';
import type { RecallAnswer, RecallRequest } from '../context/recall-run.js';

export class DaemonRunning extends Error {}

/** Heap bytes the kept source analyses take per character of source, about (measured). */
const HEAP_PER_SOURCE_CHAR = 12;
/** Files touched and not yet looked at, past which a run asked for over the socket scans all. */
const MAX_TOUCHED = 10_000;
/** Quiet time after a batch before the full collection (gc.ts). */
const COLLECT_AFTER_MS = 500;

export class Daemon {
  private lock: Lock | null = null;
  private watcher: MemoryWatcher | null = null;
  private heartbeat: ScheduledTask | null = null;
  private runner: CoalescingRunner;
  private cache: StampCache;
  /** Whether a backlog was already handed to child processes (once per daemon). */
  private backlogHandedOff = false;
  /** Memory files changed by others since the last run (for the index). */
  private touched = new Set<string>();
  /**
   * The tree as the last run left it, and the files changed since (from the watcher): a run
   * caused by file changes looks at those alone. Null: the next run scans the whole tree.
   */
  private known: TreeSnapshot | null = null;
  private changedSinceRun = new Set<string>();
  /**
   * Heartbeat and retry runs scan everything (as the first run does, with nothing known): a
   * change the watcher missed is found within a heartbeat.
   */
  private fullScanDue = false;
  /** Closes the index and drops the caches once the daemon has been quiet a while. */
  private releaseTimer: NodeJS.Timeout | null = null;
  private collectTimer: NodeJS.Timeout | null = null;
  /** A full collection after each batch (gc.ts); null where the runtime refuses it. */
  private readonly gc = exposeGc();
  private retryMs: number;
  private state: DaemonState;
  private readonly index: IndexKeeper;
  /** Something changed since the index was last brought up to date (true at start). */
  private indexStale = true;
  /**
   * The memory files changed since the index was last brought up to date, which the next update
   * looks at alone; null: it lists every file (at start, after a run that scanned the whole tree,
   * after a failed update or a backlog worked off by other processes).
   */
  private indexDue: Set<string> | null = null;
  /** Listens for one-shot commands that hand their work over (`hipo compact`). */
  private server: RequestServer | null = null;
  /**
   * Files the system reported touched, writes possibly still going on: a run asked for over the
   * socket looks at these too, so it sees a line appended just before `hipo compact` ran.
   */
  private touchedRaw = new Set<string>();
  /** Requests waiting for the next run's outcome. */
  private waiters: { resolve: (o: RunOutcome) => void; reject: (e: Error) => void }[] = [];
  private backlogRunning = false;
  private stopping = false;
  /**
   * Aborted by stop(): a model call in flight would otherwise hold a stopping daemon until
   * llm.timeoutMs. The node it was for is written extractively and owed its pass.
   */
  private readonly halt = new AbortController();
  /** Its workspace folder is gone (moved away): said once until it is back. */
  private rootGone = false;
  private readonly clock = clockSource(process.env);
  /** Kept between runs: a run caused by file changes plans only what they touched. */
  private readonly planner = new Planner();
  private readonly settledMonths = new SettledMonths();
  /**
   * Cycles follow each other in this process: what unchanged sources parse to is kept, within
   * the configured budget. (Unchanged nodes' records are kept with the tree, so their
   * frontmatter is not parsed again either.)
   */
  private readonly memo: SummaryMemo;

  constructor(
    private readonly ws: Workspace,
    private readonly config: HipoConfig,
    private readonly log: DaemonLog,
    /** What its settings were made from, read before they were loaded (settingsDigest), and their warnings. */
    private readonly settings: { digest: string; warnings: string[] },
  ) {
    this.index = new IndexKeeper(ws, config);
    this.cache = StampCache.load(ws);
    this.memo = new SummaryMemo(Math.floor((config.daemon.cacheMB * 1024 * 1024) / HEAP_PER_SOURCE_CHAR));
    this.runner = new CoalescingRunner(
      (reasons) => this.runOnce(reasons),
      config.daemon.debounceMs,
      () => this.paused(),
    );
    this.retryMs = config.daemon.retryMs;
    this.state = {
      pid: process.pid,
      host: hostname(),
      root: ws.root,
      since: new Date().toISOString(),
      stoppedAt: null,
      runs: 0,
      lastRun: null,
      lastError: null,
      indexedAt: null,
    };
  }

  async start(): Promise<void> {
    try {
      this.lock = await acquireLock(this.ws, 'daemon', 0, 'daemonLock');
    } catch (err) {
      if (err instanceof LockBusy && err.owner)
        throw new DaemonRunning(
          `another hipo daemon is already running for ${this.ws.root} (pid ${err.owner.pid}, since ${err.owner.since})`,
        );
      throw err;
    }
    writeDaemonState(this.ws, this.state);
    this.log(
      'info',
      'start',
      `hipo daemon: watching ${this.ws.memoryDir} (pid ${process.pid}, heartbeat "${this.config.daemon.heartbeat}" ${this.config.timeZone}, debounce ${this.config.daemon.debounceMs} ms)`,
      // In its worker thread (cli/daemon-start.ts): the young generation it was given.
      { pid: process.pid, memoryDir: this.ws.memoryDir, youngGenerationMb: resourceLimits.maxYoungGenerationSizeMb ?? null },
    );
    this.watcher = watchMemory(this.ws, {
      writeFinishMs: this.config.daemon.writeFinishMs,
      onChange: (abs, event) => this.onChange(abs, event),
      onTouch: (abs) => {
        if (this.touchedRaw.size < MAX_TOUCHED) this.touchedRaw.add(abs.slice(this.ws.memoryDir.length + 1));
        else this.known = null;
      },
      onError: (err) => this.log('warn', 'watch-error', `watcher: ${err.message}`, { error: err.message }),
    });
    this.heartbeat = createTask(
      this.config.daemon.heartbeat,
      () => {
        this.fullScanDue = true;
        this.runner.request('heartbeat');
      },
      { timezone: this.config.timeZone, noOverlap: true, name: 'hipo-heartbeat' },
    );
    this.heartbeat.start();
    await this.listen();
    await this.takeInPendingCaptures();
    // Catch up: runs follow each other until nothing is pending.
    this.runner.request('start');
  }

  /**
   * Sessions a hook could not capture while the config did not load: a daemon starts with
   * settings that load (after the file was fixed, the supervisor starts it again), so it
   * archives them; the watcher sees the appends like any other.
   */
  private async takeInPendingCaptures(): Promise<void> {
    if (!pendingCaptures(this.ws).length) return;
    const [{ takeInPendingCaptures }, { resolveClock }] = await Promise.all([import('../capture/pending.js'), import('../time/clock.js')]);
    const took = await takeInPendingCaptures(this.ws, this.config, resolveClock(this.config.timeZone), Number.POSITIVE_INFINITY);
    if (took.sessions || took.turns)
      this.log(
        'info',
        'capture',
        `archived ${took.turns} turn(s) of ${took.sessions} session(s) the hooks could not capture while the config did not load`,
        { ...took },
      );
  }

  private async listen(): Promise<void> {
    const path = socketPath(this.ws);
    if (!path) {
      this.log(
        'warn',
        'socket',
        `${this.ws.stateDir}: path too long for a Unix socket; one-shot commands will do their work themselves`,
        {},
      );
      return;
    }
    const redactor = workspaceRedactor(this.ws);
    const host: RequestHost = {
      clock: this.clock,
      settings: this.settings.digest,
      root: () => workspaceIdentity(this.ws.root),
      context: { configWarnings: this.settings.warnings, memoryDir: this.config.memoryDir },
      busy: () => (this.stopping ? 'the daemon is stopping' : this.backlogRunning ? 'the daemon is working off a backlog' : null),
      runNow: (reason) =>
        new Promise<RunOutcome>((resolve, reject) => {
          this.waiters.push({ resolve, reject });
          this.runner.request(reason);
        }),
      search: async (request) => {
        // The model's expansion and the index's update side by side: the model call holds no turn at the index.
        const [extras] = await Promise.all([
          this.index.extraQueries(request),
          request.update && this.indexMayLag ? this.updateIndex() : null,
        ]);
        return this.index.search(request, this.indexWarning, extras);
      },
      recall: (request) => this.recall(request),
      hook: (request) =>
        import('../hooks/run.js').then(({ runHook }) =>
          // The hook's time budget counts from the hook process's start, not from its request.
          runHook(request.event, request.input, {
            dir: this.ws.root,
            startedAt: performance.now() - request.elapsedMs,
            byDaemon: true,
          }),
        ),
      redact: (value) => redactValue(redactor, value),
    };
    try {
      this.server = await RequestServer.listen(path, (request) => answerRequest(host, request));
      this.log('info', 'listening', `listening on ${path} for one-shot commands`, { socket: path });
    } catch (err) {
      this.log(
        'warn',
        'socket',
        `cannot listen on ${path} (${(err as Error).message}); one-shot commands will do their work themselves`,
        {},
      );
    }
  }

  private onChange(abs: string, event: string): void {
    // A new folder inside the tree says nothing by itself (its files raise their own events);
    // the memory folder itself coming back does.
    if (event === 'addDir' && abs !== this.ws.memoryDir) return;
    const rel = abs.slice(this.ws.memoryDir.length + 1) || '.';
    // A folder that came or went: whatever was in it is not reported file by file.
    if (event === 'addDir' || event === 'unlinkDir') this.known = null;
    // An echo of the daemon's own write, or a version it has already read: the stamp cache
    // (updated right after every write) knows this exact size and mtime.
    try {
      const st = statSync(abs);
      if (st.isFile() && this.cache.knows(rel, { size: st.size, mtimeMs: st.mtimeMs })) return;
    } catch {
      /* gone: a real change */
    }
    this.touched.add(rel);
    this.changedSinceRun.add(rel);
    // The memory folder itself is named as such in the run's reason, not as '.'.
    this.runner.changed(`${rel === '.' ? `${this.config.memoryDir}/` : rel} (${event})`);
  }

  private async runOnce(reasons: string[]): Promise<{ again: boolean; retryMs: number | null }> {
    const started = performance.now();
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    const reason = [...new Set(reasons)].join('; ');
    const touched = [...this.touched];
    this.touched.clear();
    // A command waiting on this run must see what it wrote just before it asked.
    const waiters = this.waiters.splice(0);
    const changed = [...this.changedSinceRun, ...(waiters.length ? this.touchedRaw : [])];
    if (waiters.length || !this.known || this.fullScanDue) this.touchedRaw.clear();
    const known = this.known && !this.fullScanDue ? { tree: this.known, changed } : undefined;
    this.changedSinceRun.clear();
    this.known = null;
    this.fullScanDue = false;
    try {
      const r = await compact(this.ws, this.config, {
        command: 'daemon',
        cache: this.cache,
        known,
        saveCache: false,
        planner: this.planner,
        settledMonths: this.settledMonths,
        memo: this.memo,
        signal: this.halt.signal,
      });
      this.known = r.tree;
      this.rootGone = false;
      // Nodes written again after the redaction rules changed (cycle/reredact.ts).
      const rewritten = r.reredacted ? [...r.reredacted.redacted, ...r.reredacted.rehashed] : [];
      if (r.reredacted?.redacted.length)
        this.log('info', 'reredact', `redaction rules changed: ${r.reredacted.redacted.length} node(s) re-redacted`, {
          redacted: r.reredacted.redacted,
          rehashed: r.reredacted.rehashed,
        });
      const st = r.reredactedState;
      if (st?.redacted.length || st?.dropped.length || st?.removed.length)
        this.log(
          'info',
          'reredact',
          `redaction rules changed: ${st.redacted.length} state file(s) re-redacted, ${st.dropped.length} cached model answer(s) dropped` +
            (st.removed.length ? `, ${st.removed.length} left-over OpenCode transcript copy(ies) removed` : ''),
          { state: st.redacted, removed: st.removed },
        );
      // What the index must look at: every file, after a run that looked at every file.
      if (!known) this.indexDue = null;
      else if (this.indexDue) for (const f of [...touched, ...changed, ...r.written, ...rewritten]) this.indexDue.add(f);
      if (this.indexDue && this.indexDue.size > MAX_TOUCHED) this.indexDue = null;
      const ms = Math.round(performance.now() - started);
      this.state.runs++;
      const pending = r.remaining.actions.length + r.remaining.deferred.length;
      this.state.lastRun = {
        at: new Date().toISOString(),
        reason,
        cycles: r.cycles,
        written: r.written.length,
        errors: r.errors,
        ms,
        pending,
      };
      for (const w of [...r.problems.map((p) => `${p.file}: ${p.message}`), ...r.warnings]) this.log('warn', 'warning', w, { warning: w });
      if (r.cycles > 0 || r.errors.length) {
        this.log(
          r.errors.length ? 'warn' : 'info',
          'cycle',
          `cycle (${reason}): ${r.written.length} written, ${r.errors.length} error(s), ${ms} ms${r.remaining.actions.length ? `; ${pending} pending` : ''}`,
          { reason, written: r.written, errors: r.errors, ms, pending },
        );
      }
      for (const e of r.errors) this.log('error', 'node-error', e, { error: e });
      if (r.written.length || touched.length || rewritten.length) this.indexStale = true;
      if (pending >= BACKLOG_NODES && r.written.length > 0 && !r.errors.length && !this.backlogHandedOff) {
        this.backlogHandedOff = true;
        await this.handOffBacklog(pending);
        return { again: true, retryMs: null };
      }
      // One index update per drained batch: not between the cycles of a backlog.
      const drained = !(r.remaining.actions.length > 0 && r.written.length > 0);
      // A command waiting for this cycle has its answer now; the index follows as usual, unless
      // the daemon is stopping: the next start brings it up to date (it is a cache).
      for (const w of waiters) w.resolve({ result: r });
      if (drained && this.indexStale && !this.stopping) await this.updateIndex();
      if (r.errors.length) {
        this.state.lastError = { at: new Date().toISOString(), message: r.errors[0]! };
        writeDaemonState(this.ws, this.state);
        return { again: false, retryMs: this.retryLater() };
      }
      this.retryMs = this.config.daemon.retryMs;
      writeDaemonState(this.ws, this.state);
      return { again: r.remaining.actions.length > 0 && r.written.length > 0, retryMs: null };
    } catch (err) {
      for (const w of waiters) w.reject(err instanceof Error ? err : new Error(String(err)));
      for (const t of touched) this.touched.add(t);
      const message = err instanceof Error ? err.message : String(err);
      this.state.lastError = { at: new Date().toISOString(), message };
      writeDaemonState(this.ws, this.state);
      // A missing memory folder is waited for (the watcher sees it come back); other failures
      // (a lock held by a long `hipo compact`, a full disk) are retried with backoff.
      const missing = err instanceof MemoryDirMissing;
      if (!existsSync(this.ws.root)) {
        // The whole workspace moved or went (its locks fail before the memory folder is missed):
        // said once, not at every heartbeat; no retries, the next heartbeat looks again.
        if (!this.rootGone)
          this.log(
            'warn',
            'run-error',
            `${this.ws.root} is gone (moved, renamed or deleted?): waiting for it to come back. Commands in a workspace ` +
              `moved elsewhere do their own work; to have a daemon there, stop this one (pid ${process.pid}) and start one there`,
            { reason, error: message, root: this.ws.root },
          );
        this.rootGone = true;
        return { again: false, retryMs: null };
      }
      this.log(missing ? 'warn' : 'error', 'run-error', `run failed (${reason}): ${message}`, {
        reason,
        error: message,
      });
      return { again: false, retryMs: missing ? null : this.retryLater() };
    }
  }

  /** Works off a large backlog in child processes, then takes their results as read. */
  private async handOffBacklog(pending: number): Promise<void> {
    this.log('info', 'backlog', `backlog: ${pending} nodes pending; catching up and indexing in child processes`, { pending });
    this.backlogRunning = true;
    // The children start from what this process has read so far.
    this.cache.save(this.ws);
    for (const step of await workOffBacklog(this.ws)) {
      if (step.error)
        this.log('warn', 'backlog-error', `backlog: hipo ${step.command} failed (${step.error}); going on here`, {
          command: step.command,
          code: step.code,
          error: step.error,
        });
      else this.log('info', 'backlog', `backlog: hipo ${step.command} done in ${step.ms} ms`, { command: step.command, ms: step.ms });
    }
    this.backlogRunning = false;
    // What the children wrote and read is in their saved stamp cache: not read again here.
    this.cache = StampCache.load(this.ws);
    this.known = null;
    this.indexStale = true;
    this.indexDue = null;
  }

  /**
   * A search that wants the index current must update it first: when the tree changed since, or
   * always when `search.include` names folders outside it, which no watch follows (the update
   * then looks at those and at the memory files due, not at the whole tree).
   */
  private get indexMayLag(): boolean {
    return this.indexStale || this.config.search.include.length > 0;
  }

  private readonly indexWarning = (w: string): void => this.log('warn', 'index-warning', `search index: ${w}`, { warning: w });

  /** `hipo recall` for a command that asked: as Hipo.recall, with the index this daemon holds. */
  private async recall(request: RecallRequest): Promise<RecallAnswer> {
    const [{ recallIn }, { resolveClock }] = await Promise.all([import('../context/recall-run.js'), import('../time/clock.js')]);
    // Its clock is the command's (answerRequest checked): today as the command would see it.
    const today = resolveClock(this.config.timeZone).today;
    if (!request.search) return { ...(await recallIn(this.ws, this.config, today, request.question, request)), warnings: [] };
    if (request.update && this.indexMayLag) await this.updateIndex();
    try {
      return { ...(await this.index.recall(request, today, this.indexWarning)), warnings: [] };
    } catch (err) {
      // No usable index: the topics, nodes and matching days still answer.
      const r = await recallIn(this.ws, this.config, today, request.question, request);
      return { ...r, warnings: [`search index not used: ${(err as Error).message}`] };
    }
  }

  private async updateIndex(): Promise<UpdateReport | null> {
    const t0 = performance.now();
    try {
      const due = this.indexDue;
      this.indexDue = new Set();
      const rep = await this.index.update(this.indexWarning, due ? [...due] : undefined);
      this.indexStale = rep.pendingEmbeddings > 0;
      if (!this.indexStale) this.state.indexedAt = new Date().toISOString();
      const changed = rep.added + rep.changed + rep.removed;
      if (changed || rep.embedded)
        this.log(
          'info',
          'index',
          `index: ${changed} file(s) reindexed, +${rep.chunksAdded} −${rep.chunksRemoved} chunks, ${rep.embedded} embedded, ${Math.round(performance.now() - t0)} ms${rep.pendingEmbeddings ? `; ${rep.pendingEmbeddings} waiting for vectors` : ''}`,
          {
            files: changed,
            looked: rep.files,
            chunksAdded: rep.chunksAdded,
            chunksRemoved: rep.chunksRemoved,
            embedded: rep.embedded,
            pending: rep.pendingEmbeddings,
            ms: Math.round(performance.now() - t0),
          },
        );
      return rep;
    } catch (err) {
      // The index is a cache: the tree is current; the next run retries, looking at every file.
      this.indexDue = null;
      const message = (err as Error).message;
      this.state.lastError = { at: new Date().toISOString(), message: `search index: ${message}` };
      this.log('warn', 'index-error', `search index not updated: ${message} (will retry)`, { error: message });
      return null;
    }
  }

  /**
   * Runs paused: the stamp cache is written for one-shot commands (once per batch, not after
   * every cycle of a backlog), and after a quiet spell the index and caches are let go.
   */
  private paused(): void {
    this.cache.save(this.ws);
    if (this.gc) {
      if (this.collectTimer) clearTimeout(this.collectTimer);
      // Once the batch's promises have settled; not while another run is under way.
      this.collectTimer = setTimeout(() => {
        this.collectTimer = null;
        if (!this.runner.busy) this.gc?.();
      }, COLLECT_AFTER_MS);
      this.collectTimer.unref();
    }
    const after = this.config.daemon.releaseAfterMs;
    if (after <= 0) return;
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = null;
      if (this.runner.busy) return;
      void this.index.release();
      this.memo.release();
      this.log('info', 'release', 'quiet: search index closed and caches dropped until the next change', {});
    }, after);
    this.releaseTimer.unref();
  }

  /** The delay before the runner's retry run (which scans everything), doubling each time. */
  private retryLater(): number {
    this.fullScanDue = true;
    const ms = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 30 * 60 * 1000);
    return ms;
  }

  /**
   * Finishes the run in progress (a model call or embeddings request in flight abandoned, the
   * index update left to the next start), stops watching, releases the locks.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.halt.abort();
    this.index.interrupt();
    await this.server?.close();
    this.heartbeat?.stop();
    await this.heartbeat?.destroy?.();
    await this.watcher?.close();
    await this.runner.stop();
    for (const w of this.waiters.splice(0)) w.reject(new Error('the daemon stopped'));
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    if (this.collectTimer) clearTimeout(this.collectTimer);
    this.cache.save(this.ws);
    this.index.close();
    this.state.stoppedAt = new Date().toISOString();
    writeDaemonState(this.ws, this.state);
    this.lock?.release();
    this.log('info', 'stop', 'hipo daemon: stopped', {});
  }
}
