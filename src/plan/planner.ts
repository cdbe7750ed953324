// The cycle planner: a pure function of (the tree as read, today, config) → CyclePlan.
// It walks the levels bottom-up, so a parent knows which of its children this cycle will
// rewrite, which are left pending, and what status each will have afterwards.
import type { CompactionConfig } from '../config/config.js';
import type { LocalDate } from '../time/calendar.js';
import { hashParts } from '../tree/hash.js';
import { nodeKey, nodeRelPath, periodId, type NodeKey, type NodeLevel, type NodeStatus, type Period } from '../tree/layout.js';
import { isHandEdited, type NodeInfo, type TreeSnapshot } from '../tree/snapshot.js';
import { dailyPeriod, monthChildren, monthlyPeriod, monthsOf, weekChildren, weeklyPeriod, weeksOf } from './children.js';
import { calendarStatus } from './lifecycle.js';
import type { ActionKind, Attention, CyclePlan, DeferredNode, NodeAction } from './plan.js';

export interface PlanOptions {
  limits: CompactionConfig['limits'];
  graceDays: number;
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
}

/** What a node will look like once this cycle's actions are applied. */
interface After {
  changing: boolean;
  pending: boolean;
  status: NodeStatus | null;
}

interface Candidate {
  kind: Exclude<ActionKind, 'fix'>;
  period: Period;
  status: NodeStatus;
  reason: string;
  children: Period[];
}

const ROOT_PERIOD: Period = { level: 'root' };

// Catch-up re-plans the whole tree once per cycle; most parents' children have not changed, so
// their hashes are looked up by a signature string instead of recomputed.
const hashMemo = new Map<string, string>();

function hashOf(parts: string[]): string {
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
  return hashOf(children.map((c) => `${periodId(c)}:${nodes.get(nodeKey(c))?.bodyHash ?? 'missing'}`));
}

/** ROOT depends on the monthly nodes and on today's date (topic ages, Active Context window). */
export function rootSourceHash(today: LocalDate, months: readonly Period[], nodes: ReadonlyMap<NodeKey, NodeInfo>): string {
  return hashParts([today, childrenHash(months, nodes)]);
}

/**
 * Nodes by level and period id. Lookups use the id strings already held by the snapshot and the
 * memoized calendar instead of building `level:id` keys, which dominated planning time.
 */
class Index {
  private readonly byLevel: Record<NodeLevel, Map<string, NodeInfo>> = { daily: new Map(), weekly: new Map(), monthly: new Map(), root: new Map() };
  private readonly after: Record<NodeLevel, Map<string, After>> = { daily: new Map(), weekly: new Map(), monthly: new Map(), root: new Map() };

  constructor(nodes: Iterable<NodeInfo>) {
    for (const n of nodes) this.byLevel[n.period.level].set(periodId(n.period), n);
  }

  node(p: Period): NodeInfo | undefined {
    return this.byLevel[p.level].get(periodId(p));
  }

  periods(level: NodeLevel): Period[] {
    return [...this.byLevel[level].values()].map((n) => n.period);
  }

  /** The node after this cycle: as planned, or as it is when the cycle does not touch it. */
  afterOf(p: Period): After | undefined {
    const a = this.after[p.level].get(periodId(p));
    if (a) return a;
    const n = this.node(p);
    return n ? { changing: false, pending: false, status: n.status } : undefined;
  }

  /** Whether this cycle has already decided something about the node. */
  decided(p: Period): boolean {
    return this.after[p.level].has(periodId(p));
  }

  setAfter(p: Period, a: After): void {
    this.after[p.level].set(periodId(p), a);
  }

  childrenHash(children: readonly Period[]): string {
    return hashOf(children.map((c) => `${periodId(c)}:${this.node(c)?.bodyHash ?? 'missing'}`));
  }
}

