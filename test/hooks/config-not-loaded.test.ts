// Hooks while hipo.config.json does not load: installed hooks pass no --dir, so the workspace is
// the session's cwd. The user is told (stderr, a non-blocking exit 1), the agent too
// (SessionStart's context), and no turn of a session that ended meanwhile is lost: it is
// archived by the next hook or compaction whose config loads. The real CLI, real transcripts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationTurns, hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { journalRecords as journal, makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const ENDED = '5c0d7e21-9b44-4f3a-8e6d-1a2b3c4d5e6f';
const NEXT = '8e9f0a1b-2c3d-4e5f-9a0b-c1d2e3f4a5b6';
const DAY = '2026-03-15';
const BROKEN = '{"timeZone":"UTC",}';
// The fixed file; SessionStart takes in waiting captures only within hookBudgetMs (1.5 s by
// default), which a loaded machine can use up before it gets to them.
const LOADS = { timeZone: 'UTC', agents: { hookBudgetMs: 60_000 } };

function hook(ws: TestWorkspace, event: string, fields: Record<string, unknown>) {
  return runCli(['hook', event], { input: hookJson(event, { cwd: ws.root, ...fields }), env: { HIPO_NOW: DAY } });
}

function session(ws: TestWorkspace, path = join(ws.root, 'session.jsonl')): string {
  return new TranscriptWriter(ENDED, `${DAY}T09:00:00.000Z`, ws.root)
    .user('Which queue should the exporter use?')
    .assistant('The Redis stream, decided with Ana.')
    .user('And the retry policy?')
    .assistant('Five attempts with backoff.')
    .writeTo(path);
}

const turns = conversationTurns;

describe('hooks while hipo.config.json does not load', () => {
  it('say so on stderr and exit 1, tell the agent at SessionStart, and archive the ended session once the file loads', () => {
    const ws = makeWorkspace();
    const t = session(ws);
    writeFileSync(join(ws.root, 'hipo.config.json'), BROKEN);
    for (const event of ['Stop', 'SessionEnd']) {
      const r = hook(ws, event, { session_id: ENDED, transcript_path: t, stop_hook_active: false, reason: 'prompt_input_exit' });
      expect(r.code, event).toBe(1); // a non-blocking error: never 2, which blocks
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${join(ws.root, 'hipo.config.json')}: is not valid JSON`);
      expect(r.stderr).toContain('the transcript is archived once the file loads');
    }
    expect(ws.exists(`memory/${DAY}.md`)).toBe(false);

    const start = hook(ws, 'SessionStart', { session_id: NEXT, source: 'startup', transcript_path: join(ws.root, 'next.jsonl') });
    expect(start.code).toBe(0); // its JSON is read only on exit 0
    const out = JSON.parse(start.stdout) as { systemMessage: string; hookSpecificOutput: { additionalContext: string } };
    const context = out.hookSpecificOutput.additionalContext;
    expect(context.split('\n')).toHaveLength(1);
    expect(context).toMatch(
      /^hipo's memory could not be loaded because of .*hipo\.config\.json: is not valid JSON at line 1, column \d+ \(/,
    );
    expect(out.systemMessage).toContain('hipo.config.json: is not valid JSON');

    // Fixed: the next hook of any session archives the ended one, once.
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify(LOADS));
    const again = hook(ws, 'SessionStart', { session_id: NEXT, source: 'startup', transcript_path: join(ws.root, 'next.jsonl') });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    const log = ws.read(`memory/${DAY}.md`);
    expect(turns(log)).toBe(2);
    expect(log).toContain('Assistant: Five attempts with backoff.');
    expect(ws.files('.hipo/pending-captures')).toEqual([]);
    expect(journal(ws).filter((e) => e.type === 'capture')).toEqual([
      expect.objectContaining({ session: ENDED, turns: 2, note: expect.stringContaining('captured late') }),
    ]);
    hook(ws, 'Stop', { session_id: NEXT, transcript_path: join(ws.root, 'next.jsonl') });
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
  });

  it('with a setting of the wrong type: `hipo compact` takes the waiting capture in before its cycle', () => {
    const ws = makeWorkspace();
    const t = session(ws);
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC', lockWaitMs: 'soon' }));
    const r = hook(ws, 'SessionEnd', { session_id: ENDED, transcript_path: t, reason: 'logout' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"lockWaitMs" must be a non-negative number');
    expect(runCli(['status', '--dir', ws.root]).stderr).toContain('"lockWaitMs" must be a non-negative number');
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify(LOADS));
    expect(runCli(['compact', '--dir', ws.root, '--now', DAY]).code).toBe(0);
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
    expect(ws.read(`memory/daily/${DAY}.md`)).toContain('Redis stream');
    expect(runCli(['status', '--dir', ws.root]).stdout).toMatch(/hook error: .* SessionEnd \(session 5c0d7e21\): .*"lockWaitMs"/);
  });

  it("the session's own next hook archives it once, and forgets that it waited", () => {
    const ws = makeWorkspace();
    const t = session(ws);
    writeFileSync(join(ws.root, 'hipo.config.json'), BROKEN);
    expect(hook(ws, 'Stop', { session_id: ENDED, transcript_path: t }).code).toBe(1);
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify(LOADS));
    const r = hook(ws, 'Stop', { session_id: ENDED, transcript_path: t });
    expect(r.code).toBe(0);
    expect(ws.files('.hipo/pending-captures')).toEqual([]);
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
    expect(journal(ws).filter((e) => e.type === 'capture')).toHaveLength(1);
  });

  it("an OpenCode session's copy is removed once taken in, and the problem kept meanwhile is redacted", () => {
    const ws = makeWorkspace();
    // The plugin's copy of the session (platforms/opencode-plugin.ts): the plugin removes it only
    // after a hook that succeeded, so here hipo does once it has archived it.
    mkdirSync(join(ws.root, '.hipo', 'opencode'), { recursive: true });
    const t = session(ws, join(ws.root, '.hipo', 'opencode', `${ENDED}.jsonl`));
    // An API key pasted where the URL goes: the config's error quotes it.
    const key = 'sk-ant-api03-AbCdEf0123456789AbCdEf0123456789';
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC', llm: { baseUrl: key } }));
    const r = hook(ws, 'Stop', { session_id: ENDED, transcript_path: t });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"llm.baseUrl" must be an http(s) URL');
    const [record] = ws.files('.hipo/pending-captures');
    const kept = readFileSync(join(ws.root, record!), 'utf8');
    expect(JSON.parse(kept).problem).toContain('"llm.baseUrl" must be an http(s) URL, got "[REDACTED:anthropic-key]"');
    expect(kept).not.toContain(key);

    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify(LOADS));
    expect(hook(ws, 'SessionStart', { session_id: NEXT, source: 'startup', transcript_path: join(ws.root, 'next.jsonl') }).code).toBe(0);
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
    expect(ws.files('.hipo/pending-captures')).toEqual([]);
    expect(ws.files('.hipo/opencode')).toEqual([]);
  });
});
