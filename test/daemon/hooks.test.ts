// Hooks handed to a running daemon (SessionStart, UserPromptSubmit, Stop): the
// real daemon child process, the real `hipo hook` with Claude Code's hook JSON on stdin, a real
// transcript and Unix socket.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { loadedModules, loadReportingEnv } from '../helpers/loaded.js';
import { rawLog } from '../helpers/tree.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const start = daemonsForTests();
const SESSION = '5d0c9e1f-2222-4333-8444-a55566677788';

/** A workspace whose memory knows about the zeppelin hangar, with a wide hook budget: a slow start-up must not decide these tests. */
function workspace() {
  const ws = makeWorkspace({}, { ...FAST_DAEMON, agents: { hookBudgetMs: 30_000 } });
  ws.write(
    'memory/2026-06-01.md',
    rawLog('2026-06-01', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors: 41 m wide'] }),
  );
  ws.write('now.txt', '2026-06-02');
  return { ws, env: { HIPO_NOW_FILE: join(ws.root, 'now.txt') } };
}

/** Hook modules that do the work: a hook answered by the daemon loads none of them. */
const WORK = /^dist\/(hooks\/(run|session-start|prompt-recall)|capture\/archive|index|search|context|config\/config|redact)\b/;

describe('hipo hook with a daemon running', () => {
  it('hands SessionStart, UserPromptSubmit and Stop to the daemon, which archives, recalls and compacts as the hook would', async () => {
    const { ws, env } = workspace();
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the catch-up and first index');
    const writer = new TranscriptWriter(SESSION, '2026-06-02T09:00:00.000Z', ws.root)
      .user('Which paint did we pick for the hangar doors?')
      .assistant('Signal red, two coats.');
    const transcript = writer.writeTo(join(ws.root, 'session.jsonl'));
    const hook = (event: string, fields: Record<string, unknown>, extraEnv: NodeJS.ProcessEnv = {}) => {
      const r = runCli(['hook', event, '--dir', ws.root], {
        env: { ...env, ...loadReportingEnv(), ...extraEnv },
        input: hookJson(event, { session_id: SESSION, cwd: ws.root, transcript_path: transcript, ...fields }),
      });
      expect(r.code).toBe(0);
      return { stdout: r.stdout, loaded: loadedModules(r.stderr) };
    };
    const prompt = { prompt: 'how wide are the zeppelin hangar doors?' };

    const indexed = () => d.logs.filter((l) => l.event === 'index').length;
    const before = indexed();
    const asked = hook('UserPromptSubmit', prompt);
    expect(asked.loaded).toContain('dist/cli/hook-entry.js');
    expect(asked.loaded.filter((m) => WORK.test(m) || m.startsWith('node_modules/'))).toEqual([]);
    expect(JSON.parse(asked.stdout).hookSpecificOutput.additionalContext).toContain('zeppelin hangar doors: 41 m wide');
    // The daemon archived the finished exchange, and its own watcher (not a background
    // `hipo compact` the hook would have started) brings the daily node up to it.
    expect(readFileSync(join(ws.root, 'memory/2026-06-02.md'), 'utf8')).toContain('Which paint did we pick for the hangar doors?');
    await d.until(() => ws.exists('memory/daily/2026-06-02.md'), 20_000, 'the daily node of the captured day');
    expect(readFileSync(join(ws.root, 'memory/daily/2026-06-02.md'), 'utf8')).toContain('Signal red');
    // The turn that prompt began is archived at Stop, by the daemon too.
    const from = writer.lines.length;
    writer.user(prompt.prompt).assistant('41 m wide, and the track needs grease.').appendTo(transcript, from);
    const stopped = hook('Stop', {});
    expect(stopped.loaded.filter((m) => WORK.test(m))).toEqual([]);
    expect(readFileSync(join(ws.root, 'memory/2026-06-02.md'), 'utf8')).toContain('the track needs grease');
    const journal = readFileSync(join(ws.stateDir, 'journal.jsonl'), 'utf8');
    expect(journal).toContain('"event":"UserPromptSubmit"');
    expect(journal).toContain('"event":"Stop"');
    expect(journal).not.toContain('started in the background');
    // `hipo status` says who archived the last turn.
    expect(runCli(['status', '--dir', ws.root], { env }).stdout).toMatch(
      /last capture: \S+ \(Stop, run by the daemon, session 5d0c9e1f\): 1 turn/,
    );
    await d.until(() => indexed() > before, 20_000, 'the index update after that cycle');

    // Once nothing is left to archive, the daemon's answers are the hook's own, byte for byte.
    for (const [event, fields] of [
      ['UserPromptSubmit', prompt],
      ['SessionStart', { source: 'startup' }],
    ] as const) {
      const byDaemon = hook(event, fields);
      const itself = hook(event, fields, { HIPO_HOOK_DAEMON: '0' });
      expect(byDaemon.loaded.filter((m) => WORK.test(m))).toEqual([]);
      expect(itself.loaded).toContain('dist/hooks/run.js');
      expect(byDaemon.stdout).toBe(itself.stdout);
    }
    expect(JSON.parse(hook('SessionStart', { source: 'startup' }).stdout).hookSpecificOutput.additionalContext).toContain('zeppelin');
    // A hook that used up its time budget starting (a loaded machine; here a budget of 0) still
    // asks the daemon: an answer within DAEMON_MIN_WAIT_MS costs less than loading its own code.
    // Past its budget neither reads the transcript nor recalls: nothing new, nothing printed.
    const reconfigure = async (hookBudgetMs: number) => {
      const listening = () => d.logs.filter((l) => l.event === 'listening').length;
      const before = listening();
      writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ ...FAST_DAEMON, agents: { hookBudgetMs } }));
      await d.until(() => listening() > before, 30_000, 'the daemon listening again with the new config');
    };
    await reconfigure(0);
    const late = hook('UserPromptSubmit', prompt);
    expect(late.loaded.filter((m) => WORK.test(m))).toEqual([]);
    await reconfigure(30_000);
    // A prompt with a log pasted into it (100 kB) is the daemon's too.
    const pasted = hook('UserPromptSubmit', {
      prompt: `why did this fail?\n${'ERROR zeppelin hangar door sensor timeout\n'.repeat(2500)}`,
    });
    expect(pasted.loaded.filter((m) => WORK.test(m))).toEqual([]);
    expect(JSON.parse(pasted.stdout).hookSpecificOutput.additionalContext).toContain('41 m wide');
  });

  it('does the work itself for another clock or a long unread transcript', async () => {
    const { ws, env } = workspace();
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const long = new TranscriptWriter(SESSION, '2026-06-02T09:00:00.000Z', ws.root)
      .user('Paste the hangar survey, please.')
      .assistant(`The survey: ${'door track, hinge, seal. '.repeat(48_000)}`)
      .user('Thanks, and the zeppelin hangar doors?')
      .assistant('41 m wide.')
      .writeTo(join(ws.root, 'long.jsonl'));
    const runs = [
      { event: 'UserPromptSubmit', args: ['--now', '2026-06-02'], transcript: null },
      { event: 'UserPromptSubmit', args: [], transcript: long },
      { event: 'Stop', args: ['--now', '2026-06-02'], transcript: null },
    ];
    for (const run of runs) {
      const r = runCli(['hook', run.event, '--dir', ws.root, ...run.args], {
        env: { ...env, ...loadReportingEnv() },
        input: hookJson(run.event, {
          session_id: SESSION,
          cwd: ws.root,
          transcript_path: run.transcript,
          prompt: 'the zeppelin hangar doors',
        }),
      });
      expect(r.code).toBe(0);
      expect(loadedModules(r.stderr)).toContain('dist/hooks/run.js');
      if (run.event === 'UserPromptSubmit') expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('41 m wide');
    }
    // The long transcript was archived by the hook's own process, within its memory bound.
    expect(readFileSync(join(ws.root, 'memory/2026-06-02.md'), 'utf8')).toContain('Paste the hangar survey');

    // A transcript rewritten shorter than what was archived of it is read again from its start:
    // 1.2 MB unread, however far the session's record says capture had come.
    const session = 'a0b1c2d3-9999-4aaa-8bbb-ccccdddd0001';
    const exchanges = (n: number, word: string) => {
      const w = new TranscriptWriter(session, '2026-06-02T10:00:00.000Z', ws.root);
      for (let i = 0; i < n; i++) w.user(`${word} question ${i}`).assistant(`${word} answer ${i}: ${'hangar log line. '.repeat(300)}`);
      return w;
    };
    const rewritten = exchanges(300, 'first').writeTo(join(ws.root, 'rewritten.jsonl'));
    const stop = (extra: NodeJS.ProcessEnv) =>
      runCli(['hook', 'Stop', '--dir', ws.root], {
        env: { ...env, ...loadReportingEnv(), ...extra },
        input: hookJson('Stop', { session_id: session, cwd: ws.root, transcript_path: rewritten }),
      });
    expect(stop({ HIPO_HOOK_DAEMON: '0' }).code).toBe(0);
    exchanges(230, 'second').writeTo(rewritten);
    const again = stop({});
    expect(again.code).toBe(0);
    expect(loadedModules(again.stderr)).toContain('dist/hooks/run.js');
  });
});
