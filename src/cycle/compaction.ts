// A compaction run: read the tree, plan, and (unless dry) apply plans under the lock, one
// cycle or, with catch-up, cycles until nothing is left to do.
import { randomUUID } from 'node:crypto';
import type { HipoConfig } from '../config/config.js';
import { resolveClock, type Clock } from '../time/clock.js';
import type { Workspace } from '../tree/layout.js';
import { rescanTree, scanTree } from '../tree/scan.js';
import { StampCache } from '../state/stamp-cache.js';
import type { Problem, TreeSnapshot } from '../tree/snapshot.js';
import { ExclusionRules } from '../summarize/exclusion.js';
import { redactorFor } from '../redact/workspace.js';
import type { Redactor } from '../redact/redactor.js';
import { selectSummarizers, type LlmRuntime } from '../summarize/select.js';
import type { Summarizer } from '../summarize/summarizer.js';
import { Planner, planCycle, type PlanOptions, type TreeChanges } from '../plan/planner.js';
import { classifyPath, nodeKey, type NodeKey } from '../tree/layout.js';
import type { LocalDate } from '../time/calendar.js';
import type { CyclePlan } from '../plan/plan.js';
import { loadTemplates, type TemplateSet } from '../write/template.js';
import { sweepTempFiles } from '../fs/atomic.js';
import { join } from 'node:path';
import { executePlan, rootSettings, type Applied } from './execute.js';
import { estimateModelCalls, type ModelCallPlan } from './llm-estimate.js';
import { appendJournal, type CycleRecord, type JournalRecord } from '../state/journal.js';
import { acquireLock } from '../state/lock.js';
import { TreeState } from './tree-state.js';
import type { SettledMonths } from '../compose/root.js';
import { buildDaily, DailyPrefetch } from './prefetch.js';
import type { SummaryMemo } from '../summarize/memo.js';
import { reredactNodes, type Reredaction, type ReredactOptions } from './reredact.js';
import { loadTokenCounter, type TokenizerName } from '../text/tokens.js';
import { recordRedactedWith, redactedWith } from '../state/redaction.js';
import { reredactState, type StateReredaction } from './reredact-state.js';

/** Below this many daily nodes to build, starting a worker costs more than it saves. */
const PREFETCH_MIN_DAYS = 4;

export interface CompactOptions {
  dryRun?: boolean;
  catchUp?: boolean;
  /** `YYYY-MM-DD` or a date and time (time/clock.ts); default the clock (or HIPO_NOW). */
  now?: string;
  /** Recorded in the lock and journal. */
  command?: string;
  /** Overrides `config.lockWaitMs`. */
  lockWaitMs?: number;
  /** Upper bound on catch-up cycles (a safety net; catch-up stops when no progress is made). */
  maxCycles?: number;
  /** Overrides the summarizer chosen by the config (tests, benchmarks). */
  summarizer?: Summarizer;
  /** A stamp cache kept in memory across runs (the daemon); default: loaded from `.hipo/`. */
  cache?: StampCache;
  /**
   * The tree as the previous run left it (`CompactResult.tree`) and the memory-relative paths
   * changed since, as a file watcher saw them: only those are looked at again (the daemon).
   * Default: a full scan.
   */
  known?: { tree: TreeSnapshot; changed: Iterable<string> };
  /** False: leave saving the stamp cache to the caller (a resident process saves it when idle). */
  saveCache?: boolean;
  /** Fixed extractive nodes get a model pass too (needs a configured model). */
  resummarize?: boolean;
  /**
   * The planner of the previous run, for a resident process: with `known`, the first plan
   * decides again only about the changed files (and what depends on them).
   */
  planner?: Planner;
  /** ROOT's merge of the older months' topics from the previous run, for a resident process. */
  settledMonths?: SettledMonths;
  /** The extractive summarizer's memo of sources and lines, kept by a resident owner (the daemon). */
  memo?: SummaryMemo;
  /** Where HIPO_LLM_* overrides are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Progress of a run: actions done so far of an estimated total, and the node being worked on. */
  onProgress?: (p: CompactProgress) => void;
  /**
   * Aborted when the owner stops (a daemon on SIGTERM): a model call in flight is abandoned, the
   * rest of the cycle goes without the model (its nodes are owed their pass), no further cycle starts.
   */
  signal?: AbortSignal;
  /** Told right before a node is replaced or removed (ExecEnv.beforeReplace): tests. */
  beforeReplace?: (relPath: string) => void;
}

