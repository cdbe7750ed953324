// The planner with a model configured: which extractive summaries get a model pass. Still a
// pure function of (tree, today, options): everything it needs arrives in `opts.llm`.
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/cycle/compaction.js';
import { planCycle, rootSettingsOf, type LlmPlanOptions, type PlanOptions } from '../../src/plan/planner.js';
import type { NodeLevel } from '../../src/tree/layout.js';
import { scanTree } from '../../src/tree/scan.js';
import { StampCache } from '../../src/state/stamp-cache.js';
import { loadTemplates } from '../../src/write/template.js';
import { configOf, makeWorkspace } from '../helpers/workspace.js';

const CONFIG = { timeZone: 'UTC', compaction: { thresholds: { daily: 3, weekly: 3, monthly: 3 } } };
const log = (date: string, words: string) =>
  `# ${date}\n\n## Work [project]\n- decided ${words}\n- shipped ${words}\n- fixed ${words}\n- learned ${words}\n- measured ${words}\n`;

/** A tree written by the extractive summarizer (no model): every node above threshold says `extractive`. */
async function extractiveTree(now: string) {
  const ws = makeWorkspace(
    { 'memory/2026-03-10.md': log('2026-03-10', 'alpha'), 'memory/2026-03-11.md': log('2026-03-11', 'beta') },
    CONFIG,
  );
  await compact(ws, configOf(ws), { now, catchUp: true, env: {} });
  return ws;
}

function plan(ws: ReturnType<typeof makeWorkspace>, today: string, llm?: Partial<LlmPlanOptions>) {
  const { snapshot } = scanTree(ws, StampCache.empty());
  const config = configOf(ws);
  const rootSettings = rootSettingsOf(config.compaction, config.redactPatterns, loadTemplates(ws.root).get('root'));
  const opts: PlanOptions = { limits: { daily: 1, weekly: 1, monthly: 1, root: 1 }, graceDays: 7, rootSettings };
  if (llm)
    opts.llm = {
      levels: new Set<NodeLevel>(['daily', 'weekly', 'monthly', 'root']),
      upgrade: true,
      resummarize: false,
      failed: new Map(),
      owed: new Map(),
      ...llm,
    };
  return planCycle(snapshot, today as never, opts);
}

const summary = (p: ReturnType<typeof plan>) => p.actions.map((a) => `${a.kind} ${a.relPath} → ${a.status}`);

