// A cycle's plan: what would be created, regenerated, amended or fixed, and why. Plain data,
// printed by `hipo compact --dry-run` and applied by the executor.
import type { LocalDate } from '../time/calendar.js';
import type { NodeLevel, NodeStatus, Period } from '../tree/layout.js';

/**
 * create     — the node does not exist yet;
 * regenerate — a tentative node whose sources changed;
 * amend      — a fixed node whose sources changed after it was fixed (a late raw log or a late
 *              edit), rewritten once with the late input and kept fixed; never done to a node
 *              edited by hand (that is reported instead);
 * fix        — sources unchanged, the period is over: only the status turns `fixed`;
 * resummarize — sources unchanged, but the body is an extractive summary and a model is
 *              configured: a tentative node gets its model pass (e.g. after a fallback), a
 *              fixed one only with `hipo compact --resummarize`;
 * remove     — a weekly or monthly node hipo wrote whose period has no day left (every raw log
 *              and daily node of it deleted): nothing backs it, so it goes too, and its parents
 *              are rebuilt without it. A hand edit is copied to `edits/` first; a fixed node
 *              edited by hand, and a node hipo did not write, are kept (the first reported).
 */
export type ActionKind = 'create' | 'regenerate' | 'amend' | 'fix' | 'resummarize' | 'remove';

export interface NodeAction {
  readonly kind: ActionKind;
  readonly period: Period;
  /** Path relative to the memory folder. */
  readonly relPath: string;
  /** Status the node will have after the action (`removed`: no node). */
  readonly status: NodeStatus | 'removed';
  readonly reason: string;
  /** Nodes (or for a daily node, nothing: its source is the raw log) it is made from. */
  readonly children: readonly Period[];
}

export interface DeferredNode {
  readonly period: Period;
  readonly relPath: string;
  readonly kind: ActionKind;
  readonly reason: string;
}

export interface Attention {
  /** Path relative to the memory folder. */
  readonly relPath: string;
  readonly message: string;
  /** The node is out of date and cannot be rewritten until a person repairs it: the run failed. */
  readonly blocked?: boolean;
}

export interface CyclePlan {
  readonly today: LocalDate;
  /** In execution order: daily, weekly, monthly, root; most recent period first in each. */
  readonly actions: readonly NodeAction[];
  /** Work left for later cycles (per-cycle limits, or waiting for a child). */
  readonly deferred: readonly DeferredNode[];
  /** Nodes hipo will not touch that a human should look at. */
  readonly attention: readonly Attention[];
  /** Nodes already current, per level. */
  readonly upToDate: Readonly<Record<NodeLevel, number>>;
}
