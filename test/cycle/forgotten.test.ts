// Forgetting a day as the README says ("delete the daily node too and its week, month and ROOT
// are rebuilt without the day"): a week or month left with no day goes too, raw logs untouched.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycle, node, rawLog, rawLogHashes, statusOf } from '../helpers/tree.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const day = (date: string, words: string) => rawLog(date, { [`${words} [project]`]: [`decided ${words}`] });

function forget(ws: TestWorkspace, date: string): void {
  rmSync(join(ws.memoryDir, `${date}.md`));
  rmSync(join(ws.memoryDir, `daily/${date}.md`));
}

describe('a forgotten day', () => {
  it('takes its week along when it was the only day there; the month and ROOT are rebuilt without it', async () => {
    // 2026-11-10 is alone in 2026-W46 (Nov 9-15); 2026-11-20 is in 2026-W47.
    const ws = makeWorkspace({
      'memory/2026-11-10.md': day('2026-11-10', 'zebrafish'),
      'memory/2026-11-20.md': day('2026-11-20', 'kafka'),
    });
    await cycle(ws, '2026-11-26', { catchUp: true });
    expect(statusOf(ws, 'weekly/2026-W46.md')).toBe('fixed');
    forget(ws, '2026-11-10');
    const raws = rawLogHashes(ws);
    const r = await cycle(ws, '2026-11-26', { catchUp: true });
    expect(r.errors).toEqual([]);
    expect(r.applied.map((a) => `${a.record.action} ${a.record.node} → ${a.record.status}`)).toEqual([
      'remove memory/weekly/2026-W46.md → removed',
      'regenerate memory/monthly/2026-11.md → tentative',
      'regenerate memory/ROOT.md → tentative',
    ]);
    expect(r.written).toContain('weekly/2026-W46.md');
    expect(ws.exists('memory/weekly/2026-W46.md')).toBe(false);
    expect(node(ws, 'monthly/2026-11.md').data['source-files']).toEqual(['memory/weekly/2026-W47.md']);
    expect(ws.read('memory/ROOT.md')).not.toContain('zebrafish');
    expect(rawLogHashes(ws)).toEqual(raws);
    // Nothing is left to do, and nothing to say.
    const again = await cycle(ws, '2026-11-26', { catchUp: true });
    expect(again.cycles).toBe(0);
    expect(again.remaining.attention).toEqual([]);
  });

  it("takes its month along when it was the month's only day, and ROOT no longer covers the month", async () => {
    const ws = makeWorkspace({
      'memory/2062-11-20.md': day('2062-11-20', 'zebrafish'),
      'memory/2062-12-02.md': day('2062-12-02', 'kafka'),
    });
    await cycle(ws, '2062-12-03', { catchUp: true });
    expect(node(ws, 'ROOT.md').data['months-covered']).toBe('2062-11 to 2062-12 (2 months)');
    forget(ws, '2062-11-20');
    const r = await cycle(ws, '2062-12-03', { catchUp: true });
    expect(r.applied.map((a) => `${a.record.action} ${a.record.node}`)).toEqual([
      'remove memory/weekly/2062-W47.md',
      'remove memory/monthly/2062-11.md',
      'regenerate memory/ROOT.md',
    ]);
    expect(ws.files('memory/monthly')).toEqual(['memory/monthly/2062-12.md']);
    expect(node(ws, 'ROOT.md').data['months-covered']).toBe('2062-12 (1 month)');
    expect(ws.read('memory/ROOT.md')).not.toContain('zebrafish');
    // The last day forgotten too: ROOT stays, covering nothing.
    forget(ws, '2062-12-02');
    await cycle(ws, '2062-12-03', { catchUp: true });
    expect(ws.files('memory').filter((f) => !f.startsWith('memory/edits/'))).toEqual(['memory/ROOT.md']);
    expect(node(ws, 'ROOT.md').data['months-covered']).toBe('none');
    expect(ws.read('memory/ROOT.md')).not.toContain('kafka');
  });

  it('keeps a hand edit of a tentative week it removes in edits/, and a fixed one edited by hand in place', async () => {
    const ws = makeWorkspace({
      'memory/2026-11-10.md': day('2026-11-10', 'zebrafish'),
      'memory/2026-11-20.md': day('2026-11-20', 'kafka'),
    });
    await cycle(ws, '2026-11-21', { catchUp: true });
    // W47 (Nov 16-22) is still open on the 21st; W46 is over but not yet fixed (7 days' grace).
    const w46 = `${ws.read('memory/weekly/2026-W46.md')}\n- my own note on W46\n`;
    const w47 = `${ws.read('memory/weekly/2026-W47.md')}\n- my own note on W47\n`;
    ws.write('memory/weekly/2026-W46.md', w46);
    ws.write('memory/weekly/2026-W47.md', w47);
    forget(ws, '2026-11-20');
    const r = await cycle(ws, '2026-11-21', { catchUp: true });
    expect(ws.exists('memory/weekly/2026-W47.md')).toBe(false);
    const saved = ws.files('memory/edits');
    expect(saved).toEqual([expect.stringMatching(/^memory\/edits\/weekly\/2026-W47\.edited-.*\.md$/)]);
    expect(ws.read(saved[0]!)).toBe(w47);
    expect(r.warnings).toContain(
      `memory/weekly/2026-W47.md: edited by hand; removed with its period's days, the edited version kept as ${saved[0]}`,
    );
    // hipo status says so too: the node is gone, not regenerated.
    expect(runCli(['status', '--now', '2026-11-21', '--dir', ws.root]).stdout).toContain(
      `edited by hand, then removed with its period's days: memory/weekly/2026-W47.md (`,
    );
    // Once W46 is fixed, its hand edit is never removed: said instead.
    await cycle(ws, '2026-11-30', { catchUp: true });
    expect(statusOf(ws, 'weekly/2026-W46.md')).toBe('fixed');
    forget(ws, '2026-11-10');
    const later = await cycle(ws, '2026-11-30', { catchUp: true });
    expect(ws.read('memory/weekly/2026-W46.md')).toContain('my own note on W46');
    expect(later.remaining.attention).toEqual([
      {
        relPath: 'weekly/2026-W46.md',
        message: 'every day of its period is gone, but this fixed node was edited by hand; not removed (delete it to forget the period)',
      },
    ]);
  });
});
