import type { Command } from 'commander';
import { Hipo } from '../../api/hipo.js';
import type { StatusReport } from '../../status/status.js';
import { NODE_LEVELS, periodId } from '../../tree/layout.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { EXIT } from '../exit.js';
import { formatPlan } from '../format.js';
import type { CommandSetup } from '../command-setup.js';

const PROMPT_HOOK_NEEDS_INDEX = '; the prompt hook needs it to hand the agent memory about a prompt';

export function registerStatus(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('status')
    .description('Nodes per level and status with token totals, pending work, the last cycle, warnings')
    .option('--json', 'print the report as JSON')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD, or YYYY-MM-DDTHH:MM in the configured zone, or with Z or an offset)')
    .option(DIR_FLAGS, DIR_HELP)
    .action((opts: { json?: boolean; now?: string; dir?: string }) => {
      setRun(async () => {
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        const r = await Hipo.at(ws, config, { now: opts.now, caller: '' }).status();
        io.out(opts.json ? JSON.stringify(statusJson(r, configWarnings), null, 2) : formatStatus(r, configWarnings));
        return EXIT.ok;
      });
    });
}

function statusJson(r: StatusReport, configWarnings: string[]): unknown {
  return {
    workspace: r.workspace,
    memoryDir: r.memoryDir,
    today: r.clock.today,
    timeZone: r.clock.timeZone,
    raw: r.raw,
    nodes: r.nodes,
    pending: {
      actions: r.next.actions.map((a) => ({
        action: a.kind,
        node: a.relPath,
        period: periodId(a.period),
        status: a.status,
        reason: a.reason,
      })),
      deferred: r.next.deferred.map((d) => ({ action: d.kind, node: d.relPath, reason: d.reason })),
    },
    lastCycle: r.lastCycle,
    recentErrors: r.recentErrors,
    warnings: [...configWarnings.map((w) => ({ file: 'config', message: w })), ...r.warnings],
    writer: r.writer,
    hookErrors: r.hookErrors,
    lastCapture: r.lastCapture,
    daemon: r.daemon,
    llm: r.llm,
    index: r.index,
    ...(r.store ? { store: r.store } : {}),
    handEdits: r.handEdits,
  };
}

