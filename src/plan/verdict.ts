// What the planner decides about one node, from that node's own inputs: its raw log or its
// children as this cycle leaves them, its record, today and the options. The planner
// (planner.ts) gathers these decisions, applies the per-cycle limits and keeps them between the
// cycles of a run, re-deciding only the nodes whose inputs changed.
import type { CompactionConfig } from '../config/config.js';
import type { LocalDate } from '../time/calendar.js';
import { hashParts } from '../tree/hash.js';
import { nodeKey, nodeRelPath, periodId, rawRelPath, type NodeKey, type NodeLevel, type NodeStatus, type Period } from '../tree/layout.js';
import { dayFiles, namesGone } from '../tree/raw-day.js';
import { isHandEdited, type NodeInfo, type RawLogInfo } from '../tree/snapshot.js';
import { calendarStatus } from './lifecycle.js';
import type { ActionKind, Attention, DeferredNode, NodeAction } from './plan.js';

export interface PlanOptions {
  limits: Readonly<Record<NodeLevel, number>>;
  graceDays: number;
  /** The settings ROOT is built with (rootSettingsOf): when they change, ROOT is rebuilt that day. */
  rootSettings: string;
  /** Set when a model is configured: which extractive summaries are due for a model pass. */
  llm?: LlmPlanOptions;
}

export interface LlmPlanOptions {
  /** Levels the model writes. */
  levels: ReadonlySet<NodeLevel>;
  /** False while the endpoint is backing off: no model passes are planned. */
  upgrade: boolean;
  /** Fixed nodes too (`hipo compact --resummarize`, asked for by the user). */
  resummarize: boolean;
  /** Nodes whose current input the model already failed on: node key → that source hash. */
  failed: ReadonlyMap<NodeKey, string>;
  /**
   * Nodes written extractively because the model was not asked or not reached (call limit,
   * endpoint down): node key → that source hash. Fixed ones get their pass too.
   */
  owed: ReadonlyMap<NodeKey, string>;
}

/** What a node will look like once this cycle's actions are applied. */
export interface After {
  readonly changing: boolean;
  readonly pending: boolean;
  readonly status: NodeStatus | null;
}

/** A node to generate, if the level's per-cycle limit lets it through this cycle. */
export interface Candidate {
  readonly kind: Exclude<ActionKind, 'fix'>;
  readonly period: Period;
  readonly status: NodeStatus;
  readonly reason: string;
  readonly children: Period[];
  /** A model pass: scheduled after the level's real changes. */
  readonly pass: boolean;
  /** The node's status now (a deferred candidate keeps it). */
  readonly current: NodeStatus | null;
}

/**
 * cand — generate (limited per cycle); fix — status only; remove — delete a node nothing backs
 * any more (not limited either); wait — deferred until its children are done; keep — nothing to
 * do (`up`: counted as up to date; `flag`: a human should look; `vanished`: no node and nothing
 * to make it from).
 */
export type Verdict =
  | { readonly t: 'cand'; readonly c: Candidate }
  | { readonly t: 'fix'; readonly action: NodeAction }
  | { readonly t: 'remove'; readonly action: NodeAction }
  | { readonly t: 'wait'; readonly deferred: DeferredNode; readonly current: NodeStatus | null }
  | { readonly t: 'keep'; readonly up: boolean; readonly flag: Attention | null; readonly vanished: boolean };

const UP: Verdict = { t: 'keep', up: true, flag: null, vanished: false };
const NOTHING: Verdict = { t: 'keep', up: false, flag: null, vanished: false };
const VANISHED: Verdict = { t: 'keep', up: false, flag: null, vanished: true };

/** The node's state after this cycle, given its verdict and whether its candidate was scheduled. */
export function afterOf(v: Verdict, node: NodeInfo | undefined, scheduled: boolean): After | undefined {
  switch (v.t) {
    case 'cand':
      return scheduled ? { changing: true, pending: false, status: v.c.status } : { changing: false, pending: true, status: v.c.current };
    case 'fix':
      return { changing: false, pending: false, status: 'fixed' };
    case 'remove':
      // Changing: ROOT, made from the months, is rebuilt without it.
      return { changing: true, pending: false, status: null };
    case 'wait':
      return { changing: false, pending: true, status: v.current };
    case 'keep':
      return v.vanished
        ? { changing: false, pending: false, status: null }
        : node
          ? { changing: false, pending: false, status: node.status }
          : undefined;
  }
}

export function sameAfter(a: After | undefined, b: After | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.changing === b.changing && a.pending === b.pending && a.status === b.status);
}

