// ROOT's Active Context after the user was away: its heading says "recent ~7 days", so ROOT and
// the session-start pack say, right under it, when the last activity was and how long before
// today; while the activity is recent, neither says anything new.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycle, node, rawLog, sessionPack } from '../helpers/tree.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';
import { hookJson } from '../helpers/transcript.js';

const HEADING = '## Active Context (recent ~7 days)';

/** Three days of work, the last on 2026-03-05. */
function workspace(): TestWorkspace {
  return makeWorkspace({
    'memory/2026-03-03.md': rawLog('2026-03-03', { 'billing cron': ['moved the billing cron to 03:00'] }),
    'memory/2026-03-04.md': rawLog('2026-03-04', { staging: ['the staging database is full again'] }),
    'memory/2026-03-05.md': rawLog('2026-03-05', { 'search migration': ['decided to move search to Postgres'] }),
  });
}

/** The lines of the pack's Active Context, its heading first. */
function packActive(ws: TestWorkspace, today: string, activeContextDays?: number): string[] {
  const text = sessionPack(ws, today, activeContextDays === undefined ? {} : { activeContextDays }).text;
  return text.split(`#${HEADING}\n`)[1]!.split('\n\n')[0]!.split('\n');
}

const rootActive = (ws: TestWorkspace): string[] => node(ws, 'ROOT.md').body.split(`${HEADING}\n`)[1]!.split('\n\n')[0]!.split('\n');

describe('Active Context after a long gap', () => {
  it('ROOT written 15 days after the last activity says so under the heading, and the pack counts on from there', async () => {
    const ws = workspace();
    await cycle(ws, '2026-03-20', { catchUp: true });
    const root = node(ws, 'ROOT.md').body;
    expect(root).toContain(
      `${HEADING}\n- Last active 2026-03-05, 15 days before today (2026-03-20): nothing in the last 7 days.\n- 03-05 ·`,
    );
    expect(rootActive(ws).filter((l) => l.startsWith('- Last active'))).toHaveLength(1);

    expect(packActive(ws, '2026-03-20', 7)[0]).toBe(
      '- Last active 2026-03-05, 15 days before today (2026-03-20): nothing in the last 7 days.',
    );
    // Five days on, without a new ROOT: the count moves forward with the topic ages.
    const later = sessionPack(ws, '2026-03-25', { activeContextDays: 7 }).text;
    expect(later).toContain('## ROOT · ROOT.md (ages moved forward 5d from 2026-03-20)');
    expect(packActive(ws, '2026-03-25', 7)[0]).toBe(
      '- Last active 2026-03-05, 20 days before today (2026-03-25): nothing in the last 7 days.',
    );
    // A reader that knows no window (`hipo recall`) re-dates ROOT's line all the same.
    expect(packActive(ws, '2026-03-25')[0]).toBe(
      '- Last active 2026-03-05, 20 days before today (2026-03-25): nothing in the last 7 days.',
    );

    // The same files on the same date: the same ROOT.
    const before = ws.read('memory/ROOT.md');
    rmSync(join(ws.memoryDir, 'ROOT.md'));
    await cycle(ws, '2026-03-20', { catchUp: true });
    expect(ws.read('memory/ROOT.md')).toBe(before);
  });

  it('a ROOT written while the work was recent gets the line in the pack once the window has passed', async () => {
    const ws = workspace();
    await cycle(ws, '2026-03-05', { catchUp: true });
    expect(rootActive(ws)[0]).toMatch(/^- 03-05 · /);
    expect(node(ws, 'ROOT.md').body).not.toContain('Last active');
    expect(packActive(ws, '2026-03-05', 7)[0]).toMatch(/^- 03-05 · /);
    expect(packActive(ws, '2026-03-11', 7)[0]).toMatch(/^- 03-05 · /);
    expect(packActive(ws, '2026-03-12', 7)[0]).toBe(
      '- Last active 2026-03-05, 7 days before today (2026-03-12): nothing in the last 7 days.',
    );
    // The hook passes the configured window: ROOT has no line of its own to re-date.
    const r = runCli(['hook', 'SessionStart', '--dir', ws.root, '--now', '2026-03-20'], {
      input: hookJson('SessionStart', { session_id: 's', source: 'startup', cwd: ws.root, transcript_path: '' }),
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(
      `#${HEADING}\n- Last active 2026-03-05, 15 days before today (2026-03-20): nothing in the last 7 days.\n`,
    );
    // A log written since ROOT is the newer activity; a recent one leaves the section as it is.
    ws.write('memory/2026-03-10.md', rawLog('2026-03-10', { staging: ['grew the staging disk'] }));
    expect(packActive(ws, '2026-03-20', 7)[0]).toBe(
      '- Last active 2026-03-10, 10 days before today (2026-03-20): nothing in the last 7 days.',
    );
    expect(packActive(ws, '2026-03-12', 7)[0]).toMatch(/^- 03-05 · /);
  });

  it('recent activity: ROOT and the pack are as they were', async () => {
    const ws = workspace();
    await cycle(ws, '2026-03-11', { catchUp: true });
    expect(node(ws, 'ROOT.md').body).not.toContain('Last active');
    expect(rootActive(ws)[0]).toMatch(/^- 03-05 · /);
    expect(packActive(ws, '2026-03-11', 7)[0]).toMatch(/^- 03-05 · /);
  });

  it('the line stays right under the heading when the pack trims ROOT for a query', async () => {
    const ws = workspace();
    await cycle(ws, '2026-03-20', { catchUp: true });
    const text = sessionPack(ws, '2026-03-20', { activeContextDays: 7, budget: 1200, query: 'staging billing search' }).text;
    expect(text).toContain(`#${HEADING}\n- Last active 2026-03-05, 15 days before today (2026-03-20)`);
  });
});
