import { chmodSync, mkdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/cycle/compaction.js';
import { cycle, node, nodeHashes, rawLog, statusOf } from '../helpers/tree.js';
import { configOf, makeWorkspace } from '../helpers/workspace.js';

const fiveDays = (ws: ReturnType<typeof makeWorkspace>) => {
  for (const date of ['2026-05-04', '2026-05-05', '2026-05-06', '2026-05-11', '2026-06-02']) {
    ws.write(`memory/${date}.md`, rawLog(date, { [`topic ${date} [project]`]: [`note for ${date}`] }));
  }
};

describe('per-cycle limits', () => {
  it('processes at most one node per level per cycle, most recent first', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    const r = await cycle(ws, '2026-06-20');
    expect(r.cycles).toBe(1);
    expect(r.written).toEqual(['daily/2026-06-02.md', 'weekly/2026-W23.md', 'monthly/2026-06.md']);
    // Next comes the next most recent day (and its week, which has no other day); ROOT waits
    // for the May monthly node, which waits for its days.
    expect(r.remaining.actions.map((a) => `${a.kind} ${a.relPath}`)).toEqual(['create daily/2026-05-11.md', 'create weekly/2026-W20.md']);
    expect(r.remaining.deferred.map((d) => d.relPath)).toEqual(
      expect.arrayContaining(['daily/2026-05-06.md', 'monthly/2026-05.md', 'ROOT.md']),
    );
    const second = await cycle(ws, '2026-06-20');
    expect(second.written[0]).toBe('daily/2026-05-11.md');
  });

  it('honours configured limits', async () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', compaction: { limits: { daily: 3, weekly: 1, monthly: 1, root: 1 } } });
    fiveDays(ws);
    const r = await cycle(ws, '2026-06-20');
    expect(r.written.filter((p) => p.startsWith('daily/'))).toEqual(['daily/2026-06-02.md', 'daily/2026-05-11.md', 'daily/2026-05-06.md']);
  });

  it('--catch-up runs cycles until nothing is left, and a second run writes nothing', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    const r = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(r.cycles).toBeGreaterThanOrEqual(5);
    expect(r.remaining.actions).toEqual([]);
    expect(r.remaining.deferred).toEqual([]);
    expect(ws.files('memory').filter((f) => !/\d{4}-\d{2}-\d{2}\.md$/.test(f) || f.includes('daily/'))).toEqual([
      'memory/ROOT.md',
      'memory/daily/2026-05-04.md',
      'memory/daily/2026-05-05.md',
      'memory/daily/2026-05-06.md',
      'memory/daily/2026-05-11.md',
      'memory/daily/2026-06-02.md',
      'memory/monthly/2026-05.md',
      'memory/monthly/2026-06.md',
      'memory/weekly/2026-W19.md',
      'memory/weekly/2026-W20.md',
      'memory/weekly/2026-W23.md',
    ]);
    const before = ws.hashes('memory');
    const again = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(again.written).toEqual([]);
    expect(again.cycles).toBe(0);
    expect(ws.hashes('memory')).toEqual(before);
  });
});

