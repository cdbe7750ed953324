// A capture hook keeps the tree following the sessions when no daemon runs: it starts `hipo
// compact --catch-up` as a detached process (the real CLI, real child processes), at most once
// per interval, and never while a daemon runs.
import { existsSync, mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caughtUp, daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const SESSION = '7b1e44c2-0a9d-4c61-8f3e-2d5c6b7a8e90';
const DAY = '2026-03-15';
/** The suite turns background compaction off (vitest.config.ts); these tests turn it on. */
const ON = { HIPO_BACKGROUND_COMPACT: '', HIPO_NOW: DAY };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const start = daemonsForTests();

function stop(ws: TestWorkspace, t: string, env: NodeJS.ProcessEnv = ON) {
  return runCli(['hook', 'Stop', '--dir', ws.root], {
    input: hookJson('Stop', { session_id: SESSION, cwd: ws.root, transcript_path: t }),
    env,
  });
}

/** What the prompt hook hands the agent for `text` (null: nothing). */
function promptContext(ws: TestWorkspace, text: string): string | null {
  const r = runCli(['hook', 'UserPromptSubmit', '--dir', ws.root], {
    input: hookJson('UserPromptSubmit', { session_id: 'another-session', cwd: ws.root, transcript_path: null, prompt: text }),
    env: { ...ON, HIPO_BACKGROUND_COMPACT: '0' },
  });
  expect(r.code).toBe(0);
  return r.stdout
    ? (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    : null;
}

function captures(ws: TestWorkspace): Record<string, unknown>[] {
  return readFileSync(join(ws.root, '.hipo', 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.type === 'capture');
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('background compaction after a capture hook', () => {
  it('builds the day and ROOT after new turns, once per interval', async () => {
    const ws = makeWorkspace();
    const writer = new TranscriptWriter(SESSION, `${DAY}T09:00:00.000Z`)
      .user('Which queue should the exporter use?')
      .assistant('We decided on the Redis stream for the exporter queue.');
    const t = writer.writeTo(join(ws.root, 'session.jsonl'));
    expect(stop(ws, t).code).toBe(0);
    expect(captures(ws).at(-1)).toMatchObject({ turns: 1, compacting: 'started in the background' });
    // The hook did not wait: the detached compaction writes the tree after it returned.
    await until(() => existsSync(join(ws.memoryDir, 'ROOT.md')), 'ROOT.md');
    expect(readFileSync(join(ws.memoryDir, 'daily', `${DAY}.md`), 'utf8')).toContain('Redis stream for the exporter queue');
    expect(runCli(['status', '--dir', ws.root], { env: ON }).stdout).toMatch(
      /last capture: .*\(Stop, session 7b1e44c2\): 1 turn\(s\) → 2026-03-15\.md; compaction started in the background/,
    );
    // A new turn within the interval: archived, no second compaction started.
    const from = writer.lines.length;
    writer.user('And the retry policy?').assistant('Five attempts with backoff.').appendTo(t, from);
    expect(stop(ws, t).code).toBe(0);
    const last = captures(ws).at(-1)!;
    expect(last.turns).toBe(1);
    expect(last).not.toHaveProperty('compacting');
    // With no daemon and no `hipo index`, the same run built the index the prompt hook reads.
    const question = 'Which stream does the exporter queue use?';
    await until(() => promptContext(ws, question)?.includes('Redis stream for the exporter queue') ?? false, 'the index');
  });

  it('starts one when the last start is dated ahead of now (the clock went back)', async () => {
    const ws = makeWorkspace();
    const writer = new TranscriptWriter(SESSION, `${DAY}T09:00:00.000Z`).user('Which cache for sessions?').assistant('Redis.');
    const t = writer.writeTo(join(ws.root, 'session.jsonl'));
    // The last background start, as the clock showed it a day before it was set back.
    mkdirSync(join(ws.root, '.hipo'), { recursive: true });
    const marker = join(ws.root, '.hipo', 'background-compact');
    writeFileSync(marker, 'a start\n');
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    utimesSync(marker, tomorrow, tomorrow);
    expect(stop(ws, t).code).toBe(0);
    expect(captures(ws).at(-1)).toMatchObject({ turns: 1, compacting: 'started in the background' });
    await until(() => existsSync(join(ws.memoryDir, 'ROOT.md')), 'ROOT.md');
  });

  it('starts nothing while a daemon runs, nor with the interval set to 0', async () => {
    const ws = makeWorkspace({}, FAST_DAEMON);
    const t = new TranscriptWriter(SESSION, `${DAY}T09:00:00.000Z`)
      .user('Where do sessions live?')
      .assistant('In Postgres.')
      .writeTo(join(ws.root, 'session.jsonl'));
    const d = start(ws.root, { HIPO_NOW: DAY });
    await d.waitFor((l) => l.event === 'listening', 20_000, 'the daemon');
    expect(stop(ws, t).code).toBe(0);
    expect(captures(ws).at(-1)).not.toHaveProperty('compacting');

    const off = makeWorkspace({}, { timeZone: 'UTC', agents: { compactAfterCaptureMinutes: 0 } });
    const t2 = new TranscriptWriter(SESSION, `${DAY}T09:00:00.000Z`)
      .user('Where do sessions live?')
      .assistant('In Postgres.')
      .writeTo(join(off.root, 'session.jsonl'));
    expect(stop(off, t2).code).toBe(0);
    expect(captures(off).at(-1)).toMatchObject({ turns: 1 });
    expect(captures(off).at(-1)).not.toHaveProperty('compacting');
    await sleep(1000);
    expect(existsSync(join(off.memoryDir, 'ROOT.md'))).toBe(false);
  });

  it('starts one when the daemon running serves another path (the workspace was moved under it)', async () => {
    const ws = makeWorkspace({}, FAST_DAEMON);
    const d = start(ws.root, { HIPO_NOW: DAY });
    // Moved once it is idle: a cycle caught mid-way would write where the workspace was.
    await d.until(() => caughtUp(d, ws.root), 20_000, 'the daemon to catch up');
    const moved = `${ws.root}-moved`;
    renameSync(ws.root, moved);
    try {
      const t = new TranscriptWriter(SESSION, `${DAY}T09:00:00.000Z`)
        .user('Where do sessions live?')
        .assistant('In Postgres.')
        .writeTo(join(moved, 'session.jsonl'));
      const r = runCli(['hook', 'Stop'], { input: hookJson('Stop', { session_id: SESSION, cwd: moved, transcript_path: t }), env: ON });
      expect(r.code).toBe(0);
      const last = readFileSync(join(moved, '.hipo', 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .at(-1)!;
      expect(JSON.parse(last)).toMatchObject({ type: 'capture', turns: 1, compacting: 'started in the background' });
      await until(() => existsSync(join(moved, 'memory', 'ROOT.md')), 'ROOT.md in the moved workspace');
    } finally {
      renameSync(moved, ws.root);
    }
  });
});
