// The planner kept across the cycles of a run must plan exactly what a fresh one plans, while
// deciding again only about what changed. These tests simulate catch-ups in memory: each
// cycle's actions are applied to the snapshot as the executor would (some fail), and late raw
// logs, hand edits, deleted files and broken frontmatter arrive between cycles.
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekOf, weekDates, type LocalDate } from '../../src/time/calendar.js';
import { nodeKey, nodeRelPath, type NodeKey, type NodeLevel, type NodeStatus } from '../../src/tree/layout.js';
import type { NodeInfo, RawLogInfo } from '../../src/tree/snapshot.js';
import { childrenHash, planCycle, Planner, rootSourceHash, type PlanOptions } from '../../src/plan/planner.js';
import type { CyclePlan } from '../../src/plan/plan.js';

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const stamp = { size: 1, mtimeMs: 1 };
const ROOT_SETTINGS = 'root-settings';

interface Sim {
  raws: Map<LocalDate, RawLogInfo>;
  nodes: Map<NodeKey, NodeInfo>;
  changed: { raws: Set<LocalDate>; nodes: Set<NodeKey> };
}

function newSim(start: LocalDate, days: number, rnd: () => number): Sim {
  const raws = new Map<LocalDate, RawLogInfo>();
  for (let i = 0; i < days; i++) {
    if (rnd() > 0.8) continue;
    const date = addDays(start, i);
    raws.set(date, { date, relPath: `${date}.md`, stamp, hash: `h-${date}`, lines: 3, usable: rnd() < 0.97, note: null });
  }
  return { raws, nodes: new Map(), changed: { raws: new Set(), nodes: new Set() } };
}

function setNode(sim: Sim, info: NodeInfo): void {
  sim.nodes.set(nodeKey(info.period), info);
  sim.changed.nodes.add(nodeKey(info.period));
}

/** Applies a plan's actions as the executor would, each failing with probability `failRate`. */
function apply(sim: Sim, plan: CyclePlan, today: LocalDate, rnd: () => number, failRate: number, summarizer = 'copy'): void {
  for (const a of plan.actions) {
    if (rnd() < failRate) continue;
    const old = sim.nodes.get(nodeKey(a.period));
    if (a.kind === 'fix') {
      setNode(sim, { ...old!, status: 'fixed' });
      continue;
    }
    if (a.kind === 'remove') {
      sim.nodes.delete(nodeKey(a.period));
      sim.changed.nodes.add(nodeKey(a.period));
      continue;
    }
    const p = a.period;
    const sourceHash =
      p.level === 'daily'
        ? sim.raws.get(p.date)!.hash
        : p.level === 'root'
          ? rootSourceHash(
              today,
              a.children.filter((m) => sim.nodes.has(nodeKey(m))),
              sim.nodes,
              ROOT_SETTINGS,
            )
          : childrenHash(a.children, sim.nodes);
    const body = `b${Math.floor(rnd() * 3)}`;
    setNode(sim, {
      period: p,
      relPath: nodeRelPath(p),
      stamp,
      status: a.status as NodeStatus,
      sourceHash,
      recordedBodyHash: body,
      bodyHash: body,
      bodyLines: 1,
      summarizer,
      topics: [],
      problem: null,
    });
  }
}

function pickKey<K>(m: Map<K, unknown>, rnd: () => number): K | undefined {
  const keys = [...m.keys()];
  return keys.length ? keys[Math.floor(rnd() * keys.length)] : undefined;
}

/** What arrives between cycles: late logs, hand edits, deletions, forgotten weeks, broken or foreign nodes. */
function perturb(sim: Sim, start: LocalDate, span: number, rnd: () => number): void {
  if (rnd() < 0.15) {
    const date = addDays(start, Math.floor(rnd() * (span + 5)));
    sim.raws.set(date, { date, relPath: `${date}.md`, stamp, hash: `h-${rnd()}`, lines: 3, usable: true, note: null });
    sim.changed.raws.add(date);
  }
  const node = (f: (n: NodeInfo) => NodeInfo | null): void => {
    const k = pickKey(sim.nodes, rnd);
    if (k === undefined) return;
    const next = f(sim.nodes.get(k)!);
    if (next) sim.nodes.set(k, next);
    else sim.nodes.delete(k);
    sim.changed.nodes.add(k);
  };
  if (rnd() < 0.05) node((n) => ({ ...n, bodyHash: `edited-${rnd()}` }));
  if (rnd() < 0.03) node(() => null);
  if (rnd() < 0.02) node((n) => ({ ...n, problem: 'frontmatter cannot be parsed' }));
  if (rnd() < 0.02) node((n) => ({ ...n, status: null }));
  if (rnd() < 0.03) {
    const d = pickKey(sim.raws, rnd);
    if (d !== undefined) {
      sim.raws.delete(d);
      sim.changed.raws.add(d);
    }
  }
  // A week forgotten as the README says: each day's raw log and daily node deleted.
  if (rnd() < 0.03) {
    const d = pickKey(sim.raws, rnd);
    if (d !== undefined)
      for (const date of weekDates(isoWeekOf(d))) {
        const k = nodeKey({ level: 'daily', date });
        sim.raws.delete(date);
        sim.nodes.delete(k);
        sim.changed.raws.add(date);
        sim.changed.nodes.add(k);
      }
  }
}