export interface CompactProgress {
  phase: 'compact';
  /** Actions done in this run. */
  done: number;
  /** Done plus what the current plan has left (its actions and the work it deferred). */
  total: number;
  /** Memory-relative path of the node being written. */
  detail: string;
}

export interface CompactResult {
  clock: Clock;
  dryRun: boolean;
  /** The first cycle's plan (what `--dry-run` shows). */
  plan: CyclePlan;
  cycles: number;
  applied: Applied[];
  /** Memory-relative paths of files written. */
  written: string[];
  /** The plan that would run next: work left over by the per-cycle limits. */
  remaining: CyclePlan;
  /** The tree as this run left it (for the next run's `known`). */
  tree: TreeSnapshot;
  problems: Problem[];
  errors: string[];
  warnings: string[];
  /**
   * Nodes written again with only what the redaction rules now find redacted, after the rules
   * changed (an upgrade, `redactPatterns`); null when they had not.
   */
  reredacted: Reredaction | null;
  /** The same for the state files under `.hipo/` (cycle/reredact-state.ts); null when the rules had not changed. */
  reredactedState: StateReredaction | null;
  /** The model in use (null: extractive only) and, for a dry run, the calls the plan would make. */
  llm: { model: string; baseUrl: string; calls: number; unavailable: string | null; estimate?: ModelCallPlan } | null;
}

/** What a run did, as plain data: without the tree, the clock as its day and zone. */
export type CompactReport = Omit<CompactResult, 'tree' | 'clock'> & { clock: Pick<Clock, 'today' | 'timeZone'> };

export class ResummarizeWithoutModel extends Error {
  constructor() {
    super('--resummarize needs a model: set llm.baseUrl and llm.model in hipo.config.json, or HIPO_LLM_BASE_URL and HIPO_LLM_MODEL');
  }
}

function planOptions(config: HipoConfig, templates: TemplateSet, llm: LlmRuntime | null, resummarize: boolean): PlanOptions {
  const base = {
    limits: config.compaction.limits,
    graceDays: config.compaction.graceDays,
    rootSettings: rootSettings({ config, templates }),
  };
  if (!llm) return base;
  const s = llm.session;
  // Model passes wait while the endpoint backs off, except when the user asks (--resummarize).
  return {
    ...base,
    llm: {
      levels: s.settings.levels,
      upgrade: resummarize || s.unavailable() === null,
      resummarize,
      failed: s.state.failedInputs(),
      owed: s.state.owedPasses(),
    },
  };
}

