// Human and JSON renderings of plans and results.
import type { CompactReport } from '../cycle/compaction.js';
import type { Applied } from '../cycle/execute.js';
import type { CyclePlan, NodeAction } from '../plan/plan.js';
import { NODE_LEVELS, periodId, type Workspace } from '../tree/layout.js';
import { EXIT } from './exit.js';
import type { Io } from './io.js';

function pad(s: string, n: number): string {
  return s.length >= n ? s + ' ' : s + ' '.repeat(n - s.length);
}

function actionLine(a: Pick<NodeAction, 'kind' | 'relPath' | 'status' | 'reason'>): string {
  return `  ${pad(a.kind, 11)}${pad(a.relPath, 24)}${pad(`→ ${a.status}`, 13)}${a.reason}`;
}

export function formatPlan(plan: CyclePlan, memoryName = 'memory'): string[] {
  const lines: string[] = [];
  if (plan.actions.length === 0) lines.push('  nothing to do');
  for (const a of plan.actions) lines.push(actionLine(a));
  lines.push(...formatPending(plan, memoryName));
  return lines;
}

function formatPending(plan: CyclePlan, memoryName = 'memory'): string[] {
  const lines: string[] = [];
  if (plan.deferred.length) {
    const byLevel = new Map<string, number>();
    for (const d of plan.deferred) byLevel.set(d.period.level, (byLevel.get(d.period.level) ?? 0) + 1);
    lines.push(
      `  left for later cycles: ${[...byLevel].map(([l, n]) => `${n} ${l}`).join(', ')} (per-cycle limits, or waiting for a part of the period; --catch-up runs them all)`,
    );
    for (const d of plan.deferred.slice(0, 5)) lines.push(`    ${pad(d.relPath, 24)}${d.reason}`);
    if (plan.deferred.length > 5) lines.push(`    … and ${plan.deferred.length - 5} more`);
  }
  for (const a of plan.attention) lines.push(`  attention: ${memoryName}/${a.relPath}: ${a.message}`);
  return lines;
}

/** After a run: what the next cycle would do, then what waits beyond it. */
function formatRemaining(plan: CyclePlan, memoryName: string): string[] {
  const lines: string[] = [];
  if (plan.actions.length) {
    lines.push(`  next cycle: ${plan.actions.length} action(s) pending (run again, or use --catch-up)`);
    for (const a of plan.actions.slice(0, 5)) lines.push(`  ${actionLine(a)}`);
    if (plan.actions.length > 5) lines.push(`      … and ${plan.actions.length - 5} more`);
  }
  return [...lines, ...formatPending(plan, memoryName)];
}

function upToDate(plan: CyclePlan): string {
  const parts = NODE_LEVELS.filter((l) => plan.upToDate[l] > 0).map((l) => (l === 'root' ? 'ROOT' : `${plan.upToDate[l]} ${l}`));
  return parts.length ? `  up to date: ${parts.join(', ')}` : '';
}

