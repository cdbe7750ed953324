// The cycle planner: (the tree as read, today, options) → CyclePlan. It walks the levels
// bottom-up, so a parent knows which of its children this cycle will rewrite, which are left
// pending, and what status each will have afterwards (the decisions themselves: verdict.ts).
//
// A Planner keeps its decisions between the cycles of a run (a catch-up runs thousands): told
// which records changed since its last plan, it decides again only about those nodes and the
// parents whose children's state or records moved, so a cycle's planning costs what changed,
// not what the tree holds. Given the same tree, day and options, it returns the same plan as a
// fresh one (planCycle); anything it cannot vouch for (another day, other options, no list of
// changes) makes it start over.
import { addDays, isoWeekOf, monthOf, weekDates, type IsoWeek, type LocalDate, type MonthId } from '../time/calendar.js';
import { nodeKey, nodeRelPath, rawRelPath, type NodeKey, type NodeLevel, type Period } from '../tree/layout.js';
import type { NodeInfo, RawLogInfo, TreeSnapshot } from '../tree/snapshot.js';
import { monthChildren, weekChildren } from './children.js';
import type { Attention, CyclePlan, DeferredNode, NodeAction } from './plan.js';
import { fixableFrom } from './lifecycle.js';
import { RankedList } from './ranked.js';
import {
  afterOf,
  dailyVerdict,
  parentVerdict,
  rootVerdict,
  ROOT_PERIOD,
  sameAfter,
  type After,
  type Candidate,
  type ChildView,
  type PlanOptions,
  type Verdict,
} from './verdict.js';

export { childrenHash, rootSettingsOf, rootSourceHash, type LlmPlanOptions, type PlanOptions } from './verdict.js';

/** Records that changed since the last plan: raw logs by date, nodes by key. */
export interface TreeChanges {
  readonly raws: Iterable<LocalDate>;
  readonly nodes: Iterable<NodeKey>;
}

interface Slot {
  readonly period: Period;
  readonly node: NodeInfo | undefined;
  readonly raw: RawLogInfo | undefined;
  readonly verdict: Verdict;
  after: After | undefined;
}

/** One level's decisions, sorted into what the plan lists, most recent period first. */
class Level {
  readonly slots = new Map<string, Slot>();
  private readonly cands = new RankedList<Candidate>();
  private readonly passes = new RankedList<Candidate>();
  /** The same candidates as deferred entries, for when the limit holds them back. */
  private readonly candsHeld = new RankedList<DeferredNode>();
  private readonly passesHeld = new RankedList<DeferredNode>();
  private readonly fixes = new RankedList<NodeAction>();
  private readonly removals = new RankedList<NodeAction>();
  private readonly waits = new RankedList<DeferredNode>();
  private readonly flags = new RankedList<Attention>();
  private up = 0;
  /** Candidates let through by the limit at the last plan. */
  top: string[] = [];

  constructor(
    readonly name: Exclude<NodeLevel, 'root'>,
    private readonly limit: number,
  ) {}

  file(id: string, v: Verdict): void {
    if (v.t === 'cand') {
      const held: DeferredNode = {
        period: v.c.period,
        relPath: nodeRelPath(v.c.period),
        kind: v.c.kind,
        reason: `per-cycle limit (${this.name}: ${this.limit}); ${v.c.reason}`,
      };
      (v.c.pass ? this.passes : this.cands).set(id, v.c);
      (v.c.pass ? this.passesHeld : this.candsHeld).set(id, held);
    } else if (v.t === 'fix') this.fixes.set(id, v.action);
    else if (v.t === 'remove') this.removals.set(id, v.action);
    else if (v.t === 'wait') this.waits.set(id, v.deferred);
    else {
      if (v.up) this.up++;
      if (v.flag) this.flags.set(id, v.flag);
    }
  }

  unfile(id: string, v: Verdict): void {
    if (v.t === 'cand') {
      (v.c.pass ? this.passes : this.cands).delete(id);
      (v.c.pass ? this.passesHeld : this.candsHeld).delete(id);
    } else if (v.t === 'fix') this.fixes.delete(id);
    else if (v.t === 'remove') this.removals.delete(id);
    else if (v.t === 'wait') this.waits.delete(id);
    else {
      if (v.up) this.up--;
      if (v.flag) this.flags.delete(id);
    }
  }