describe('change detection', () => {
  it('rewrites only the nodes whose sources changed', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    await cycle(ws, '2026-06-03', { catchUp: true });
    const before = ws.hashes('memory');
    ws.write(
      'memory/2026-06-02.md',
      rawLog('2026-06-02', { 'topic 2026-06-02 [project]': ['note for 2026-06-02', 'decided to add a line'] }),
    );
    const r = await cycle(ws, '2026-06-03');
    expect(r.written).toEqual(['daily/2026-06-02.md', 'weekly/2026-W23.md', 'monthly/2026-06.md', 'ROOT.md']);
    const after = ws.hashes('memory');
    const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
    expect(changed.sort()).toEqual([
      'memory/2026-06-02.md',
      'memory/ROOT.md',
      'memory/daily/2026-06-02.md',
      'memory/monthly/2026-06.md',
      'memory/weekly/2026-W23.md',
    ]);
  });

  it('uses the stamp cache: an unchanged size and mtime means the file is not re-read', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    await cycle(ws, '2026-06-20', { catchUp: true });
    // Same size, same mtime, different bytes: only a full re-read would notice.
    const abs = join(ws.memoryDir, '2026-05-04.md');
    const text = readFileSync(abs, 'utf8');
    ws.write('memory/2026-05-04.md', text.replace('note for', 'NOTE FOR'));
    utimesSync(abs, new Date('2026-05-04T12:00:00Z'), new Date('2026-05-04T12:00:00Z'));
    const first = await cycle(ws, '2026-06-20');
    expect(first.written).toContain('daily/2026-05-04.md'); // new mtime: noticed, amended
    const textAfter = readFileSync(abs);
    ws.write('memory/2026-05-04.md', textAfter.toString().replace('NOTE FOR', 'note for'));
    utimesSync(abs, new Date('2026-05-04T12:00:00Z'), new Date('2026-05-04T12:00:00Z'));
    const second = await cycle(ws, '2026-06-20');
    expect(second.written).toEqual([]);
  });

  it('leaves a fixed node edited by hand alone, and says so when its raw log changes', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    await cycle(ws, '2026-06-20', { catchUp: true });
    const edited = ws.read('memory/daily/2026-05-05.md') + '\n- my own note, added by hand\n';
    ws.write('memory/daily/2026-05-05.md', edited);
    ws.write('memory/2026-05-05.md', rawLog('2026-05-05', { 'topic 2026-05-05 [project]': ['note for 2026-05-05', 'a late line'] }));
    const r = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(ws.read('memory/daily/2026-05-05.md')).toBe(edited);
    expect(r.remaining.attention.map((a) => a.relPath)).toContain('daily/2026-05-05.md');
    // The weekly node picks up the hand edit (its child changed) and stays fixed.
    expect(node(ws, 'weekly/2026-W19.md').body).toContain('my own note, added by hand');
    expect(statusOf(ws, 'weekly/2026-W19.md')).toBe('fixed');
  });

  it('takes a node whose line endings or final blank lines changed for the one it wrote, not for a hand edit', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    await cycle(ws, '2026-06-20', { catchUp: true });
    // A Windows checkout (core.autocrlf) turns every node to CRLF; `echo >>` adds a blank line.
    for (const rel of Object.keys(nodeHashes(ws))) ws.write(rel, ws.read(rel).replace(/\n/g, '\r\n'));
    ws.write('memory/daily/2026-05-05.md', `${ws.read('memory/daily/2026-05-05.md')}\n`);
    const same = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(same.written).toEqual([]);
    expect(same.remaining.attention).toEqual([]);
    // A late line reaches the fixed day and its parents; nothing is taken for a hand edit.
    ws.write('memory/2026-05-05.md', rawLog('2026-05-05', { 'topic 2026-05-05 [project]': ['note for 2026-05-05', 'a late line'] }));
    const r = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(r.warnings).toEqual([]);
    expect(r.remaining.attention).toEqual([]);
    expect(node(ws, 'daily/2026-05-05.md').body).toContain('a late line');
    expect(node(ws, 'monthly/2026-05.md').body).toContain('a late line');
    for (const rel of ['memory/monthly/2026-05.md', 'memory/ROOT.md']) expect(ws.read(rel)).not.toContain('\r');
    expect(ws.files('memory/edits')).toEqual([]);
  });

  it('amends a fixed node (not edited by hand) when a late raw log arrives for its period', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    await cycle(ws, '2026-06-20', { catchUp: true });
    expect(statusOf(ws, 'weekly/2026-W19.md')).toBe('fixed');
    ws.write('memory/2026-05-07.md', rawLog('2026-05-07', { 'late import [project]': ['found an old note from May 7'] }));
    const r = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(r.applied.map((a) => `${a.record.action} ${a.record.node}`)).toEqual(
      expect.arrayContaining(['create memory/daily/2026-05-07.md', 'amend memory/weekly/2026-W19.md', 'amend memory/monthly/2026-05.md']),
    );
    expect(statusOf(ws, 'daily/2026-05-07.md')).toBe('fixed');
    expect(statusOf(ws, 'weekly/2026-W19.md')).toBe('fixed');
    expect(node(ws, 'weekly/2026-W19.md').body).toContain('found an old note from May 7');
    expect(node(ws, 'monthly/2026-05.md').body).toContain('found an old note from May 7');
  });

  it('regenerates a node deleted by hand', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    await cycle(ws, '2026-06-20', { catchUp: true });
    const before = ws.read('memory/weekly/2026-W19.md');
    ws.write('memory/weekly/2026-W19.md', '');
    const { rmSync } = await import('node:fs');
    rmSync(join(ws.memoryDir, 'weekly/2026-W19.md'));
    const r = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(r.written).toContain('weekly/2026-W19.md');
    expect(ws.read('memory/weekly/2026-W19.md')).toBe(before);
  });
});

describe("ROOT's settings", () => {
  it('rebuild ROOT the same day they change: its size cap, its template', async () => {
    const ws = makeWorkspace();
    for (let d = 1; d <= 28; d++) {
      const date = `2026-05-${String(d).padStart(2, '0')}`;
      ws.write(`memory/${date}.md`, rawLog(date, { [`subsystem${d} [project]`]: [`decided to rework subsystem${d} around queue${d}`] }));
    }
    await cycle(ws, '2026-06-20', { catchUp: true });
    const tokens = () => Number(node(ws, 'ROOT.md').data.tokens);
    expect(tokens()).toBeGreaterThan(500);
    expect((await cycle(ws, '2026-06-20', { catchUp: true })).cycles).toBe(0);
    ws.write('hipo.config.json', JSON.stringify({ timeZone: 'UTC', compaction: { rootMaxTokens: 400 } }));
    const r = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(r.applied.map((a) => `${a.record.action} ${a.record.node}`)).toEqual(['regenerate memory/ROOT.md']);
    expect(tokens()).toBeLessThanOrEqual(400);
    const template = readFileSync(join(__dirname, '../../templates/root.md'), 'utf8');
    ws.write('templates/root.md', `${template}\n## Ours\nA line of our own.\n`);
    await cycle(ws, '2026-06-20', { catchUp: true });
    expect(node(ws, 'ROOT.md').body).toContain('A line of our own.');
    expect((await cycle(ws, '2026-06-20', { catchUp: true })).cycles).toBe(0);
  });
});

