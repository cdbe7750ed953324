// `hipo context` and the SessionStart hook: ROOT plus a hierarchical, budgeted, deterministic pack.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceAt } from '../../src/tree/layout.js';
import { generateCorpus } from '../../bench/lib/corpus.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';

const NOW = '2026-04-20';

// One compacted 109-day corpus shared by the tests that only read it.
let shared: TestWorkspace;
beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), 'hipo-context-'));
  mkdirSync(join(root, 'memory'));
  writeFileSync(join(root, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
  generateCorpus(join(root, 'memory'), { start: '2026-01-01', days: 109, seed: 11 });
  expect(runCli(['compact', '--dir', root, '--catch-up', '--now', NOW]).code).toBe(0);
  shared = { ...workspaceAt(root), read: (rel: string) => readFileSync(join(root, rel), 'utf8') } as TestWorkspace;
}, 60_000);
afterAll(() => rmSync(shared.root, { recursive: true, force: true }));

function compactedCorpus(): TestWorkspace {
  return shared;
}

function context(ws: TestWorkspace, ...args: string[]) {
  const r = runCli(['context', '--dir', ws.root, '--now', NOW, ...args]);
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('hipo context', () => {
  it('gives ROOT, then monthly, weekly and daily nodes and the newest raw entries, under the budget, the same every time', () => {
    const ws = compactedCorpus();
    const text = context(ws);
    expect(text.startsWith('# Memory context · 2026-04-20 (UTC)\n')).toBe(true);
    expect(text).not.toMatch(/^status: /m); // no frontmatter
    const order = ['## ROOT · ROOT.md', '· monthly/', '· weekly/', '· daily/', '## Latest entries · 2026-04-19.md'].map((s) =>
      text.indexOf(s),
    );
    for (const i of order) expect(i).toBeGreaterThan(0);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(context(ws)).toBe(text);

    for (const budget of [300, 1000, 2000, 6000]) {
      const j = JSON.parse(context(ws, '--budget', String(budget), '--json'));
      expect(j.total).toBeLessThanOrEqual(budget);
      expect(j.unit).toBe('tokens');
      const sum = Object.values(j.spent as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(sum).toBeLessThanOrEqual(j.total);
      expect(j.omitted.some((o: { level: string }) => o.level === 'older')).toBe(true);
    }
    const big = JSON.parse(context(ws, '--budget', '6000', '--json'));
    const small = JSON.parse(context(ws, '--budget', '1000', '--json'));
    expect(big.included.length).toBeGreaterThan(small.included.length);
    for (const level of ['root', 'monthly', 'weekly', 'daily', 'raw']) expect(big.spent[level]).toBeGreaterThan(0);
    // Detail falls with age: the newest daily gets at least as much as any older one.
    const dailies = big.included
      .filter((p: { level: string }) => p.level === 'daily')
      .sort((a: { period: string }, b: { period: string }) => (a.period < b.period ? 1 : -1));
    expect(dailies[0].cost).toBeGreaterThanOrEqual(Math.max(...dailies.slice(1).map((d: { cost: number }) => d.cost)) * 0.5);
  });

  it('prefers what the query mentions', () => {
    const ws = compactedCorpus();
    const plain = JSON.parse(context(ws, '--budget', '1500', '--json'));
    const weekly = plain.omitted.find((o: { level: string }) => o.level === 'weekly');
    expect(weekly).toBeDefined();
    const body = ws.read(weekly.path);
    const word = /^- ([a-z]+ [a-z]+) \[project\]/m.exec(body.split('## Topics')[1]!)![1]!;
    const q = JSON.parse(context(ws, '--budget', '1500', '--json', '--query', word));
    expect(q.text).toContain(word);
  });

  it('moves ROOT topic ages forward to today', () => {
    const ws = makeWorkspace({
      'memory/ROOT.md':
        '---\ntype: root\nstatus: tentative\nlast-updated: 2026-03-10\n---\n\n## Topics Index\n- billing [project, 5d]: stripe → daily/2026-03-05.md\n',
    });
    const text = runCli(['context', '--dir', ws.root, '--now', '2026-03-15']).stdout;
    expect(text).toContain('- billing [project, 10d]: stripe → daily/2026-03-05.md');
    expect(text).not.toContain('last-updated');
  });
});

describe('hipo hook SessionStart', () => {
  const SESSION = '7c1e2d3f-aaaa-4bbb-8ccc-000000000001';

  it('prints the hook JSON with ROOT and the pack as additionalContext, under the character budget', () => {
    const ws = compactedCorpus();
    for (const source of ['startup', 'resume', 'clear', 'compact']) {
      const r = runCli(['hook', 'SessionStart', '--dir', ws.root, '--now', NOW], {
        input: hookJson('SessionStart', { session_id: SESSION, source, cwd: ws.root, transcript_path: '' }),
      });
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
      expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
      const ctx: string = out.hookSpecificOutput.additionalContext;
      expect(ctx.length).toBeLessThanOrEqual(8000);
      expect(ctx.length).toBeGreaterThan(4000);
      expect(ctx).toContain('## ROOT · ROOT.md');
      expect(ctx).toContain('### Topics Index');
    }
    const config = join(ws.root, 'hipo.config.json');
    writeFileSync(config, JSON.stringify({ timeZone: 'UTC', agents: { sessionStartChars: 1500 } }));
    try {
      const r = runCli(['hook', 'SessionStart', '--dir', ws.root, '--now', NOW], {
        input: hookJson('SessionStart', { session_id: SESSION, source: 'startup' }),
      });
      expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(1500);
    } finally {
      writeFileSync(config, JSON.stringify({ timeZone: 'UTC' }));
    }
  });

  it('works on an empty workspace, and finds the workspace from the hook cwd', () => {
    const ws = makeWorkspace();
    ws.write('src/app/x.ts', '');
    const r = runCli(['hook', 'SessionStart'], {
      input: hookJson('SessionStart', { session_id: SESSION, source: 'startup', cwd: join(ws.root, 'src', 'app') }),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toMatch(/^# Memory context/);
  });

  it("after compact, brings back this session's archived turns most relevant to the latest prompts", () => {
    const ws = makeWorkspace();
    const w = new TranscriptWriter(SESSION, '2026-03-15T08:00:00.000Z');
    w.user('Set the kafka retention for the audit topic')
      .assistant('Set audit topic retention.ms to 2592000000 (30 days) in infra/kafka/topics.tf.')
      .tool('Edit', { file_path: 'infra/kafka/topics.tf' });
    for (let i = 0; i < 30; i++)
      w.user(`Unrelated chore ${i}: rename the css class btn-${i}`).assistant(`Renamed btn-${i} in styles/buttons.css.`);
    w.user('What was the kafka retention we chose for audit?');
    const t = w.writeTo(join(ws.root, 's.jsonl'));
    const input = (event: string, extra: Record<string, unknown> = {}) =>
      hookJson(event, { session_id: SESSION, transcript_path: t, cwd: ws.root, ...extra });
    runCli(['hook', 'SessionStart', '--dir', ws.root, '--now', '2026-03-15'], { input: input('SessionStart', { source: 'startup' }) });
    runCli(['hook', 'PreCompact', '--dir', ws.root], { input: input('PreCompact', { trigger: 'auto' }) });
    const after = runCli(['hook', 'SessionStart', '--dir', ws.root, '--now', '2026-03-15'], {
      input: input('SessionStart', { source: 'compact' }),
    });
    const ctx: string = JSON.parse(after.stdout).hookSpecificOutput.additionalContext;
    expect(ctx).toContain('## This session before compaction');
    expect(ctx).toContain('retention.ms to 2592000000');
    expect(ctx).toContain('What was the kafka retention we chose for audit?');
    expect(ctx.length).toBeLessThanOrEqual(8000);
    const fresh = runCli(['hook', 'SessionStart', '--dir', ws.root, '--now', '2026-03-15'], {
      input: input('SessionStart', { source: 'startup' }),
    });
    expect(JSON.parse(fresh.stdout).hookSpecificOutput.additionalContext).not.toContain('This session before compaction');
  });
});