  /** Ids of the candidates the limit lets through: real changes first, then model passes. */
  scheduled(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.cands.length && out.length < this.limit; i++) out.push(this.cands.keyAt(i)!);
    for (let i = 0; i < this.passes.length && out.length < this.limit; i++) out.push(this.passes.keyAt(i)!);
    return out;
  }

  /** Adds this level's part of the plan, in the order the executor runs it. */
  emit(actions: NodeAction[], deferred: DeferredNode[], attention: Attention[], upToDate: Record<NodeLevel, number>): void {
    append(actions, this.removals.values());
    append(actions, this.fixes.values());
    const fromCands = Math.min(this.limit, this.cands.length);
    const fromPasses = Math.min(this.limit - fromCands, this.passes.length);
    for (let i = 0; i < fromCands; i++) actions.push(actionOf(this.cands.at(i)!));
    for (let i = 0; i < fromPasses; i++) actions.push(actionOf(this.passes.at(i)!));
    append(deferred, this.waits.values());
    append(deferred, this.candsHeld.values(fromCands));
    append(deferred, this.passesHeld.values(fromPasses));
    append(attention, this.flags.values());
    upToDate[this.name] = this.up;
  }
}

function append<T>(to: T[], from: readonly T[]): void {
  for (const x of from) to.push(x);
}

function actionOf(c: Candidate): NodeAction {
  return { kind: c.kind, period: c.period, relPath: nodeRelPath(c.period), status: c.status, reason: c.reason, children: c.children };
}

function optionsKey(o: PlanOptions): string {
  const llm = o.llm ? [[...o.llm.levels].sort(), o.llm.upgrade, o.llm.resummarize, [...o.llm.failed].sort(), [...o.llm.owed].sort()] : null;
  return JSON.stringify([o.limits.daily, o.limits.weekly, o.limits.monthly, o.limits.root, o.graceDays, o.rootSettings, llm]);
}

const monthsOfWeek = (w: IsoWeek): MonthId[] => {
  const d = weekDates(w);
  const a = monthOf(d[0]!);
  const b = monthOf(d[6]!);
  return a === b ? [a] : [a, b];
};

export class Planner {
  private snap: TreeSnapshot | null = null;
  private today = '' as LocalDate;
  private opts: PlanOptions | null = null;
  private optsKey = '';
  private daily!: Level;
  private weekly!: Level;
  private monthly!: Level;
  private root: Verdict | null = null;
  /** Dates with a usable raw log or a daily node, and how many of them each week and month holds. */
  private readonly days = new Set<LocalDate>();
  private readonly weekDays = new Map<string, number>();
  private readonly monthDays = new Map<string, number>();
  /** Months with a node or a day, most recent first (ROOT is made from them). */
  private readonly months = new RankedList<Period>();
  /**
   * Raw logs dated after tomorrow: likely a typo in the name (2027 for 2026), and compacted as
   * the newest day, so a person is told. Tomorrow is fine: a writer in a time zone ahead of the
   * configured one dates its log by its own day.
   */
  private readonly ahead = new Set<LocalDate>();
  private readonly dirtyDays = new Set<LocalDate>();
  private readonly dirtyWeeks = new Set<string>();
  private readonly dirtyMonths = new Set<string>();
  private rootDirty = true;
  /** Nodes decided (again) by the last plan: what its cost grew with. */
  decisions = 0;

  private readonly view: ChildView = {
    after: (c) => {
      const slot = this.level(c)?.slots.get(idOf(c));
      if (slot) return slot.after;
      const n = this.node(c);
      return n ? { changing: false, pending: false, status: n.status } : undefined;
    },
    node: (c) => this.node(c),
  };

  /**
   * The plan for `snapshot` today. `changes` lists every record of `snapshot` that is not the
   * one this planner's last plan saw (the same snapshot object changed since, or a new one made
   * from it, as a resident process rescans the files its watcher reported); without it, or on
   * another day or with other options, every node is decided afresh.
   */
  plan(snapshot: TreeSnapshot, today: LocalDate, opts: PlanOptions, changes?: TreeChanges): CyclePlan {
    const key = optionsKey(opts);
    this.decisions = 0;
    if (!changes || !this.snap || today !== this.today || key !== this.optsKey) this.reset(snapshot, today, opts, key);
    else {
      this.snap = snapshot;
      this.absorb(changes);
    }
    this.refreshDays();
    this.refreshParents(
      this.weekly,
      this.dirtyWeeks,
      (id) => ({ level: 'weekly', week: id as IsoWeek }),
      (p) => (p.level === 'weekly' ? weekChildren(p.week, this.days) : []),
      (id) => {
        for (const m of monthsOfWeek(id as IsoWeek)) this.dirtyMonths.add(m);
      },
    );
    this.refreshParents(
      this.monthly,
      this.dirtyMonths,
      (id) => ({ level: 'monthly', month: id as MonthId }),
      (p) => (p.level === 'monthly' ? monthChildren(p.month, this.days) : []),
      () => {
        this.rootDirty = true;
      },
    );
    if (this.rootDirty) {
      this.root = rootVerdict(this.months.values().reverse(), this.view, this.node(ROOT_PERIOD), today, opts);
      this.decisions++;
      this.rootDirty = false;
    }
    return this.emit();
  }