/**
 * Fixed parents found up to date, by their node record, with their children's records. A
 * resident process (the daemon) hands the planner the same record objects for files that did
 * not change, so a settled week or month of the past is recognised by identity, without its
 * children's hash: planning then costs little more per year of history. A changed file always
 * gets a new record, so a stale entry can only miss, never mislead.
 */
const settledParents = new WeakMap<NodeInfo, readonly (NodeInfo | undefined)[]>();

export function planCycle(snapshot: TreeSnapshot, today: LocalDate, opts: PlanOptions): CyclePlan {
  const { raws } = snapshot;
  const ix = new Index(snapshot.nodes.values());
  const actions: NodeAction[] = [];
  const deferred: DeferredNode[] = [];
  const attention: Attention[] = [];
  const upToDate: Record<NodeLevel, number> = { daily: 0, weekly: 0, monthly: 0, root: 0 };

  const days = new Set<LocalDate>();
  for (const [date, raw] of raws) if (raw.usable) days.add(date);
  for (const p of ix.periods('daily')) if (p.level === 'daily') days.add(p.date);

  const settle = (p: Period, node: NodeInfo | undefined): void => {
    if (!node) ix.setAfter(p, { changing: false, pending: false, status: null });
  };
  const flag = (node: NodeInfo, message: string): void => {
    attention.push({ relPath: node.relPath, message });
  };

  /** Takes the `limit` most recent candidates of a level; the rest wait for a later cycle. */
  const schedule = (level: NodeLevel, candidates: Candidate[]): void => {
    const limit = opts.limits[level];
    candidates.forEach((c, i) => {
      if (i < limit) {
        actions.push({ kind: c.kind, period: c.period, relPath: nodeRelPath(c.period), status: c.status, reason: c.reason, children: c.children });
        ix.setAfter(c.period, { changing: true, pending: false, status: c.status });
      } else {
        deferred.push({ period: c.period, relPath: nodeRelPath(c.period), kind: c.kind, reason: `per-cycle limit (${level}: ${limit}); ${c.reason}` });
        ix.setAfter(c.period, { changing: false, pending: true, status: ix.node(c.period)?.status ?? null });
      }
    });
  };

  const fix = (p: Period, reason: string, children: Period[]): void => {
    actions.push({ kind: 'fix', period: p, relPath: nodeRelPath(p), status: 'fixed', reason, children });
    ix.setAfter(p, { changing: false, pending: false, status: 'fixed' });
  };

  /** An extractive summary a model pass would replace (never a copy, concat or hand edit). */
  const dueForModel = (node: NodeInfo, status: NodeStatus): boolean => {
    const llm = opts.llm;
    if (!llm || !llm.upgrade || !llm.levels.has(node.period.level) || node.summarizer !== 'extractive') return false;
    if (node.problem || isHandEdited(node) || node.status === null) return false;
    if (node.status === 'fixed' && !llm.resummarize) return false;
    if (!llm.resummarize && node.sourceHash !== null && llm.failed.get(nodeKey(node.period)) === node.sourceHash) return false;
    return status === 'fixed' || status === 'tentative';
  };
  const modelPass = (node: NodeInfo, status: NodeStatus, children: Period[]): Candidate => ({
    kind: 'resummarize',
    period: node.period,
    status,
    reason: node.status === 'fixed' ? 'extractive summary; model pass asked for (--resummarize)' : 'extractive summary (fallback or no model before); model pass',
    children,
  });

  // ---- daily: raw log → daily node ----------------------------------------------------
  const dailyCandidates: Candidate[] = [];
  const dailyPasses: Candidate[] = [];
  for (const date of [...days].sort().reverse()) {
    const p = dailyPeriod(date);
    const node = ix.node(p);
    const raw = raws.get(date);
    const want = calendarStatus(p, today, opts.graceDays);
    if (!raw || !raw.usable) {
      // The node outlives its raw log (deleted or unreadable): keep it as it is.
      if (node && !node.problem && node.status === 'tentative' && want === 'fixed') fix(p, 'date has passed (raw log missing or unusable; node kept as is)', []);
      else settle(p, node);
      continue;
    }
    if (!node) {
      dailyCandidates.push({ kind: 'create', period: p, status: want, reason: 'new raw log', children: [] });
    } else if (node.problem) {
      flag(node, `not rewritten: ${node.problem}; repair the frontmatter or delete the file to have it regenerated`);
    } else if (node.status === 'fixed') {
      if (node.sourceHash === raw.hash && dueForModel(node, 'fixed')) {
        dailyPasses.push(modelPass(node, 'fixed', []));
      } else if (node.sourceHash === null || node.sourceHash === raw.hash) {
        upToDate.daily++;
      } else if (isHandEdited(node)) {
        flag(node, `raw log ${raw.relPath} changed after this fixed node was edited by hand; not rewritten (delete the node to rebuild it)`);
      } else {
        dailyCandidates.push({ kind: 'amend', period: p, status: 'fixed', reason: 'raw log changed after the day was fixed (late entry)', children: [] });
      }
    } else if (node.status === null || node.sourceHash !== raw.hash) {
      dailyCandidates.push({ kind: 'regenerate', period: p, status: want, reason: node.status === null ? 'node has no tentative/fixed status (placeholder or foreign node)' : 'raw log changed', children: [] });
    } else if (dueForModel(node, want)) {
      // A day about to be fixed gets its model pass first; after that, only --resummarize.
      dailyPasses.push(modelPass(node, want, []));
    } else if (want === 'fixed') {
      fix(p, 'date has passed', []);
    } else {
      upToDate.daily++;
    }
  }
  // Model passes come after real changes: they only improve a node that is already current.
  schedule('daily', [...dailyCandidates, ...dailyPasses]);

  // ---- weekly and monthly: children → parent -----------------------------------------------
  const planParent = (level: 'weekly' | 'monthly', periods: Period[], childrenOf: (p: Period) => Period[]): void => {
    const candidates: Candidate[] = [];
    const passes: Candidate[] = [];
    for (const p of periods) {
      const children = childrenOf(p);
      const node = ix.node(p);
      if (children.length === 0) {
        settle(p, node);
        continue;
      }
      const settled = node && !opts.llm?.resummarize ? settledParents.get(node) : undefined;
      if (settled && settled.length === children.length && children.every((c, i) => settled[i] === ix.node(c) && !ix.decided(c))) {
        upToDate[level]++;
        continue;
      }
      const states = children.map((c) => ({ c, a: ix.afterOf(c) }));
      const pending = states.filter((s) => !s.a || s.a.pending).map((s) => periodId(s.c));
      const changing = states.some((s) => s.a?.changing);
      const allFixed = states.every((s) => s.a?.status === 'fixed');
      const want = calendarStatus(p, today, opts.graceDays);
      const target: NodeStatus = want === 'fixed' && allFixed && pending.length === 0 ? 'fixed' : 'tentative';
      const waitFor = (kind: ActionKind, why: string): void => {
        deferred.push({ period: p, relPath: nodeRelPath(p), kind, reason: `${why}; waiting for ${pending.join(', ')}` });
        ix.setAfter(p, { changing: false, pending: true, status: node?.status ?? null });
      };
      if (!node) {
        if (pending.length) waitFor('create', 'new period');
        else candidates.push({ kind: 'create', period: p, status: target, reason: 'new period', children });
        continue;
      }
      if (node.problem) {
        flag(node, `not rewritten: ${node.problem}; repair the frontmatter or delete the file to have it regenerated`);
        continue;
      }
      const stale = changing || node.sourceHash !== ix.childrenHash(children);
      const why = changing ? `${changedNames(states)} changed` : 'its sources changed';
      if (node.status === 'fixed') {
        if (!stale && pending.length === 0 && dueForModel(node, 'fixed')) {
          passes.push(modelPass(node, 'fixed', children));
        } else if (!stale || node.sourceHash === null) {
          upToDate[level]++;
          if (!stale && pending.length === 0 && !changing) settledParents.set(node, children.map((c) => ix.node(c)));
        } else if (isHandEdited(node)) {
          flag(node, `${why} after this fixed node was edited by hand; not rewritten (delete the node to rebuild it)`);
        } else if (pending.length) {
          waitFor('amend', `${why} after the period was fixed`);
        } else {
          candidates.push({ kind: 'amend', period: p, status: 'fixed', reason: `${why} after the period was fixed (late input)`, children });
        }
        continue;
      }
      if (node.status === null || stale) {
        const reason = node.status === null ? 'node has no tentative/fixed status (placeholder or foreign node)' : why;
        if (pending.length) waitFor('regenerate', reason);
        else candidates.push({ kind: 'regenerate', period: p, status: target, reason, children });
      } else if (pending.length === 0 && dueForModel(node, target)) {
        passes.push(modelPass(node, target, children));
      } else if (target === 'fixed') {
        fix(p, level === 'weekly' ? 'week ended and grace period passed; all its days are fixed' : 'month ended and grace period passed; all its parts are fixed', children);
      } else {
        upToDate[level]++;
      }
    }
    schedule(level, [...candidates, ...passes]);
  };

  const weeks = new Set<string>(weeksOf(days));
  for (const p of ix.periods('weekly')) if (p.level === 'weekly') weeks.add(p.week);
  planParent('weekly', [...weeks].sort().reverse().map((w) => weeklyPeriod(w as never)), (p) => (p.level === 'weekly' ? weekChildren(p.week, days) : []));
  const months = new Set<string>(monthsOf(days));
  for (const p of ix.periods('monthly')) if (p.level === 'monthly') months.add(p.month);
  const monthPeriods = [...months].sort().reverse().map((m) => monthlyPeriod(m as never));
  planParent('monthly', monthPeriods, (p) => (p.level === 'monthly' ? monthChildren(p.month, days) : []));

  // ---- root: monthly nodes → ROOT.md --------------------------------------------------------
  const monthsWithNodes = [...monthPeriods].reverse().filter((p) => ix.node(p) || ix.afterOf(p)?.changing);
  const pendingMonths = monthPeriods.filter((p) => ix.afterOf(p)?.pending).map(periodId);
  const root = ix.node(ROOT_PERIOD);
  if (monthsWithNodes.length > 0) {
    const changed = monthsWithNodes.filter((p) => ix.afterOf(p)?.changing);
    const stale = !root || root.status === null || changed.length > 0 || root.sourceHash !== hashParts([today, ix.childrenHash(monthsWithNodes)]);
    const pass = !stale && root !== undefined && dueForModel(root, 'tentative');
    if (stale || pass) {
      const kind = pass ? 'resummarize' : root ? 'regenerate' : 'create';
      const reason = pass ? 'extractive ROOT (fallback or no model before); model recompaction' : !root ? 'no ROOT.md yet' : changed.length ? `${changed.map(periodId).join(', ')} changed` : root.sourceHash?.length ? 'monthly nodes or the date changed (topic ages)' : 'ROOT.md was not written by hipo';
      if (pendingMonths.length) deferred.push({ period: ROOT_PERIOD, relPath: nodeRelPath(ROOT_PERIOD), kind, reason: `${reason}; waiting for ${pendingMonths.join(', ')}` });
      else schedule('root', [{ kind, period: ROOT_PERIOD, status: 'tentative', reason, children: monthsWithNodes }]);
    } else {
      upToDate.root++;
    }
  } else if (pendingMonths.length) {
    deferred.push({ period: ROOT_PERIOD, relPath: nodeRelPath(ROOT_PERIOD), kind: root ? 'regenerate' : 'create', reason: `${root ? 'monthly nodes changed' : 'no ROOT.md yet'}; waiting for ${pendingMonths.join(', ')}` });
  }

  return { today, actions, deferred, attention, upToDate };
}

function changedNames(states: { c: Period; a: After | undefined }[]): string {
  const names = states.filter((s) => s.a?.changing).map((s) => periodId(s.c));
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}