function formatStatus(r: StatusReport, configWarnings: string[]): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const lines = [`hipo status · ${r.memoryDir} · today ${r.clock.today} (${r.clock.timeZone})`];
  const size = r.raw.bytes >= 1024 * 1024 ? `${(r.raw.bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(r.raw.bytes / 1024)} KB`;
  lines.push(
    `  raw logs: ${n(r.raw.files)} (${size}${r.raw.first ? `, ${r.raw.first} … ${r.raw.last}` : ''})${r.raw.unusable ? `, ${r.raw.unusable} unusable` : ''}`,
  );
  lines.push('  nodes       tentative     fixed    tokens');
  for (const l of NODE_LEVELS) {
    const s = r.nodes[l];
    lines.push(
      `    ${l.padEnd(10)}${String(s.tentative).padStart(9)}${String(s.fixed).padStart(10)}${n(s.tokens).padStart(10)}${s.other ? `   (${s.other} without a valid status)` : ''}`,
    );
  }
  const pending = r.next.actions.length + r.next.deferred.length;
  lines.push(pending ? `  pending: ${pending} (next cycle below)` : '  pending: nothing, the tree is current');
  if (pending) lines.push(...formatPlan(r.next, r.memoryName).map((l) => `  ${l}`));
  if (r.daemon) {
    const d = r.daemon;
    lines.push(
      d.running && !d.servesHere
        ? `  daemon: not serving this workspace: pid ${d.pid} runs for ${d.root} (moved or renamed since it started); ` +
            `commands do their own work; stop it (kill ${d.pid}) and start one here`
        : d.running
          ? `  daemon: running, pid ${d.pid} since ${d.since}, ${d.runs} run(s)`
          : `  daemon: not running (last: pid ${d.pid}, ${d.stoppedAt ? `stopped ${d.stoppedAt}` : 'did not stop cleanly'})`,
    );
    if (d.lastRun)
      lines.push(
        `    last run: ${d.lastRun.at} (${d.lastRun.reason}): ${d.lastRun.written} written, ${d.lastRun.errors.length} error(s)${d.lastRun.pending ? `, ${d.lastRun.pending} pending` : ''}`,
      );
    if (d.indexedAt) lines.push(`    search index brought up to date: ${d.indexedAt}`);
    if (d.lastError) lines.push(`    last error: ${d.lastError.at}: ${d.lastError.message}`);
  } else lines.push('  daemon: not running');
  if (r.llm) {
    const l = r.llm;
    lines.push(
      `  model: ${l.model} at ${l.baseUrl} (${l.levels.join(', ')})${l.backoff ? `; backing off until ${l.backoff.until}: ${l.backoff.reason}` : ''}${l.failedInputs ? `; ${l.failedInputs} node input(s) it could not summarize` : ''}${r.searchExpand ? '; it also expands search queries' : ''}`,
    );
  } else
    lines.push(
      `  model: none (extractive summaries; nothing leaves this machine)${r.searchExpand ? '; search.expand.enabled is set but has no model to ask' : ''}`,
    );
  lines.push(
    r.index
      ? `  search index: ${r.index.file} (${(r.index.bytes / 1024 / 1024).toFixed(1)} MB, embedder ${r.index.embedder})`
      : `  search index: none yet (hipo index or hipo search builds it${r.promptRecall ? PROMPT_HOOK_NEEDS_INDEX : ''})`,
  );
  const st = r.store;
  if (st) {
    const mine = st.workspaces.find((w) => w.workspace === st.workspace);
    const others = st.workspaces.filter((w) => w.workspace !== st.workspace).map((w) => w.workspace);
    const held = mine ? `${n(mine.files)} files, ${n(mine.chunks)} chunks` : 'nothing pushed yet: run hipo index';
    lines.push(
      st.error
        ? `  search store: postgres: ${st.error}`
        : `  search store: postgres ${st.url} · workspace "${st.workspace}" (${held}) · reads ${st.reads.join(', ')}` +
            `${others.length ? ` · also holds ${others.join(', ')}` : ''} · vectors: ${st.vectors}`,
    );
  }
  if (r.writer) lines.push(`  writer: pid ${r.writer.pid} (${r.writer.command}) since ${r.writer.since}`);
  if (r.lastCycle) {
    const c = r.lastCycle;
    lines.push(
      `  last cycle: ${c.at} (${c.command}, today ${c.today}): ${c.actions} action(s), ${c.written} written, ${c.errors.length} error(s), ${c.ms} ms`,
    );
  } else lines.push('  last cycle: none recorded');
  for (const e of r.recentErrors.slice(0, 5)) lines.push(`  error: ${e}`);
  if (r.lastCapture) {
    const c = r.lastCapture;
    const compacting = c.compacting ? `; compaction ${c.compacting}` : '';
    const session = c.session.slice(0, 8);
    const by = c.byDaemon ? ', run by the daemon' : '';
    lines.push(
      `  last capture: ${c.at} (${c.event}${by}, session ${session}): ${c.turns} turn(s) → ${c.file ?? 'nothing new'}${compacting}`,
    );
  }
  for (const e of r.hookErrors)
    lines.push(`  hook error: ${e.at} ${e.event}${e.session ? ` (session ${e.session.slice(0, 8)})` : ''}: ${e.message}`);
  for (const e of r.handEdits.current)
    lines.push(
      `  edited by hand: ${e.node} (kept as edited${e.status === 'tentative' ? '; if its sources change it is regenerated and this version saved under edits/' : ''})`,
    );
  for (const e of r.handEdits.saved) {
    const then = e.removed ? "removed with its period's days" : 'regenerated';
    lines.push(`  edited by hand, then ${then}: ${e.node} (${e.at}); the edited version is ${e.savedTo}`);
  }
  for (const w of configWarnings) lines.push(`  warning: ${w}`);
  for (const w of r.warnings) lines.push(`  warning: ${w.file}: ${w.message}`);
  return lines.join('\n');
}