  private reset(snapshot: TreeSnapshot, today: LocalDate, opts: PlanOptions, key: string): void {
    this.snap = snapshot;
    this.today = today;
    this.opts = opts;
    this.optsKey = key;
    this.daily = new Level('daily', opts.limits.daily);
    this.weekly = new Level('weekly', opts.limits.weekly);
    this.monthly = new Level('monthly', opts.limits.monthly);
    for (const c of [this.days, this.ahead, this.weekDays, this.monthDays, this.dirtyDays, this.dirtyWeeks, this.dirtyMonths]) c.clear();
    this.months.clear();
    this.root = null;
    this.rootDirty = true;
    for (const date of snapshot.raws.keys()) this.dirtyDays.add(date);
    for (const n of snapshot.nodes.values()) {
      const p = n.period;
      if (p.level === 'daily') this.dirtyDays.add(p.date);
      else if (p.level === 'weekly') this.dirtyWeeks.add(p.week);
      else if (p.level === 'monthly') this.dirtyMonths.add(p.month);
    }
  }

  private absorb(changes: TreeChanges): void {
    for (const date of changes.raws) this.dirtyDays.add(date);
    for (const key of changes.nodes) {
      const colon = key.indexOf(':');
      const level = key.slice(0, colon);
      const id = key.slice(colon + 1);
      if (level === 'daily') this.dirtyDays.add(id as LocalDate);
      else if (level === 'weekly') this.dirtyWeeks.add(id);
      else if (level === 'monthly') this.dirtyMonths.add(id);
      else this.rootDirty = true;
    }
  }

  private node(p: Period): NodeInfo | undefined {
    return this.snap!.nodes.get(nodeKey(p));
  }

  private level(p: Period): Level | null {
    return p.level === 'daily' ? this.daily : p.level === 'weekly' ? this.weekly : p.level === 'monthly' ? this.monthly : null;
  }

  /** A day's membership, record or state moved: its week and month decide again. */
  private touchDay(date: LocalDate): void {
    this.dirtyWeeks.add(isoWeekOf(date));
    this.dirtyMonths.add(monthOf(date));
  }

  private count(map: Map<string, number>, key: string, by: number): void {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  }

  private refreshDays(): void {
    const snap = this.snap!;
    const check = new Set<string>();
    for (const date of this.dirtyDays) {
      const slot = this.daily.slots.get(date);
      const raw = snap.raws.get(date);
      const node = snap.nodes.get(`daily:${date}`);
      if (slot && slot.raw === raw && slot.node === node) continue;
      if (raw?.usable && date > addDays(this.today, 1)) this.ahead.add(date);
      else this.ahead.delete(date);
      const present = !!raw?.usable || node !== undefined;
      if (slot) this.daily.unfile(date, slot.verdict);
      if (present !== (slot !== undefined)) {
        const by = present ? 1 : -1;
        if (present) this.days.add(date);
        else this.days.delete(date);
        this.count(this.weekDays, isoWeekOf(date), by);
        this.count(this.monthDays, monthOf(date), by);
      }
      if (!slot || !present || slot.node !== node) this.touchDay(date);
      if (!present) {
        this.daily.slots.delete(date);
        continue;
      }
      const period: Period = slot?.period ?? { level: 'daily', date };
      const verdict = dailyVerdict(period as Period & { level: 'daily' }, node, raw, this.today, this.opts!);
      this.decisions++;
      this.daily.slots.set(date, { period, node, raw, verdict, after: slot?.after });
      this.daily.file(date, verdict);
      check.add(date);
    }
    this.dirtyDays.clear();
    this.settle(this.daily, check, (id) => this.touchDay(id as LocalDate));
  }

