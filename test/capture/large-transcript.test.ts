// A 100 MB transcript: each hook reads only within its time budget and leaves the rest for the
// next one; every turn ends up archived once; a line too long to be worth keeping is skipped.
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../helpers/workspace.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';

const SESSION = 'b16b16b1-0000-4000-8000-000000000100';

describe('a 100 MB transcript', () => {
  it('is archived incrementally within the hook budget, every turn once', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', agents: { hookBudgetMs: 600 } });
    const path = join(ws.root, 'big.jsonl');
    const fd = openSync(path, 'w');
    const blob = 'x'.repeat(480 * 1024);
    let bytes = 0;
    const TURNS = 200;
    for (let i = 0; i < TURNS; i++) {
      const w = new TranscriptWriter(SESSION, new Date(Date.parse('2026-03-15T08:00:00Z') + i * 60_000).toISOString());
      w.user(`Turn ${i}: grep the logs for request ${i}`)
        .tool('Bash', { command: `grep req-${i} app.log` }, blob)
        .assistant(`Turn ${i} answer: found request ${i}.`);
      // One tool result larger than a read chunk: stepped over, not parsed.
      if (i === 100) w.tool('Read', { file_path: 'huge.bin' }, 'y'.repeat(5 * 1024 * 1024));
      const text = w.text().replace(/"uuid":"([0-9a-f]{8})-0000-4000-8000-/g, `"uuid":"$1-${String(i).padStart(4, '0')}-4000-8000-`);
      bytes += writeSync(fd, text);
    }
    closeSync(fd);
    expect(bytes).toBeGreaterThan(100 * 1024 * 1024);

    const input = hookJson('Stop', { session_id: SESSION, transcript_path: path, cwd: ws.root });
    let calls = 0;
    let backlog = Infinity;
    const started = performance.now();
    while (backlog > 0 && calls < 60) {
      const r = runCli(['hook', 'Stop', '--dir', ws.root], { input });
      expect(r).toMatchObject({ code: 0, stdout: '' });
      calls++;
      const records = ws
        .read('.hipo/journal.jsonl')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((j) => j.type === 'capture');
      backlog = records.at(-1).backlog;
      if (calls === 1) expect(backlog).toBeGreaterThan(0); // the first hook stopped at its budget
    }
    expect(backlog).toBe(0);
    expect(calls).toBeGreaterThan(1);
    // Loose bound (not a benchmark): each hook is capped, so the whole catch-up stays small.
    expect((performance.now() - started) / calls).toBeLessThan(8000);
    const log = ws.read('memory/2026-03-15.md');
    const headings = log.split('\n').filter((l) => l.startsWith('## Conversation'));
    expect(headings.length).toBe(TURNS);
    for (const i of [0, 99, 100, 101, 199]) expect(log.split(`Turn ${i}: grep`).length - 1).toBe(1);
    expect(log).not.toContain('xxxxxxxx');
    expect(log).toContain('- Read: huge.bin');
  });
});