const cand = (
  kind: Candidate['kind'],
  period: Period,
  status: NodeStatus,
  reason: string,
  children: Period[],
  node: NodeInfo | undefined,
  pass = false,
): Verdict => ({
  t: 'cand',
  c: { kind, period, status, reason, children, pass, current: node?.status ?? null },
});
const fix = (p: Period, reason: string, children: Period[]): Verdict => ({
  t: 'fix',
  action: { kind: 'fix', period: p, relPath: nodeRelPath(p), status: 'fixed', reason, children },
});
const flag = (node: NodeInfo, message: string): Verdict => ({
  t: 'keep',
  up: false,
  flag: { relPath: node.relPath, message },
  vanished: false,
});
// Not a choice, as a hand edit is: the node stays out of date until a person repairs it, so the
// run is a failure (exit 1, README "Exit codes").
const NOT_REWRITTEN = (node: NodeInfo): Verdict => ({
  t: 'keep',
  up: false,
  flag: {
    relPath: node.relPath,
    message: `not rewritten: ${node.problem}; repair the frontmatter or delete the file to have it regenerated`,
    blocked: true,
  },
  vanished: false,
});

/**
 * A weekly or monthly node whose period has no day left: every raw log and daily node of it was
 * deleted, so nothing backs what it says. One hipo wrote goes too (a hand edit of a tentative one
 * is copied to `edits/` first, by the executor); a fixed one edited by hand is kept and reported,
 * as hand edits are; one hipo did not write (no source hash), or cannot read, is left alone.
 */
function emptied(p: Period, node: NodeInfo): Verdict {
  if (node.problem || node.sourceHash === null || node.recordedBodyHash === null || node.status === null) return NOTHING;
  if (node.status === 'fixed' && isHandEdited(node))
    return flag(
      node,
      'every day of its period is gone, but this fixed node was edited by hand; not removed (delete it to forget the period)',
    );
  return {
    t: 'remove',
    action: {
      kind: 'remove',
      period: p,
      relPath: nodeRelPath(p),
      status: 'removed',
      reason: 'every day of its period is gone (raw logs and daily nodes deleted)',
      children: [],
    },
  };
}

/** The model still owes this node the pass it could not make when the node was written. */
function owed(opts: PlanOptions, node: NodeInfo): boolean {
  return node.sourceHash !== null && opts.llm?.owed.get(nodeKey(node.period)) === node.sourceHash;
}

/** An extractive summary a model pass would replace (never a copy, concat or hand edit). */
function dueForModel(opts: PlanOptions, node: NodeInfo, status: NodeStatus): boolean {
  const llm = opts.llm;
  if (!llm?.upgrade || !llm.levels.has(node.period.level) || node.summarizer !== 'extractive') return false;
  if (node.problem || isHandEdited(node) || node.status === null) return false;
  if (node.status === 'fixed' && !llm.resummarize && !owed(opts, node)) return false;
  if (!llm.resummarize && node.sourceHash !== null && llm.failed.get(nodeKey(node.period)) === node.sourceHash) return false;
  return status === 'fixed' || status === 'tentative';
}

function modelPass(opts: PlanOptions, node: NodeInfo, status: NodeStatus, children: Period[]): Verdict {
  const reason =
    node.status !== 'fixed'
      ? 'extractive summary (fallback or no model before); model pass'
      : owed(opts, node)
        ? 'extractive summary (the model was not asked or not reached); model pass owed'
        : 'extractive summary; model pass asked for (--resummarize)';
  return cand('resummarize', node.period, status, reason, children, node, true);
}