function takeChanges(sim: Sim): Sim['changed'] {
  const c = sim.changed;
  sim.changed = { raws: new Set(), nodes: new Set() };
  return c;
}

describe('Planner across the cycles of a run', () => {
  it('plans exactly what a fresh planner plans, through failures, late logs and edits', () => {
    let plans = 0;
    let removals = 0;
    for (let trial = 0; trial < 24; trial++) {
      const rnd = rng(trial + 1);
      const start = addDays('2025-11-24' as LocalDate, Math.floor(rnd() * 40));
      const span = 20 + Math.floor(rnd() * 120);
      const sim = newSim(start, span, rnd);
      const limits: Record<NodeLevel, number> = {
        daily: 1 + Math.floor(rnd() * 2),
        weekly: 1 + Math.floor(rnd() * 2),
        monthly: 1,
        root: rnd() < 0.1 ? 0 : 1,
      };
      // Some runs have a model: extractive nodes are then due for model passes.
      const llm =
        trial % 4 === 3
          ? {
              levels: new Set<NodeLevel>(['daily', 'weekly', 'monthly', 'root']),
              upgrade: true,
              resummarize: false,
              failed: new Map<NodeKey, string>(),
              owed: new Map<NodeKey, string>(),
            }
          : undefined;
      const opts: PlanOptions = { limits, graceDays: 7, rootSettings: ROOT_SETTINGS, ...(llm ? { llm } : {}) };
      let today = addDays(start, span + Math.floor(rnd() * 40) - 20);
      const planner = new Planner();
      // One snapshot object throughout, as a run's tree is: the planner keeps its decisions.
      const tree = { raws: sim.raws, nodes: sim.nodes, problems: [] };
      let incrementalPlans = 0;
      for (let cycle = 0; cycle < 300; cycle++) {
        if (rnd() < 0.03) today = addDays(today, 1);
        const incremental = planner.plan(tree, today, opts, takeChanges(sim));
        const fresh = planCycle(tree, today, opts);
        expect(incremental).toEqual(fresh);
        plans++;
        removals += fresh.actions.filter((a) => a.kind === 'remove').length;
        if (planner.decisions < sim.raws.size / 2) incrementalPlans++;
        if (fresh.actions.length === 0 && rnd() < 0.3) break;
        apply(sim, fresh, today, rnd, 0.15, llm && rnd() < 0.5 ? 'extractive' : 'copy');
        perturb(sim, start, span, rnd);
      }
      expect(incrementalPlans).toBeGreaterThan(0);
    }
    expect(plans).toBeGreaterThan(1500);
    // Days deleted with their nodes leave weeks and months with none: those are removed too.
    expect(removals).toBeGreaterThan(0);
  });

  it('decides again only about what changed: a catch-up cycle costs the same at any size', () => {
    const rnd = rng(7);
    const sim = newSim('2023-01-02' as LocalDate, 3 * 365, rnd);
    const opts: PlanOptions = { limits: { daily: 1, weekly: 1, monthly: 1, root: 1 }, graceDays: 7, rootSettings: ROOT_SETTINGS };
    const today = '2026-01-20' as LocalDate;
    const planner = new Planner();
    const tree = { raws: sim.raws, nodes: sim.nodes, problems: [] };
    const first = planner.plan(tree, today, opts, takeChanges(sim));
    expect(planner.decisions).toBeGreaterThan(sim.raws.size);
    let plan = first;
    let worst = 0;
    let cycles = 0;
    while (plan.actions.length) {
      apply(sim, plan, today, rnd, 0);
      plan = planner.plan(tree, today, opts, takeChanges(sim));
      worst = Math.max(worst, planner.decisions);
      cycles++;
    }
    expect(cycles).toBeGreaterThan(800);
    // The day written, the next day let through, their week and month (and a neighbour's), ROOT.
    expect(worst).toBeLessThanOrEqual(12);
    // Nothing changed: nothing is decided again, and the plan is the same.
    expect(planner.plan(tree, today, opts, takeChanges(sim))).toEqual(plan);
    expect(planner.decisions).toBe(0);
    // Without a list of changes, or on another day, it starts over.
    planner.plan(tree, today, opts);
    expect(planner.decisions).toBeGreaterThan(sim.raws.size);
    planner.plan(tree, addDays(today, 1), opts, takeChanges(sim));
    expect(planner.decisions).toBeGreaterThan(sim.raws.size);
  });
});
