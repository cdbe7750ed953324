// Awareness: the agent that starts a session knows what its memory holds. On the bundled example
// memory, every fact its logs type as `[user]` or `[feedback]` reaches the SessionStart pack, and
// the agent-written project memory (decisions, open items, projects) is still in ROOT and the pack.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, makeWorkspace, runCli } from '../helpers/workspace.js';
import { hookJson } from '../helpers/transcript.js';

const words = (t: string): string => ` ${(t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')} `;

/** The example's raw logs, and the items of their typed user and feedback sections. */
function example(): { files: Record<string, string>; facts: { type: string; text: string }[]; last: string } {
  const dir = join(REPO, 'memory');
  const files: Record<string, string> = {};
  const facts: { type: string; text: string }[] = [];
  const days = readdirSync(dir)
    .filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n))
    .sort();
  for (const f of days) {
    const text = readFileSync(join(dir, f), 'utf8');
    files[`memory/${f}`] = text;
    for (const section of text.split(/^(?=## )/m)) {
      const m = /^## .*\[(user|feedback)\]/.exec(section);
      if (!m) continue;
      const items = [...section.matchAll(/^- (.*)$/gm)].map((x) => x[1]!.trim());
      if (m[1] === 'user') facts.push(...items.map((text) => ({ type: 'user', text })));
      else facts.push({ type: 'feedback', text: items[0]!.replace(/^rule:\s*/i, '') });
    }
  }
  return { files, facts, last: days[days.length - 1]!.slice(0, 10) };
}

describe('awareness on the example memory', () => {
  it('every typed user and feedback fact is in the SessionStart pack, ahead of the recent context', () => {
    const ex = example();
    expect(ex.facts.filter((f) => f.type === 'user').length).toBeGreaterThanOrEqual(5);
    expect(ex.facts.filter((f) => f.type === 'feedback').length).toBeGreaterThanOrEqual(3);
    const ws = makeWorkspace(ex.files, { timeZone: 'Europe/Berlin' });
    expect(runCli(['compact', '--catch-up', '--dir', ws.root, '--now', ex.last]).code).toBe(0);
    const r = runCli(['hook', 'SessionStart', '--dir', ws.root, '--now', ex.last], {
      input: hookJson('SessionStart', { cwd: ws.root, source: 'startup' }),
    });
    expect(r.code).toBe(0);
    const pack = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(pack.length).toBeLessThanOrEqual(8000);
    const missing = ex.facts.filter((f) => !words(pack).includes(words(f.text)));
    expect(missing).toEqual([]);
    // The profile and rules lead; recent context follows.
    const profileAt = pack.indexOf('## What the user has told me');
    const rulesAt = pack.indexOf('## How the user wants me to work');
    const rootAt = pack.indexOf('## ROOT · ROOT.md');
    expect(profileAt).toBeGreaterThan(0);
    expect(rulesAt).toBeGreaterThan(profileAt);
    expect(rootAt).toBeGreaterThan(rulesAt);

    // The agent-written project memory is no worse off: its decisions, open items and projects
    // are in ROOT and in the pack.
    const root = ws.read('memory/ROOT.md');
    for (const text of [root, pack]) {
      expect(text).toContain('decided to disable leading wildcards in the admin UI search box');
      expect(text).toContain('write a one-page proposal for multi-currency invoices by 2026-11-27');
      expect(text).toMatch(/- search-latency \[project, 0d\]/);
      expect(text).toMatch(/- invoice-export \[project, 1d\]/);
    }
  });
});