describe('model passes', () => {
  it("plans none without a model, and a pass for each level's extractive tentative node with one", async () => {
    const ws = await extractiveTree('2026-03-11');
    expect(plan(ws, '2026-03-11').actions).toEqual([]);
    // The day's new body changes its parents: they are regenerated (by the model too).
    expect(summary(plan(ws, '2026-03-11', {}))).toEqual([
      'resummarize daily/2026-03-11.md → tentative',
      'regenerate weekly/2026-W11.md → tentative',
      'regenerate monthly/2026-03.md → tentative',
      'regenerate ROOT.md → tentative',
    ]);
    // With the days done (here: not the model's to write), each level's own pass shows.
    expect(summary(plan(ws, '2026-03-11', { levels: new Set<NodeLevel>(['monthly', 'root']) }))).toEqual([
      'resummarize monthly/2026-03.md → tentative',
      'regenerate ROOT.md → tentative',
    ]);
    expect(summary(plan(ws, '2026-03-11', { levels: new Set<NodeLevel>(['root']) }))).toEqual(['resummarize ROOT.md → tentative']);
  });

  it('keeps to the per-cycle limits, most recent first, and leaves the rest for later cycles', async () => {
    const ws = makeWorkspace(
      { 'memory/2026-03-10.md': log('2026-03-10', 'alpha'), 'memory/2026-03-11.md': log('2026-03-11', 'beta') },
      { ...CONFIG, compaction: { ...CONFIG.compaction, graceDays: 30 } },
    );
    await compact(ws, configOf(ws), { now: '2026-03-10', env: {} });
    await compact(ws, configOf(ws), { now: '2026-03-11', catchUp: true, env: {} });
    // Both days are extractive; 03-10 is fixed by now and gets no pass without --resummarize.
    const p = plan(ws, '2026-03-11', {});
    expect(p.actions.filter((a) => a.period.level === 'daily').map((a) => a.relPath)).toEqual(['daily/2026-03-11.md']);
  });

  it('gives a day about to be fixed its pass first, and plans nothing for fixed nodes unless asked', async () => {
    const ws = await extractiveTree('2026-03-11');
    // 03-11 has passed: its tentative node is passed to the model and fixed in one go.
    expect(summary(plan(ws, '2026-03-12', {})).filter((l) => l.includes('daily'))).toEqual(['resummarize daily/2026-03-11.md → fixed']);
    // 03-10 was fixed extractive in an earlier cycle: only --resummarize touches it.
    const asked = plan(ws, '2026-03-12', { resummarize: true });
    expect(summary(asked).filter((l) => l.includes('daily'))).toEqual(['resummarize daily/2026-03-11.md → fixed']);
    expect(asked.deferred.map((d) => `${d.kind} ${d.relPath}`)).toContain('resummarize daily/2026-03-10.md');
  });

  it('plans a pass for a fixed node the model still owes one (written past the call limit, endpoint down)', async () => {
    const ws = await extractiveTree('2026-03-12');
    const { snapshot } = scanTree(ws, StampCache.empty());
    const day = snapshot.nodes.get('daily:2026-03-10')!;
    expect(day.status).toBe('fixed');
    const p = plan(ws, '2026-03-12', { owed: new Map([['daily:2026-03-10', day.sourceHash!]]) });
    expect(p.actions.filter((a) => a.period.level === 'daily').map((a) => [a.kind, a.relPath, a.status, a.reason])).toEqual([
      ['resummarize', 'daily/2026-03-10.md', 'fixed', 'extractive summary (the model was not asked or not reached); model pass owed'],
    ]);
    // Owed for an input it no longer has: its new input was written since.
    const stale = plan(ws, '2026-03-12', { owed: new Map([['daily:2026-03-10', 'older-input']]) });
    expect(stale.actions.filter((a) => a.period.level === 'daily')).toEqual([]);
  });

  it('plans nothing while the endpoint backs off, for levels the model does not write, or for inputs it failed on', async () => {
    const ws = await extractiveTree('2026-03-11');
    expect(plan(ws, '2026-03-11', { upgrade: false }).actions).toEqual([]);
    expect(summary(plan(ws, '2026-03-11', { levels: new Set<NodeLevel>(['weekly']) }))[0]).toBe(
      'resummarize weekly/2026-W11.md → tentative',
    );
    const { snapshot } = scanTree(ws, StampCache.empty());
    const daily = snapshot.nodes.get('daily:2026-03-11')!;
    const failed = new Map([['daily:2026-03-11', daily.sourceHash!]]);
    expect(summary(plan(ws, '2026-03-11', { failed })).some((l) => l.includes('daily/'))).toBe(false);
    // A changed input is a new chance.
    expect(summary(plan(ws, '2026-03-11', { failed: new Map([['daily:2026-03-11', 'older-input']]) }))).toContain(
      'resummarize daily/2026-03-11.md → tentative',
    );
  });

  it('never passes a node edited by hand, a copy, or a node a model already wrote', async () => {
    const ws = await extractiveTree('2026-03-11');
    const f = 'memory/daily/2026-03-11.md';
    ws.write(f, `${ws.read(f)}\n- my own note\n`);
    ws.write(
      'memory/weekly/2026-W11.md',
      ws.read('memory/weekly/2026-W11.md').replace('summarizer: extractive', 'summarizer: "llm:some-model"'),
    );
    const lines = summary(plan(ws, '2026-03-11', {}));
    expect(lines.some((l) => l.includes('daily/2026-03-11'))).toBe(false);
    // The weekly's own source changed (a child edited by hand): it is regenerated, not "passed".
    expect(lines).toContain('regenerate weekly/2026-W11.md → tentative');
    const copies = makeWorkspace({ 'memory/2026-03-11.md': '# 2026-03-11\n\n- one line\n' }, { timeZone: 'UTC' });
    await compact(copies, configOf(copies), { now: '2026-03-11', env: {} });
    expect(summary(plan(copies, '2026-03-11', {})).filter((l) => !l.includes('ROOT'))).toEqual([]);
  });
});