/** A day with a usable raw log or a daily node: raw log → daily node. */
export function dailyVerdict(
  p: Period & { level: 'daily' },
  node: NodeInfo | undefined,
  raw: RawLogInfo | undefined,
  today: LocalDate,
  opts: PlanOptions,
): Verdict {
  const want = calendarStatus(p, today, opts.graceDays);
  if (!raw?.usable) {
    // The node outlives its raw log (deleted or unreadable): keep it as it is.
    if (node && !node.problem && node.status === 'tentative' && want === 'fixed')
      return fix(p, 'date has passed (raw log missing or unusable; node kept as is)', []);
    if (!node) return VANISHED;
    // Made from a raw log that is gone (an unreadable one is reported by the scan): hipo never
    // deletes a node, so a day someone meant to forget, or moved to another date, stays in its
    // week, month and ROOT until a person deletes the node too. Said, so that they can.
    if (!raw && node.sourceHash !== null && !node.problem)
      return flag(
        node,
        `the raw log of its day (${rawRelPath(p.date)}) is gone; the node is kept (hipo never deletes one) ` +
          'and stays in its week, month and ROOT: delete it too if the day should be forgotten',
      );
    return NOTHING;
  }
  if (!node) return cand('create', p, want, 'new raw log', [], node);
  if (node.problem) return NOT_REWRITTEN(node);
  const changed = node.sourceHash !== raw.hash;
  // A file of the day renamed keeps its content's hash, not the names the node records and links.
  const renamed = !changed && namesGone(node.sourceFiles, dayFiles(raw));
  if (node.status === 'fixed') {
    if (!changed && !renamed && dueForModel(opts, node, 'fixed')) return modelPass(opts, node, 'fixed', []);
    if (node.sourceHash === null || (!changed && !renamed)) return UP;
    if (isHandEdited(node)) {
      // A day of several files names them all: the file that changed may be a note, not the main log.
      const files = dayFiles(raw);
      const what = files.length > 1 ? `the raw logs of its day (${files.join(', ')})` : `raw log ${raw.relPath}`;
      return flag(
        node,
        `${what} ${changed ? 'changed' : files.length > 1 ? 'were renamed' : 'was renamed'} after this fixed node was edited by hand; ` +
          'not rewritten (delete the node to rebuild it)',
      );
    }
    return cand(
      'amend',
      p,
      'fixed',
      changed ? 'raw log changed after the day was fixed (late entry)' : 'raw log renamed: the node names a file that is gone',
      [],
      node,
    );
  }
  if (node.status === null || changed || renamed) {
    return cand(
      'regenerate',
      p,
      want,
      node.status === null
        ? 'node has no tentative/fixed status (placeholder or foreign node)'
        : changed
          ? 'raw log changed'
          : 'raw log renamed: the node names a file that is gone',
      [],
      node,
    );
  }
  // A day about to be fixed gets its model pass first; after that, only one it is owed or --resummarize.
  if (dueForModel(opts, node, want)) return modelPass(opts, node, want, []);
  if (want === 'fixed') return fix(p, 'date has passed', []);
  return UP;
}

/** What the planner knows of a child this cycle: its state after the cycle and its record. */
export interface ChildView {
  after(c: Period): After | undefined;
  node(c: Period): NodeInfo | undefined;
}

/** A weekly or monthly node: its children (as this cycle leaves them) → the node. */
export function parentVerdict(
  p: Period,
  children: Period[],
  node: NodeInfo | undefined,
  view: ChildView,
  today: LocalDate,
  opts: PlanOptions,
): Verdict {
  if (children.length === 0) return node ? emptied(p, node) : VANISHED;
  const states = children.map((c) => ({ c, a: view.after(c) }));
  const pending = states.filter((s) => !s.a || s.a.pending).map((s) => periodId(s.c));
  const changing = states.some((s) => s.a?.changing);
  const allFixed = states.every((s) => s.a?.status === 'fixed');
  const want = calendarStatus(p, today, opts.graceDays);
  const target: NodeStatus = want === 'fixed' && allFixed && pending.length === 0 ? 'fixed' : 'tentative';
  const waitFor = (kind: ActionKind, why: string): Verdict => ({
    t: 'wait',
    deferred: { period: p, relPath: nodeRelPath(p), kind, reason: `${why}; waiting for ${pending.join(', ')}` },
    current: node?.status ?? null,
  });
  if (!node) return pending.length ? waitFor('create', 'new period') : cand('create', p, target, 'new period', children, node);
  if (node.problem) return NOT_REWRITTEN(node);
  const stale = changing || node.sourceHash !== childrenHashBy(children, (c) => view.node(c));
  const why = changing ? `${changedNames(states)} changed` : 'its sources changed';
  if (node.status === 'fixed') {
    if (!stale && pending.length === 0 && dueForModel(opts, node, 'fixed')) return modelPass(opts, node, 'fixed', children);
    if (!stale || node.sourceHash === null) return UP;
    if (isHandEdited(node))
      return flag(node, `${why} after this fixed node was edited by hand; not rewritten (delete the node to rebuild it)`);
    if (pending.length) return waitFor('amend', `${why} after the period was fixed`);
    return cand('amend', p, 'fixed', `${why} after the period was fixed (late input)`, children, node);
  }
  if (node.status === null || stale) {
    const reason = node.status === null ? 'node has no tentative/fixed status (placeholder or foreign node)' : why;
    return pending.length ? waitFor('regenerate', reason) : cand('regenerate', p, target, reason, children, node);
  }
  if (pending.length === 0 && dueForModel(opts, node, target)) return modelPass(opts, node, target, children);
  if (target === 'fixed')
    return fix(
      p,
      p.level === 'weekly'
        ? 'week ended and grace period passed; all its days are fixed'
        : 'month ended and grace period passed; all its parts are fixed',
      children,
    );
  return UP;
}

export const ROOT_PERIOD: Period = { level: 'root' };