  private refreshParents(
    level: Level,
    dirty: Set<string>,
    periodOf: (id: string) => Period,
    childrenOf: (p: Period) => Period[],
    touch: (id: string) => void,
  ): void {
    const check = new Set<string>();
    const held = level === this.weekly ? this.weekDays : this.monthDays;
    for (const id of dirty) {
      const slot = level.slots.get(id);
      const node = this.snap!.nodes.get(`${level.name}:${id}`);
      if (slot) level.unfile(id, slot.verdict);
      const exists = node !== undefined || held.has(id);
      if (!slot || !exists || slot.node !== node) touch(id);
      if (level === this.monthly && exists !== (slot !== undefined)) {
        if (exists) this.months.set(id, slot?.period ?? periodOf(id));
        else this.months.delete(id);
      }
      if (!exists) {
        level.slots.delete(id);
        continue;
      }
      const period = slot?.period ?? periodOf(id);
      const verdict = parentVerdict(period, childrenOf(period), node, this.view, this.today, this.opts!);
      this.decisions++;
      level.slots.set(id, { period, node, raw: undefined, verdict, after: slot?.after });
      level.file(id, verdict);
      check.add(id);
    }
    dirty.clear();
    this.settle(level, check, touch);
  }

  /**
   * Applies the level's limit and works out each node's state after the cycle; a node whose
   * state moved makes its parents decide again. The candidates let through last time and this
   * time are checked too: the limit may have moved past them.
   */
  private settle(level: Level, check: Set<string>, touch: (id: string) => void): void {
    const top = level.scheduled();
    for (const id of level.top) check.add(id);
    for (const id of top) check.add(id);
    level.top = top;
    for (const id of check) {
      const slot = level.slots.get(id);
      if (!slot) continue;
      const after = afterOf(slot.verdict, slot.node, top.includes(id));
      if (!sameAfter(after, slot.after)) touch(id);
      slot.after = after;
    }
  }

  /** The latest day an earlier cycle must have run on, as the fixed nodes show; null if none is fixed. */
  private latestDaySeen(): LocalDate | null {
    let latest: LocalDate | null = null;
    for (const n of this.snap!.nodes.values()) {
      if (n.status !== 'fixed') continue;
      const from = fixableFrom(n.period, this.opts!.graceDays);
      if (from !== null && (latest === null || from > latest)) latest = from;
    }
    return latest;
  }

  private emit(): CyclePlan {
    const actions: NodeAction[] = [];
    const deferred: DeferredNode[] = [];
    const attention: Attention[] = [];
    const upToDate: Record<NodeLevel, number> = { daily: 0, weekly: 0, monthly: 0, root: 0 };
    for (const level of [this.daily, this.weekly, this.monthly]) level.emit(actions, deferred, attention, upToDate);
    // A fixed node was fixed by a cycle that ran on its fixable-from day or later: raw logs ahead
    // of today up to that day were compacted after their day had come. Today went back (the
    // system clock, --now or HIPO_NOW, a time zone further west); the files are no typos. Told
    // once, and not told to rename files that are named right. (Looked for only when a raw log
    // is ahead: that is rare, and it costs a pass over the nodes.)
    const ahead = [...this.ahead].sort();
    const seen = ahead.length ? this.latestDaySeen() : null;
    const passed = seen ? ahead.filter((d) => d <= seen) : [];
    const fixedBefore = new Set(passed);
    for (const date of ahead)
      if (!fixedBefore.has(date))
        attention.push({
          relPath: rawRelPath(date),
          message: `dated after today (${this.today}): compacted as the newest day; if the date is wrong, rename the file`,
        });
    if (passed.length) {
      const more = passed.length > 1 ? `, as are ${passed.length - 1} more raw log(s) up to ${passed.at(-1)}` : '';
      attention.push({
        relPath: rawRelPath(passed[0]!),
        message:
          `dated after today (${this.today})${more}, ` +
          'days an earlier cycle has already seen: today went back (the clock, --now or HIPO_NOW); the file names are right. ' +
          'ROOT.md is built as of today until the date is right again; fixed nodes stay fixed',
      });
    }
    const root = this.root;
    if (root?.t === 'cand') {
      const limit = this.opts!.limits.root;
      if (limit > 0) actions.push(actionOf(root.c));
      else
        deferred.push({
          period: ROOT_PERIOD,
          relPath: nodeRelPath(ROOT_PERIOD),
          kind: root.c.kind,
          reason: `per-cycle limit (root: ${limit}); ${root.c.reason}`,
        });
    } else if (root?.t === 'wait') deferred.push(root.deferred);
    else if (root?.t === 'keep' && root.up) upToDate.root = 1;
    return { today: this.today, actions, deferred, attention, upToDate };
  }
}

function idOf(p: Period): string {
  return p.level === 'daily' ? p.date : p.level === 'weekly' ? p.week : p.level === 'monthly' ? p.month : 'root';
}

/** A plan made from scratch: a pure function of the tree as read, today and the options. */
export function planCycle(snapshot: TreeSnapshot, today: LocalDate, opts: PlanOptions): CyclePlan {
  return new Planner().plan(snapshot, today, opts);
}