describe('a node that cannot be written', () => {
  it('holds back its parents: the month is neither made nor fixed without that week, and is made once it can be', async () => {
    const ws = makeWorkspace();
    for (const date of ['2026-03-02', '2026-03-03', '2026-03-10'])
      ws.write(`memory/${date}.md`, rawLog(date, { [`topic ${date} [project]`]: [`note for ${date}`] }));
    // A folder where 2026-W10's node (Mar 2-8) goes: it cannot be written.
    mkdirSync(join(ws.memoryDir, 'weekly/2026-W10.md'), { recursive: true });
    const r = await cycle(ws, '2026-04-20', { catchUp: true });
    // (Tried in each cycle of the catch-up that still had work.)
    expect(new Set(r.errors.map((e) => e.replace(/: EISDIR.*/, ': EISDIR')))).toEqual(new Set(['memory/weekly/2026-W10.md: EISDIR']));
    expect(ws.exists('memory/monthly/2026-03.md')).toBe(false);
    expect(r.warnings).toContain(
      'memory/monthly/2026-03.md: not written: it waits for memory/weekly/2026-W10.md, which could not be written; tried again next run',
    );
    expect(r.remaining.actions.map((a) => `${a.kind} ${a.relPath}`)).toEqual(
      expect.arrayContaining(['create weekly/2026-W10.md', 'create monthly/2026-03.md']),
    );
    const { rmSync } = await import('node:fs');
    rmSync(join(ws.memoryDir, 'weekly/2026-W10.md'), { recursive: true });
    const fixed = await cycle(ws, '2026-04-20', { catchUp: true });
    expect(fixed.errors).toEqual([]);
    expect(statusOf(ws, 'monthly/2026-03.md')).toBe('fixed');
    expect(node(ws, 'monthly/2026-03.md').data.weeks).toEqual(['2026-W10', '2026-W11']);
  });
});

describe('raw logs are never modified', () => {
  it('keeps every raw log byte-identical through cycles, dry runs and failures', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    ws.write('memory/2026-06-03.md', '# 2026-06-03\r\n\r\n## crlf entry [project]\r\n- written on Windows\r\n');
    const raws = () => Object.fromEntries(Object.entries(ws.hashes('memory')).filter(([k]) => /^memory\/\d{4}-\d{2}-\d{2}\.md$/.test(k)));
    const before = raws();
    await compact(ws, configOf(ws), { now: '2026-06-20', dryRun: true });
    expect(raws()).toEqual(before);
    // A failing cycle: the daily folder is a file, so no daily node can be written.
    ws.write('memory/daily', 'not a folder');
    const failed = await cycle(ws, '2026-06-20', { catchUp: true });
    expect(failed.errors.length).toBeGreaterThan(0);
    expect(raws()).toEqual(before);
    const { rmSync } = await import('node:fs');
    rmSync(join(ws.memoryDir, 'daily'));
    await cycle(ws, '2026-06-20', { catchUp: true });
    expect(raws()).toEqual(before);
    chmodSync(ws.memoryDir, 0o755);
  });
});

describe('dry run', () => {
  it('prints the plan and writes nothing at all, not even .hipo/', async () => {
    const ws = makeWorkspace();
    fiveDays(ws);
    const before = ws.hashes();
    const r = await compact(ws, configOf(ws), { now: '2026-06-20', dryRun: true });
    expect(r.plan.actions.map((a) => `${a.kind} ${a.relPath}`)).toEqual([
      'create daily/2026-06-02.md',
      'create weekly/2026-W23.md',
      'create monthly/2026-06.md',
    ]);
    expect(r.plan.actions[0]!.reason).toBe('new raw log');
    expect(ws.hashes()).toEqual(before);
    expect(ws.exists('.hipo')).toBe(false);
  });
});

describe('catch-up on two cores', () => {
  it('builds the same bytes whether daily nodes come from the worker (CLI) or the main thread', async () => {
    const { generateCorpus } = await import('../../bench/lib/corpus.js');
    const { runCli } = await import('../helpers/workspace.js');
    const viaCli = makeWorkspace();
    const inProcess = makeWorkspace();
    for (const ws of [viaCli, inProcess]) generateCorpus(ws.memoryDir, { start: '2026-01-05', days: 40, seed: 5 });
    const r = runCli(['compact', '--catch-up', '--now', '2026-03-01', '--dir', viaCli.root]);
    expect(r.code).toBe(0);
    await cycle(inProcess, '2026-03-01', { catchUp: true });
    expect(viaCli.hashes('memory')).toEqual(inProcess.hashes('memory'));
    expect(Object.keys(viaCli.hashes('memory/daily')).length).toBeGreaterThan(20);
  });
});
