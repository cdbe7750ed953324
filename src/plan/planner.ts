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

/** The source hash of a parent node: its children's bodies as they are on disk. */
export function childrenHash(children: readonly Period[], nodes: ReadonlyMap<NodeKey, NodeInfo>): string {
  const parts = children.map((c) => `${periodId(c)}:${nodes.get(nodeKey(c))?.bodyHash ?? 'missing'}`);
  const sig = parts.join('|');
  let h = hashMemo.get(sig);
  if (h === undefined) {
    if (hashMemo.size > 50_000) hashMemo.clear();
    h = hashParts(parts);
    hashMemo.set(sig, h);
  }
  return h;
}

/** ROOT depends on the monthly nodes and on today's date (topic ages, Active Context window). */
export function rootSourceHash(today: LocalDate, months: readonly Period[], nodes: ReadonlyMap<NodeKey, NodeInfo>): string {
  return hashParts([today, childrenHash(months, nodes)]);
}

export function planCycle(snapshot: TreeSnapshot, today: LocalDate, opts: PlanOptions): CyclePlan {
  const { raws, nodes } = snapshot;
  const after = new Map<NodeKey, After>();
  const actions: NodeAction[] = [];
  const deferred: DeferredNode[] = [];
  const attention: Attention[] = [];
  const upToDate: Record<NodeLevel, number> = { daily: 0, weekly: 0, monthly: 0, root: 0 };

  const days = new Set<LocalDate>();
  for (const [date, raw] of raws) if (raw.usable) days.add(date);
  for (const n of nodes.values()) if (n.period.level === 'daily') days.add(n.period.date);

  const settle = (p: Period, node: NodeInfo | undefined): void => {
    after.set(nodeKey(p), { changing: false, pending: false, status: node?.status ?? null });
  };
  const flag = (node: NodeInfo, message: string): void => {
    attention.push({ relPath: node.relPath, message });
  };

  /** Takes the `limit` most recent candidates of a level; the rest wait for a later cycle. */
  const schedule = (level: NodeLevel, candidates: Candidate[]): void => {
    const limit = opts.limits[level];
    candidates.forEach((c, i) => {
      const key = nodeKey(c.period);
      if (i < limit) {
        actions.push({ kind: c.kind, period: c.period, relPath: nodeRelPath(c.period), status: c.status, reason: c.reason, children: c.children });
        after.set(key, { changing: true, pending: false, status: c.status });
      } else {
        deferred.push({ period: c.period, relPath: nodeRelPath(c.period), kind: c.kind, reason: `per-cycle limit (${level}: ${limit}); ${c.reason}` });
        after.set(key, { changing: false, pending: true, status: nodes.get(key)?.status ?? null });
      }
    });
  };

  const fix = (p: Period, reason: string, children: Period[]): void => {
    actions.push({ kind: 'fix', period: p, relPath: nodeRelPath(p), status: 'fixed', reason, children });
    after.set(nodeKey(p), { changing: false, pending: false, status: 'fixed' });
  };

  // ---- daily: raw log → daily node ----------------------------------------------------
  const dailyCandidates: Candidate[] = [];
  for (const date of [...days].sort().reverse()) {
    const p = dailyPeriod(date);
    const node = nodes.get(nodeKey(p));
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
      settle(p, node);
    } else if (node.status === 'fixed') {
      if (node.sourceHash === null || node.sourceHash === raw.hash) {
        upToDate.daily++;
        settle(p, node);
      } else if (isHandEdited(node)) {
        flag(node, `raw log ${raw.relPath} changed after this fixed node was edited by hand; not rewritten (delete the node to rebuild it)`);
        settle(p, node);
      } else {
        dailyCandidates.push({ kind: 'amend', period: p, status: 'fixed', reason: 'raw log changed after the day was fixed (late entry)', children: [] });
      }
    } else if (node.status === null || node.sourceHash !== raw.hash) {
      dailyCandidates.push({ kind: 'regenerate', period: p, status: want, reason: node.status === null ? 'node has no tentative/fixed status (placeholder or foreign node)' : 'raw log changed', children: [] });
    } else if (want === 'fixed') {
      fix(p, 'date has passed', []);
    } else {
      upToDate.daily++;
      settle(p, node);
    }
  }
  schedule('daily', dailyCandidates);

  // ---- weekly and monthly: children → parent -----------------------------------------------
  const planParent = (level: 'weekly' | 'monthly', periods: Period[], childrenOf: (p: Period) => Period[]): void => {
    const candidates: Candidate[] = [];
    for (const p of periods) {
      const children = childrenOf(p);
      const node = nodes.get(nodeKey(p));
      if (children.length === 0) {
        settle(p, node);
        continue;
      }
      const states = children.map((c) => ({ c, a: after.get(nodeKey(c)) }));
      const pending = states.filter((s) => !s.a || s.a.pending).map((s) => periodId(s.c));
      const changing = states.some((s) => s.a?.changing);
      const allFixed = states.every((s) => s.a?.status === 'fixed');
      const want = calendarStatus(p, today, opts.graceDays);
      const target: NodeStatus = want === 'fixed' && allFixed && pending.length === 0 ? 'fixed' : 'tentative';
      const waitFor = (kind: ActionKind, why: string): void => {
        deferred.push({ period: p, relPath: nodeRelPath(p), kind, reason: `${why}; waiting for ${pending.join(', ')}` });
        after.set(nodeKey(p), { changing: false, pending: true, status: node?.status ?? null });
      };
      if (!node) {
        if (pending.length) waitFor('create', 'new period');
        else candidates.push({ kind: 'create', period: p, status: target, reason: 'new period', children });
        continue;
      }
      if (node.problem) {
        flag(node, `not rewritten: ${node.problem}; repair the frontmatter or delete the file to have it regenerated`);
        settle(p, node);
        continue;
      }
      const stale = changing || node.sourceHash !== childrenHash(children, nodes);
      const why = changing ? `${changedNames(states)} changed` : 'its sources changed';
      if (node.status === 'fixed') {
        if (!stale || node.sourceHash === null) {
          upToDate[level]++;
          settle(p, node);
        } else if (isHandEdited(node)) {
          flag(node, `${why} after this fixed node was edited by hand; not rewritten (delete the node to rebuild it)`);
          settle(p, node);
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
      } else if (target === 'fixed') {
        fix(p, level === 'weekly' ? 'week ended and grace period passed; all its days are fixed' : 'month ended and grace period passed; all its parts are fixed', children);
      } else {
        upToDate[level]++;
        settle(p, node);
      }
    }
    schedule(level, candidates);
  };

  const existingOf = (level: NodeLevel): Period[] => [...nodes.values()].filter((n) => n.period.level === level).map((n) => n.period);
  const weeks = new Set([...weeksOf(days).map(weeklyPeriod), ...existingOf('weekly')].map(periodId));
  planParent('weekly', [...weeks].sort().reverse().map((w) => weeklyPeriod(w as never)), (p) => (p.level === 'weekly' ? weekChildren(p.week, days) : []));
  const months = new Set([...monthsOf(days).map(monthlyPeriod), ...existingOf('monthly')].map(periodId));
  const monthPeriods = [...months].sort().reverse().map((m) => monthlyPeriod(m as never));
  planParent('monthly', monthPeriods, (p) => (p.level === 'monthly' ? monthChildren(p.month, days) : []));

  // ---- root: monthly nodes → ROOT.md --------------------------------------------------------
  const monthsWithNodes = [...monthPeriods].reverse().filter((p) => nodes.has(nodeKey(p)) || after.get(nodeKey(p))?.changing);
  const pendingMonths = monthPeriods.filter((p) => after.get(nodeKey(p))?.pending).map(periodId);
  const root = nodes.get(nodeKey(ROOT_PERIOD));
  if (monthsWithNodes.length > 0) {
    const changing = monthsWithNodes.some((p) => after.get(nodeKey(p))?.changing);
    const stale = !root || root.status === null || changing || root.sourceHash !== rootSourceHash(today, monthsWithNodes, nodes);
    if (stale) {
      const kind = root ? 'regenerate' : 'create';
      const reason = !root ? 'no ROOT.md yet' : changing ? `${monthsWithNodes.filter((p) => after.get(nodeKey(p))?.changing).map(periodId).join(', ')} changed` : root.sourceHash?.length ? 'monthly nodes or the date changed (topic ages)' : 'ROOT.md was not written by hipo';
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