export async function compact(ws: Workspace, config: HipoConfig, opts: CompactOptions = {}): Promise<CompactResult> {
  const clock = resolveClock(config.timeZone, opts.now);
  const command = opts.command ?? 'compact';
  const resummarize = !!opts.resummarize;
  const templates = loadTemplates(ws.root);
  const rules = new ExclusionRules(config.compaction.ephemeralMarkers);
  const redactor = redactorFor(config.redactPatterns);
  const choice = selectSummarizers(ws, config, templates, rules, redactor, opts.env ?? process.env, opts.memo, opts.signal);
  const llm = opts.summarizer ? null : choice.llm;
  if (resummarize && !llm) throw new ResummarizeWithoutModel();
  const llmInfo = (): CompactResult['llm'] =>
    llm
      ? {
          model: llm.session.settings.model,
          baseUrl: llm.session.settings.baseUrl,
          calls: llm.session.calls,
          unavailable: llm.session.unavailable(),
        }
      : null;
  if (opts.dryRun) {
    // Reads only: no lock, no cache write, no journal.
    const cache = StampCache.load(ws);
    const { snapshot } = scanTree(ws, cache, config.maxFileBytes);
    const plan = planCycle(snapshot, clock.today, planOptions(config, templates, llm, resummarize));
    const info = llmInfo();
    if (info && llm) {
      info.estimate = await estimateModelCalls(plan, new TreeState(snapshot, ws, cache, config.maxFileBytes), llm, {
        config,
        clock,
        redactor,
        rules,
        templates,
      });
      // --resummarize ends any backoff when it runs for real.
      if (resummarize) info.estimate.unavailable = info.unavailable = null;
    }
    return {
      clock,
      dryRun: true,
      plan,
      cycles: 0,
      applied: [],
      written: [],
      remaining: plan,
      tree: snapshot,
      problems: [...snapshot.problems],
      errors: [],
      warnings: [...choice.warnings],
      reredacted: null,
      reredactedState: null,
      llm: info,
    };
  }

  const lock = await acquireLock(ws, command, opts.lockWaitMs ?? config.lockWaitMs);
  try {
    // Writers that were killed mid-write leave hidden temp files behind; nothing else does.
    // (A resident caller's full scans sweep them; its focused runs do not list folders.)
    if (!opts.known) sweepTempFiles(['', 'daily', 'weekly', 'monthly'].map((d) => join(ws.memoryDir, d)).concat(ws.stateDir));
    const cache = opts.cache ?? StampCache.load(ws);
    const { snapshot } = opts.known
      ? rescanTree(ws, cache, opts.known.tree, opts.known.changed, config.maxFileBytes)
      : scanTree(ws, cache, config.maxFileBytes);
    const tree = new TreeState(snapshot, ws, cache, config.maxFileBytes, opts.settledMonths);
    // Once after the rules changed: what older rules left in the nodes goes before anything is planned.
    const reredacted =
      redactedWith(ws, 'nodes') === redactor.rulesKey
        ? null
        : bringNodesUpToRules(ws, tree, redactor, rootSettings({ config, templates }), command, {
            countTokens: await loadTokenCounter(config.compaction.tokenizer as TokenizerName),
          });
    const reredactedState = redactedWith(ws, 'state') === redactor.rulesKey ? null : bringStateUpToRules(ws, redactor, command);
    const summarizer = opts.summarizer ?? choice.summarizer;
    if (resummarize) llm?.session.state.clearBackoff();
    const applied: Applied[] = [];
    const maxCycles = opts.maxCycles ?? 1_000_000;
    let first: CyclePlan | null = null;
    let cycles = 0;
    let prefetch: DailyPrefetch | null = null;
    // Each cycle's plan looks again only at what the previous cycles (or runs) changed.
    const planner = opts.planner ?? new Planner();
    const rescanned = opts.known && opts.planner ? withChanges(changesOf(opts.known.changed), tree.takeChanges()) : undefined;
    // Nodes whose action failed in this run, or waited for one that failed: not tried again until
    // the next run. Their cause (a file where a folder should be, a full disk) is still there, and
    // a catch-up of many days tried and reported them once a cycle.
    const settled = new Set<NodeKey>();
    try {
      for (;;) {
        const planned = planner.plan(
          tree,
          clock.today,
          planOptions(config, templates, llm, resummarize),
          cycles === 0 ? rescanned : tree.takeChanges(),
        );
        first ??= planned;
        const plan = settled.size ? { ...planned, actions: planned.actions.filter((a) => !settled.has(nodeKey(a.period))) } : planned;
        if (plan.actions.length === 0) break;
        // A long catch-up with the offline summarizer builds upcoming daily nodes on a worker.
        if (!prefetch && opts.catchUp && !llm && summarizer.id === 'extractive' && dailiesWaiting(plan) >= PREFETCH_MIN_DAYS) {
          const setup = { memoryDir: ws.memoryDir, memoryName: ws.memoryName, config, today: clock.today };
          prefetch = DailyPrefetch.start(ws, config, clock.today, (date) => buildDaily(setup, date, summarizer, redactor, rules));
        }
        prefetch?.plan(plan);
        const cycleId = randomUUID().slice(0, 8);
        const t0 = performance.now();
        llm?.session.startCycle();
        const before = applied.length;
        const total = before + plan.actions.length + plan.deferred.length;
        const onAction = opts.onProgress
          ? (rel: string, i: number) => opts.onProgress!({ phase: 'compact', done: before + i, total, detail: rel })
          : undefined;
        const results = await executePlan(plan, tree, {
          config,
          clock,
          summarizer,
          templates,
          redactor,
          rules,
          memo: opts.memo,
          cycleId,
          llm,
          prefetch,
          failedEarlier: settled,
          ...(onAction ? { onAction } : {}),
          ...(opts.beforeReplace ? { beforeReplace: opts.beforeReplace } : {}),
        });
        applied.push(...results);
        // One outcome per action, in the plan's order.
        results.forEach((r, i) => {
          if (r.error !== null || r.record.mode === 'waiting') settled.add(nodeKey(plan.actions[i]!.period));
        });
        cycles++;
        const errors = results.flatMap((r) => (r.error ? [r.error] : []));
        const cycle: CycleRecord = {
          type: 'cycle',
          cycle: cycleId,
          at: new Date().toISOString(),
          today: clock.today,
          command,
          actions: results.length,
          written: results.filter((r) => r.written).length,
          deferred: plan.deferred.length,
          errors,
          warnings: results.filter((r) => r.warning).length,
          ms: Math.round(performance.now() - t0),
        };
        appendJournal(ws, [...results.map((r) => r.record as JournalRecord), cycle]);
        // A cycle that wrote nothing will not be followed by one that does: stop.
        const progressed = results.some((r) => r.written !== null);
        if (!opts.catchUp || cycles >= maxCycles || !progressed || opts.signal?.aborted) break;
      }
    } finally {
      await prefetch?.close();
    }
    if (applied.length) opts.onProgress?.({ phase: 'compact', done: applied.length, total: applied.length, detail: '' });
    // Nothing ran: the first plan is still what the next cycle would do.
    const remaining =
      cycles === 0 && first ? first : planner.plan(tree, clock.today, planOptions(config, templates, llm, resummarize), tree.takeChanges());
    if (opts.saveCache !== false) cache.save(ws);
    return {
      clock,
      dryRun: false,
      plan: first!,
      cycles,
      applied,
      written: applied.flatMap((r) => (r.written ? [r.written] : [])),
      remaining,
      tree,
      problems: tree.problems,
      errors: applied.flatMap((r) => (r.error ? [r.error] : [])),
      warnings: [
        ...choice.warnings,
        ...(reredacted?.warnings ?? []),
        ...(reredactedState?.warnings ?? []),
        ...applied.flatMap((r) => (r.warning ? [r.warning] : [])),
      ],
      reredacted,
      reredactedState,
      llm: llmInfo(),
    };
  } finally {
    lock.release();
  }
}

