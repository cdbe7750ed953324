// Hand edits to any node are never lost: a fixed node that was edited is kept as it is; a
// tentative node or ROOT.md that hipo regenerates is first saved under memory/edits/, and the
// copy is named in compact's output, the journal and hipo status.
import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/time/calendar.js';
import { splitFrontmatter } from '../../src/tree/frontmatter.js';
import { cycle, node, rawLog } from '../helpers/tree.js';
import { journalRecords as journal, makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';
import { figure, scale } from './scale.js';

function compact(ws: TestWorkspace, now: string): { code: number | null; warnings: string[]; attention: string[] } {
  const r = runCli(['compact', '--catch-up', '--json', '--now', now, '--dir', ws.root]);
  const j = JSON.parse(r.stdout) as { warnings: string[]; plan: { attention: { relPath: string; message: string }[] } };
  return { code: r.code, warnings: j.warnings, attention: j.plan.attention.map((a) => `memory/${a.relPath}: ${a.message}`) };
}

/** Adds a line to a node's body, as a person editing it would. */
function edit(ws: TestWorkspace, rel: string, line: string): string {
  appendFileSync(join(ws.memoryDir, rel), `\n${line}\n`);
  return ws.read(`memory/${rel}`);
}

describe('faults: hand edits', () => {
  it('saves an edited tentative node and ROOT.md before regenerating them, and says where', () => {
    const ws = makeWorkspace({
      'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices to the new queue'] }),
    });
    expect(compact(ws, '2026-03-16').code).toBe(0);
    const daily = edit(ws, 'daily/2026-03-16.md', '- MY-DAILY-EDIT: the queue is called invoices-v2');
    const root = edit(ws, 'ROOT.md', '- MY-ROOT-EDIT: ask Dana before touching billing');
    appendFileSync(join(ws.memoryDir, '2026-03-16.md'), '\n## later [project]\n- a late entry\n');

    const r = compact(ws, '2026-03-17');
    expect(r.code).toBe(0);
    const savedDaily = 'memory/edits/daily/2026-03-16.edited-2026-03-17T12-00-00Z.md';
    const savedRoot = 'memory/edits/ROOT.edited-2026-03-17T12-00-00Z.md';
    expect(r.warnings).toContain(
      `memory/daily/2026-03-16.md: edited by hand; regenerated from its sources, the edited version kept as ${savedDaily}`,
    );
    expect(r.warnings).toContain(`memory/ROOT.md: edited by hand; regenerated from its sources, the edited version kept as ${savedRoot}`);
    expect(ws.read(savedDaily)).toBe(daily);
    expect(ws.read(savedRoot)).toBe(root);
    expect(ws.read('memory/daily/2026-03-16.md')).toContain('a late entry');
    expect(
      journal(ws)
        .filter((j) => j.handEdit)
        .map((j) => [j.node, j.handEdit]),
    ).toEqual([
      ['memory/daily/2026-03-16.md', savedDaily],
      ['memory/ROOT.md', savedRoot],
    ]);
    const status = JSON.parse(runCli(['status', '--json', '--now', '2026-03-17', '--dir', ws.root]).stdout);
    expect(status.handEdits.saved.map((s: { node: string; savedTo: string }) => s.savedTo).sort()).toEqual([savedRoot, savedDaily].sort());
    expect(runCli(['status', '--now', '2026-03-17', '--dir', ws.root]).stdout).toContain(
      `edited by hand, then regenerated: memory/ROOT.md (`,
    );
    // The copies are not nodes: the next run changes nothing.
    expect(compact(ws, '2026-03-17').warnings).toEqual([]);
  });

  it('keeps an edited fixed node as it is and reports it', () => {
    const ws = makeWorkspace({ 'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices'] }) });
    expect(compact(ws, '2026-03-18').code).toBe(0);
    const edited = edit(ws, 'daily/2026-03-16.md', '- MY-FIXED-EDIT');
    appendFileSync(join(ws.memoryDir, '2026-03-16.md'), '\n## late [project]\n- late input\n');
    const r = compact(ws, '2026-03-18');
    expect(ws.read('memory/daily/2026-03-16.md')).toBe(edited);
    expect(r.attention.join('\n')).toContain(
      'memory/daily/2026-03-16.md: raw log 2026-03-16.md changed after this fixed node was edited by hand; not rewritten',
    );
    const status = JSON.parse(runCli(['status', '--json', '--now', '2026-03-18', '--dir', ws.root]).stdout);
    expect(status.handEdits.current).toContainEqual({ node: 'memory/daily/2026-03-16.md', status: 'fixed' });
  });

  // A key of one's own (Obsidian's tags) leaves the body as hipo wrote it: not a hand edit, so no
  // copy under edits/ would hold it, and a new version without it loses it without a trace.
  it("carries the frontmatter keys a person added into the node's new version", () => {
    const ws = makeWorkspace({
      'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices'] }),
      'memory/2026-03-17.md': rawLog('2026-03-17', { 'billing [project]': ['queue drained'] }),
    });
    expect(compact(ws, '2026-03-17').code).toBe(0);
    const tag = (rel: string, yaml: string): void => {
      const text = ws.read(`memory/${rel}`);
      writeFileSync(join(ws.memoryDir, rel), text.replace(/\nbody-hash: /, `\n${yaml}\nbody-hash: `));
    };
    tag('daily/2026-03-16.md', 'aliases: [queue move]'); // fixed: amended below
    tag('daily/2026-03-17.md', 'tags: [billing, follow-up]\nreviewed: true'); // tentative: regenerated below
    tag('ROOT.md', 'cssclasses: [wide]');
    appendFileSync(join(ws.memoryDir, '2026-03-16.md'), '\n## late [project]\n- a late entry\n');
    appendFileSync(join(ws.memoryDir, '2026-03-17.md'), '\n## later [project]\n- another entry\n');

    const r = compact(ws, '2026-03-17');
    expect([r.code, r.warnings]).toEqual([0, []]);
    expect(node(ws, 'daily/2026-03-16.md').body).toContain('a late entry');
    expect(node(ws, 'daily/2026-03-16.md').data.aliases).toEqual(['queue move']);
    expect(node(ws, 'daily/2026-03-17.md').body).toContain('another entry');
    expect(node(ws, 'daily/2026-03-17.md').data).toMatchObject({ tags: ['billing', 'follow-up'], reviewed: true });
    expect(node(ws, 'ROOT.md').data.cssclasses).toEqual(['wide']);
    // Kept, not frozen: the node is hipo's as before, and the next run changes nothing.
    expect(JSON.parse(runCli(['status', '--json', '--now', '2026-03-17', '--dir', ws.root]).stdout).handEdits.current).toEqual([]);
    const before = ws.hashes('memory');
    expect(compact(ws, '2026-03-17').warnings).toEqual([]);
    expect(ws.hashes('memory')).toEqual(before);
  });

  // A person's editor may save between hipo reading a node and renaming the new version over it;
  // the executor's beforeReplace seam saves the edit exactly there.
  it('keeps an edit saved while hipo regenerates the node', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices'] }) });
    await cycle(ws, '2026-03-16');
    appendFileSync(join(ws.memoryDir, '2026-03-16.md'), '\n## later [project]\n- a late entry\n');
    let edited = '';
    const r = await cycle(ws, '2026-03-16', {
      beforeReplace: (rel) => {
        if (rel === 'daily/2026-03-16.md' && !edited) edited = edit(ws, rel, '- MID-WRITE-EDIT');
      },
    });
    const saved = 'memory/edits/daily/2026-03-16.edited-2026-03-16T12-00-00Z.md';
    expect(r.errors).toEqual([]);
    expect(r.warnings).toContain(
      `memory/daily/2026-03-16.md: edited by hand; regenerated from its sources, the edited version kept as ${saved}`,
    );
    expect(ws.read(saved)).toBe(edited);
    expect(ws.read('memory/daily/2026-03-16.md')).toContain('a late entry');
  });

  it('leaves a node an editor has emptied to save it in place, and keeps what the editor then writes', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices'] }) });
    await cycle(ws, '2026-03-16');
    appendFileSync(join(ws.memoryDir, '2026-03-16.md'), '\n## later [project]\n- a late entry\n');
    const before = ws.read('memory/daily/2026-03-16.md');
    const r = await cycle(ws, '2026-03-16', {
      beforeReplace: (rel) => {
        if (rel === 'daily/2026-03-16.md') writeFileSync(join(ws.memoryDir, rel), '');
      },
    });
    expect(r.errors).toEqual([
      'memory/daily/2026-03-16.md: empty, as a file is while an editor saves it: not written; looked at again next run',
    ]);
    expect(ws.read('memory/daily/2026-03-16.md')).toBe('');
    // The editor's write lands: the next run keeps it as a hand edit before regenerating.
    writeFileSync(join(ws.memoryDir, 'daily/2026-03-16.md'), `${before}\n- SAVED-IN-PLACE\n`);
    const next = await cycle(ws, '2026-03-16');
    expect(next.errors).toEqual([]);
    expect(ws.files('memory/edits').some((f) => ws.read(f).includes('- SAVED-IN-PLACE'))).toBe(true);
    expect(ws.read('memory/daily/2026-03-16.md')).toContain('a late entry');
  });

  it('keeps an edit whose save the scan caught half done, and rebuilds a node left empty', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices'] }) });
    await cycle(ws, '2026-03-16');
    appendFileSync(join(ws.memoryDir, '2026-03-16.md'), '\n## later [project]\n- a late entry\n');
    const before = ws.read('memory/daily/2026-03-16.md');
    // The scan finds the node emptied by an editor saving in place; the save ends before the write.
    writeFileSync(join(ws.memoryDir, 'daily/2026-03-16.md'), '');
    const r = await cycle(ws, '2026-03-16', {
      onProgress: (p) => {
        if (p.detail === 'daily/2026-03-16.md') writeFileSync(join(ws.memoryDir, p.detail), `${before}\n- SAVED-MID-SCAN\n`);
      },
    });
    const saved = 'memory/edits/daily/2026-03-16.edited-2026-03-16T12-00-00Z.md';
    expect(r.warnings).toContain(
      `memory/daily/2026-03-16.md: edited by hand; regenerated from its sources, the edited version kept as ${saved}`,
    );
    expect(ws.read(saved)).toContain('- SAVED-MID-SCAN');
    // Empty for longer than a save takes: rebuilt, as before.
    writeFileSync(join(ws.memoryDir, 'daily/2026-03-16.md'), '');
    utimesSync(join(ws.memoryDir, 'daily/2026-03-16.md'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect((await cycle(ws, '2026-03-16')).errors).toEqual([]);
    expect(ws.read('memory/daily/2026-03-16.md')).toContain('a late entry');
  });

  it('keeps an edit saved while hipo fixes the node in the fixed node', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices'] }) });
    await cycle(ws, '2026-03-16');
    let edited = '';
    const r = await cycle(ws, '2026-03-18', {
      beforeReplace: (rel) => {
        if (rel === 'daily/2026-03-16.md' && !edited) edited = edit(ws, rel, '- MID-FIX-EDIT');
      },
    });
    expect(r.errors).toEqual([]);
    expect(node(ws, 'daily/2026-03-16.md').data.status).toBe('fixed');
    expect(node(ws, 'daily/2026-03-16.md').body).toBe(splitFrontmatter(edited).body);
  });

  it('leaves a node that keeps changing while hipo writes it to the next run, every version kept', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-16.md': rawLog('2026-03-16', { 'billing [project]': ['moved invoices'] }) });
    await cycle(ws, '2026-03-16');
    appendFileSync(join(ws.memoryDir, '2026-03-16.md'), '\n## later [project]\n- a late entry\n');
    let n = 0;
    const r = await cycle(ws, '2026-03-16', {
      beforeReplace: (rel) => {
        if (rel === 'daily/2026-03-16.md') edit(ws, rel, `- EDIT-${++n}`);
      },
    });
    expect(r.errors).toEqual(['memory/daily/2026-03-16.md: changed 3 times while being written; tried again next run']);
    expect(ws.read('memory/daily/2026-03-16.md')).toContain('- EDIT-3');
    // The versions with the first two edits, read before each try, are kept beside it.
    expect(ws.files('memory/edits').map((f) => ws.read(f).includes('- EDIT-2') && !ws.read(f).includes('- EDIT-3'))).toContain(true);
    const next = await cycle(ws, '2026-03-16');
    expect(next.errors).toEqual([]);
    expect(ws.read('memory/daily/2026-03-16.md')).toContain('a late entry');
    expect(ws.files('memory/edits').some((f) => ws.read(f).includes('- EDIT-3'))).toBe(true);
  });

  it(
    'loses no hand edit over days of edits to every kind of node',
    () => {
      const days = scale(14, 60);
      const ws = makeWorkspace({}, { timeZone: 'UTC', compaction: { graceDays: 2 } });
      let seed = 17;
      const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      const edits: { rel: string; marker: string }[] = [];
      let date = '2026-03-02';
      for (let d = 0; d < days; d++) {
        ws.write(`memory/${date}.md`, rawLog(date, { [`work ${d} [project]`]: [`did task ${d}`, `decided detail ${d}`] }));
        if (d % 3 === 1)
          appendFileSync(join(ws.memoryDir, `${addDays(date as never, -1)}.md`), `\n## late ${d} [project]\n- late note ${d}\n`);
        expect(compact(ws, date).code).toBe(0);
        // Edit two nodes of any level and status, as a person would.
        const nodes = ws
          .files('memory')
          .filter((f) => /^memory\/(daily|weekly|monthly)\/|^memory\/ROOT\.md$/.test(f))
          .map((f) => f.slice('memory/'.length));
        for (let k = 0; k < 2 && nodes.length; k++) {
          const rel = nodes[rand(nodes.length)]!;
          const marker = `HAND-EDIT-${d}-${k}`;
          edit(ws, rel, `- ${marker}`);
          edits.push({ rel, marker });
        }
        date = addDays(date as never, 1);
      }
      expect(compact(ws, date).code).toBe(0);
      const savedCopies = ws.files('memory/edits');
      const lost = edits.filter(({ rel, marker }) => {
        if (ws.read(`memory/${rel}`).includes(marker)) return false;
        const base = `memory/edits/${rel.replace(/\.md$/, '')}.edited-`;
        return !savedCopies.some((f) => f.startsWith(base) && readFileSync(join(ws.root, f), 'utf8').includes(marker));
      });
      figure('hand edits', { days, edits: edits.length, savedCopies: savedCopies.length, lost: lost.length });
      expect(lost).toEqual([]);
    },
    scale(120_000, 600_000),
  );
});