function appliedLine(r: Applied): string {
  const rec = r.record;
  const what = rec.error
    ? `FAILED: ${rec.error}`
    : rec.wrote
      ? `${rec.mode ?? ''}${rec.summarizer && rec.mode === 'summary' ? ` (${rec.summarizer})` : ''}`
      : rec.mode === 'waiting'
        ? 'waiting'
        : 'unchanged';
  const rel = rec.node.replace(/^[^/]+\//, '');
  // A failure's message is long: the reason the node was due follows it after a dash.
  const reason = rec.error ? `— ${rec.reason}` : rec.reason;
  return `  ${pad(rec.action, 11)}${pad(rel, 24)}${pad(`→ ${rec.status}`, 13)}${pad(what, 12)}${reason}`;
}

export function formatCompact(r: CompactReport, ws: Workspace, opts: { verbose: boolean; configWarnings: string[] }): string {
  const head = `hipo compact · ${ws.memoryDir} · today ${r.clock.today} (${r.clock.timeZone})${r.dryRun ? ' · dry run: nothing written' : ''}`;
  const lines = [head];
  if (r.dryRun) {
    lines.push(...formatPlan(r.plan, ws.memoryName));
    const up = upToDate(r.plan);
    if (up) lines.push(up);
    lines.push(...formatModelPlan(r));
  } else {
    lines.push(...formatReredacted(r));
    if (r.cycles === 0) lines.push('  nothing to do');
    const showAll = opts.verbose || r.cycles <= 1;
    if (showAll) for (const a of r.applied) lines.push(appliedLine(a));
    else {
      const counts = new Map<string, number>();
      for (const a of r.applied) {
        if (!a.written) continue;
        const key = `${a.record.action} ${a.written === 'ROOT.md' ? 'root' : a.written.split('/')[0]}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      lines.push(`  ${r.cycles} cycles: ${[...counts].map(([k, n]) => `${k} ×${n}`).join(', ') || 'no files changed'}`);
      for (const a of r.applied) if (a.error) lines.push(appliedLine(a));
    }
    lines.push(`  ${r.written.length} file${r.written.length === 1 ? '' : 's'} written in ${r.cycles} cycle${r.cycles === 1 ? '' : 's'}`);
    lines.push(...formatModelUse(r));
    lines.push(...formatRemaining(r.remaining, ws.memoryName));
  }
  const warnings = [...opts.configWarnings, ...r.problems.map((p) => `${p.file}: ${p.message}`), ...r.warnings];
  for (const w of warnings) lines.push(`  warning: ${w}`);
  return lines.join('\n');
}

const n = (x: number): string => x.toLocaleString('en-US');

/** Once after the redaction rules changed (an upgrade, `redactPatterns`): the nodes and state files brought up to them. */
function formatReredacted(r: CompactReport): string[] {
  const rr = r.reredacted;
  const st = r.reredactedState;
  const parts: string[] = [];
  if (rr && (rr.redacted.length || rr.rehashed.length)) {
    const count = rr.redacted.length;
    const rehashed = rr.rehashed.length;
    parts.push(`${count} node${count === 1 ? '' : 's'} re-redacted`);
    if (rehashed) parts.push(`${rehashed === 1 ? "1 parent's source hash" : `${rehashed} parents' source hashes`} updated`);
  }
  if (st?.redacted.length) parts.push(`${st.redacted.length} state file${st.redacted.length === 1 ? '' : 's'} re-redacted`);
  if (st?.dropped.length) parts.push(`${st.dropped.length} cached model answer${st.dropped.length === 1 ? '' : 's'} dropped`);
  if (st?.removed.length)
    parts.push(`${st.removed.length} left-over OpenCode transcript cop${st.removed.length === 1 ? 'y' : 'ies'} removed`);
  return parts.length ? [`  redaction rules changed: ${parts.join(', ')}`] : [];
}

/** Dry run: the nodes that would call the model, with their input tokens. */
function formatModelPlan(r: CompactReport): string[] {
  const e = r.llm?.estimate;
  if (!e) return [];
  const calls = e.calls.filter((c) => !c.cached);
  const count = calls.reduce((t, c) => t + c.calls, 0);
  const lines = [
    `  model ${e.model} at ${e.baseUrl}: ${count} call${count === 1 ? '' : 's'} this cycle, ~${n(calls.reduce((t, c) => t + c.tokensIn, 0))} tokens in`,
  ];
  for (const c of e.calls)
    lines.push(`    ${pad(c.node, 24)}${pad(c.cached ? 'cached' : `${n(c.tokensIn)} tokens`, 15)}${c.note ?? ''}`.trimEnd());
  if (e.unavailable) lines.push(`    no call would be made now: ${e.unavailable}`);
  return lines;
}

/** After a run: calls made, tokens, fallbacks. */
function formatModelUse(r: CompactReport): string[] {
  if (!r.llm) return [];
  const recs = r.applied.map((a) => a.record);
  const byModel = recs.filter((x) => x.wrote && x.summarizer?.startsWith('llm:')).length;
  const cached = recs.filter((x) => x.cached).length;
  const fallbacks = recs.filter((x) => x.fallback).length;
  const tin = recs.reduce((t, x) => t + (x.tokensIn ?? 0), 0);
  const tout = recs.reduce((t, x) => t + (x.tokensOut ?? 0), 0);
  if (!r.llm.calls && !cached && !fallbacks && !byModel) return [];
  const calls = `${r.llm.calls} call${r.llm.calls === 1 ? '' : 's'}`;
  return [
    `  model ${r.llm.model}: ${calls} (${n(tin)} tokens in, ${n(tout)} out), ${byModel} node${byModel === 1 ? '' : 's'} written by it, ${cached} answer${cached === 1 ? '' : 's'} from cache, ${fallbacks} extractive fallback${fallbacks === 1 ? '' : 's'}`,
  ];
}

export function compactJson(r: CompactReport, ws: Workspace): unknown {
  const plan = (p: CyclePlan) => ({
    today: p.today,
    actions: p.actions.map((a) => ({
      action: a.kind,
      node: a.relPath,
      period: periodId(a.period),
      level: a.period.level,
      status: a.status,
      reason: a.reason,
    })),
    deferred: p.deferred.map((d) => ({
      action: d.kind,
      node: d.relPath,
      period: periodId(d.period),
      level: d.period.level,
      reason: d.reason,
    })),
    attention: p.attention,
    upToDate: p.upToDate,
  });
  return {
    workspace: ws.root,
    memoryDir: ws.memoryDir,
    today: r.clock.today,
    timeZone: r.clock.timeZone,
    dryRun: r.dryRun,
    plan: plan(r.plan),
    cycles: r.cycles,
    applied: r.applied.map((a) => a.record),
    written: r.written,
    remaining: plan(r.remaining),
    problems: r.problems,
    errors: r.errors,
    warnings: r.warnings,
    reredacted: r.reredacted,
    reredactedState: r.reredactedState,
    llm: r.llm,
  };
}

/** What `hipo compact` prints for a cycle a running daemon ran; the exit code. */
export function printDaemonCompact(
  r: CompactReport,
  ws: Workspace,
  io: Io,
  opts: { json: boolean; verbose: boolean; configWarnings: string[] },
): number {
  // The daemon keeps its search index current itself, right after the cycle.
  if (opts.json) io.out(JSON.stringify({ ...(compactJson(r, ws) as object), searchIndex: { updated: false, byDaemon: true } }, null, 2));
  else io.out(`${formatCompact(r, ws, opts)}\n  run by the daemon (pid in .hipo/daemon.json), which updates the search index next`);
  return compactExit(r);
}

/**
 * 1 when a node could not be written: an error, or one left out of date that hipo may not rewrite
 * until a person repairs it (README, "Exit codes"). A dry run writes nothing, so fails nothing.
 */
export function compactExit(r: Pick<CompactReport, 'dryRun' | 'errors' | 'remaining'>): number {
  return r.errors.length || (!r.dryRun && r.remaining.attention.some((a) => a.blocked)) ? EXIT.failed : EXIT.ok;
}