/** ROOT: what it needs from the months, and whether it is current. */
export function rootVerdict(
  monthsAsc: readonly Period[],
  view: ChildView,
  root: NodeInfo | undefined,
  today: LocalDate,
  opts: PlanOptions,
): Verdict | null {
  const monthsWithNodes = monthsAsc.filter((p) => view.node(p) || view.after(p)?.changing);
  const pendingMonths: string[] = [];
  for (let i = monthsAsc.length - 1; i >= 0; i--) if (view.after(monthsAsc[i]!)?.pending) pendingMonths.push(periodId(monthsAsc[i]!));
  const waiting = (kind: Candidate['kind'], reason: string): Verdict => ({
    t: 'wait',
    deferred: {
      period: ROOT_PERIOD,
      relPath: nodeRelPath(ROOT_PERIOD),
      kind,
      reason: `${reason}; waiting for ${pendingMonths.join(', ')}`,
    },
    current: root?.status ?? null,
  });
  if (monthsWithNodes.length === 0) {
    if (pendingMonths.length) return waiting(root ? 'regenerate' : 'create', root ? 'monthly nodes changed' : 'no ROOT.md yet');
    // Every month is gone: a ROOT hipo made from them is rebuilt empty, so that it no longer
    // shows them; one it did not make is left as it is.
    if (!root || root.sourceHash === null || root.status === null || root.problem) return null;
  }
  const changed = monthsWithNodes.filter((p) => view.after(p)?.changing);
  const stale =
    !root ||
    root.status === null ||
    changed.length > 0 ||
    root.sourceHash !==
      rootHash(
        today,
        childrenHashBy(monthsWithNodes, (c) => view.node(c)),
        opts.rootSettings,
      );
  const pass = !stale && root !== undefined && dueForModel(opts, root, 'tentative');
  if (!stale && !pass) return UP;
  const kind = pass ? 'resummarize' : root ? 'regenerate' : 'create';
  const reason = pass
    ? 'extractive ROOT (fallback or no model before); model recompaction'
    : !root
      ? 'no ROOT.md yet'
      : changed.length
        ? `${changed.map(periodId).join(', ')} changed`
        : root.sourceHash?.length
          ? 'monthly nodes, the date (topic ages) or ROOT settings changed'
          : 'ROOT.md was not written by hipo';
  if (pendingMonths.length) return waiting(kind, reason);
  return cand(kind, ROOT_PERIOD, 'tentative', reason, monthsWithNodes, root);
}

// Parents' hashes are asked for again and again while nothing below them changes: they are
// looked up by a signature string instead of recomputed.
const hashMemo = new Map<string, string>();

function childrenHashBy(children: readonly Period[], node: (c: Period) => NodeInfo | undefined): string {
  const parts = children.map((c) => `${periodId(c)}:${node(c)?.bodyHash ?? 'missing'}`);
  const sig = parts.join('|');
  let h = hashMemo.get(sig);
  if (h === undefined) {
    if (hashMemo.size > 50_000) hashMemo.clear();
    h = hashParts(parts);
    hashMemo.set(sig, h);
  }
  return h;
}

/** The source hash of a parent node: its children's bodies as they are on disk. */
export function childrenHash(children: readonly Period[], nodes: ReadonlyMap<NodeKey, NodeInfo>): string {
  return childrenHashBy(children, (c) => nodes.get(nodeKey(c)));
}

/**
 * ROOT depends on the monthly nodes, on today's date (topic ages, Active Context window) and on
 * the settings it is built with (`settings`: rootSettingsOf).
 */
export function rootSourceHash(
  today: LocalDate,
  months: readonly Period[],
  nodes: ReadonlyMap<NodeKey, NodeInfo>,
  settings: string,
): string {
  return rootHash(today, childrenHash(months, nodes), settings);
}

function rootHash(today: LocalDate, monthsHash: string, settings: string): string {
  return hashParts([today, monthsHash, settings]);
}

/**
 * What ROOT is built with besides the months and the date: its size cap and shares, the
 * tokenizer that counts them, its windows and staleness marks, what is left out or redacted, and
 * its template. A change to one is seen the same day, not when the date next moves. (Settings of
 * the other nodes apply to the nodes written from then on: a fixed node is not rewritten for them.)
 */
export function rootSettingsOf(compaction: CompactionConfig, redactPatterns: readonly string[], template: string): string {
  const c = compaction;
  return hashParts([
    JSON.stringify([
      c.rootMaxTokens,
      Object.entries(c.rootShares).sort(),
      c.tokenizer,
      c.activeContextDays,
      c.referenceStaleDays,
      c.projectStaleDays,
      c.ephemeralMarkers,
      redactPatterns,
    ]),
    template,
  ]);
}

function changedNames(states: { c: Period; a: After | undefined }[]): string {
  const names = states.filter((s) => s.a?.changing).map((s) => periodId(s.c));
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}