/**
 * Re-redacts the nodes (cycle/reredact.ts) and records the rules once every node is up to them;
 * what was rewritten goes to the journal.
 */
function bringNodesUpToRules(
  ws: Workspace,
  tree: TreeState,
  redactor: Redactor,
  settings: string,
  command: string,
  opts: ReredactOptions,
): Reredaction {
  const r = reredactNodes(tree, redactor, settings, opts);
  if (r.redacted.length || r.rehashed.length)
    appendJournal(ws, [{ type: 'reredact', at: new Date().toISOString(), command, redacted: r.redacted, rehashed: r.rehashed }]);
  if (!r.warnings.length) recordRedactedWith(ws, 'nodes', redactor.rulesKey);
  return r;
}

/** The same for the state files (cycle/reredact-state.ts), after the journal itself was. */
function bringStateUpToRules(ws: Workspace, redactor: Redactor, command: string): StateReredaction {
  const r = reredactState(ws, redactor);
  if (r.redacted.length || r.dropped.length || r.removed.length)
    appendJournal(ws, [
      { type: 'reredact', at: new Date().toISOString(), command, state: r.redacted, dropped: r.dropped.length, removed: r.removed },
    ]);
  if (!r.warnings.length) recordRedactedWith(ws, 'state', redactor.rulesKey);
  return r;
}

/** Two sets of changes as one. */
function withChanges(a: TreeChanges, b: TreeChanges): TreeChanges {
  return { raws: [...a.raws, ...b.raws], nodes: [...a.nodes, ...b.nodes] };
}

/** Daily nodes a plan leaves for later cycles, counted up to PREFETCH_MIN_DAYS. */
function dailiesWaiting(plan: CyclePlan): number {
  let n = 0;
  for (const d of plan.deferred) if (d.period.level === 'daily' && ++n >= PREFETCH_MIN_DAYS) break;
  return n;
}

/** The records a rescan of these memory-relative paths may have replaced. */
function changesOf(paths: Iterable<string>): TreeChanges {
  const raws: LocalDate[] = [];
  const nodes: string[] = [];
  for (const rel of paths) {
    const what = classifyPath(rel);
    if (what.kind === 'raw') raws.push(what.date);
    else if (what.kind === 'node') nodes.push(nodeKey(what.period));
  }
  return { raws, nodes };
}
