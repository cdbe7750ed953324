// Codex rollout transcripts, and `hipo log` (typed entries, append-only, redacted).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

describe('Codex rollout transcripts', () => {
  it('archives user and assistant messages and function calls; skips instructions, reasoning and outputs', () => {
    const ws = makeWorkspace();
    const at = (s: number) => new Date(Date.parse('2026-03-15T10:00:00Z') + s * 1000).toISOString();
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id: 'sess-codex-1', cwd: ws.root } },
      {
        timestamp: at(1),
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/x</cwd>\n</environment_context>' }],
        },
      },
      {
        timestamp: at(2),
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Bump the retry limit in worker.py to 5' }] },
      },
      {
        timestamp: at(3),
        type: 'response_item',
        payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: 'REASONING-HIDDEN' }] },
      },
      {
        timestamp: at(4),
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['bash', '-lc', 'grep -n retry worker.py'] }),
          call_id: 'c1',
        },
      },
      { timestamp: at(5), type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'OUTPUT-HIDDEN' } },
      {
        timestamp: at(6),
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Set MAX_RETRIES = 5 in worker.py.' }] },
      },
      { timestamp: at(7), type: 'event_msg', payload: { type: 'agent_message', message: 'duplicate of the answer' } },
    ];
    const t = join(ws.root, 'rollout.jsonl');
    writeFileSync(t, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    const r = runCli(['hook', 'Stop', '--dir', ws.root], {
      input: JSON.stringify({ session_id: 'sess-codex-1', transcript_path: t, hook_event_name: 'Stop', turn_id: 't1' }),
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const log = ws.read('memory/2026-03-15.md');
    expect(log).toContain('## Conversation [project] · 10:00 · session sesscode');
    expect(log).toContain('User: Bump the retry limit in worker.py to 5');
    expect(log).toContain('- shell: bash -lc grep -n retry worker.py');
    expect(log).toContain('Assistant: Set MAX_RETRIES = 5 in worker.py.');
    for (const gone of ['environment_context', 'REASONING-HIDDEN', 'OUTPUT-HIDDEN', 'duplicate of the answer'])
      expect(log).not.toContain(gone);
  });

  it("drops the model's compaction summary, which Codex writes as an assistant message before its compacted line", () => {
    const ws = makeWorkspace();
    const at = (s: number) => new Date(Date.parse('2026-03-15T10:00:00Z') + s * 1000).toISOString();
    const msg = (role: string, text: string, s: number) => ({
      timestamp: at(s),
      type: 'response_item',
      payload: { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] },
    });
    const lines = [
      msg('user', 'Tidy the changelog', 1),
      msg('assistant', 'Working on it.', 2),
      msg('assistant', 'SUMMARY-OF-THE-CONVERSATION: the user tidies the changelog.', 3),
      {
        timestamp: at(4),
        type: 'compacted',
        payload: {
          message:
            'Another language model started to solve this problem and produced a summary:\nSUMMARY-OF-THE-CONVERSATION: the user tidies the changelog.',
          replacement_history: [],
        },
      },
      msg('assistant', 'The changelog is tidy.', 5),
    ];
    const t = join(ws.root, 'rollout.jsonl');
    writeFileSync(t, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    runCli(['hook', 'Stop', '--dir', ws.root], { input: JSON.stringify({ session_id: 'sess-codex-2', transcript_path: t }) });
    const log = ws.read('memory/2026-03-15.md');
    expect(log).toContain('Assistant: Working on it.');
    expect(log).toContain('The changelog is tidy.');
    expect(log).not.toContain('SUMMARY-OF-THE-CONVERSATION');
  });

  it('accepts a null transcript_path (Codex may send one)', () => {
    const ws = makeWorkspace();
    const r = runCli(['hook', 'UserPromptSubmit', '--dir', ws.root], {
      input: JSON.stringify({ session_id: 's', transcript_path: null, prompt: 'hi' }),
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('hipo log', () => {
  it("appends a typed entry to today's raw log, never rewriting what is there", () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': '# 2026-03-15\n\n## standup [project]\n- shipped the parser' });
    const before = ws.read('memory/2026-03-15.md');
    const r = runCli([
      'log',
      '--dir',
      ws.root,
      '--now',
      '2026-03-15T14:05:00Z',
      '--type',
      'feedback',
      '--topic',
      'integration tests',
      'no mocks in integration tests: a mocked DB hid a broken migration',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('hipo log · appended to memory/2026-03-15.md: ## integration tests [feedback] · 14:05\n');
    const after = ws.read('memory/2026-03-15.md');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toBe(
      '\n\n## integration tests [feedback] · 14:05\n- no mocks in integration tests: a mocked DB hid a broken migration\n\n',
    );
  });

  it('uses the configured time zone for the day, redacts, and reads stdin with "-"', () => {
    const ws = makeWorkspace({}, { timeZone: 'Asia/Seoul' });
    const r = runCli(['log', '--dir', ws.root, '--now', '2026-03-15T20:30:00Z', '--type', 'reference', '--json', '-'], {
      input: 'staging DB: postgres://app:hunter2secret@db.internal:5432/app\n## not a heading\n',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: 'memory/2026-03-16.md', redacted: 1 });
    const log = ws.read('memory/2026-03-16.md');
    // Without --topic the entry is named from its words (the redacted ones).
    expect(log).toBe(
      '# 2026-03-16\n\n## staging db [reference] · 05:30\n- staging DB: postgres://app:[REDACTED:url-password]@db.internal:5432/app\n- \\## not a heading\n\n',
    );
  });

  it("reads a --now date and time without an offset on the configured clock, not the shell's, and refuses 02-30", () => {
    const ws = makeWorkspace({}, { timeZone: 'Pacific/Auckland' });
    const r = runCli(['log', '--dir', ws.root, '--now', '2027-01-05T22:30', '--topic', 'late', '--json', 'a late note'], {
      env: { TZ: 'UTC' },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: 'memory/2027-01-05.md', heading: '## late [project] · 22:30' });
    // A date alone is noon there (noon UTC would be 01:00 of the next day in an Auckland summer).
    const noon = runCli(['log', '--dir', ws.root, '--now', '2027-01-05', '--topic', 'noon', '--json', 'a note'], { env: { TZ: 'UTC' } });
    expect(JSON.parse(noon.stdout)).toMatchObject({ file: 'memory/2027-01-05.md', heading: '## noon [project] · 12:00' });
    const bad = runCli(['log', '--dir', ws.root, '--now', '2027-02-30T10:00:00Z', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--now: "2027-02-30T10:00:00Z": 2027-02-30 is not a calendar date');
    expect(ws.files('memory')).toEqual(['memory/2027-01-05.md']);
  });

  it('names an entry without a topic from its words, never from a secret, and says Note when nothing reads as a name', () => {
    const ws = makeWorkspace();
    const heading = (text: string): string =>
      JSON.parse(runCli(['log', '--dir', ws.root, '--now', '2026-03-15', '--json', text]).stdout).heading;
    expect(heading('My dog Max is a Golden Retriever and loves the beach')).toBe('## golden retriever [project] · 12:00');
    expect(heading('ghp_abcdefghijklmnopqrstuvwxyz0123456789 ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('## Note [project] · 12:00');
    expect(heading('ok')).toBe('## Note [project] · 12:00');
    expect(ws.read('memory/2026-03-15.md')).not.toContain('ghp_');
  });

  it('rejects an unknown type and empty text', () => {
    const ws = makeWorkspace();
    expect(runCli(['log', '--dir', ws.root, '--type', 'gossip', 'x']).code).toBe(2);
    expect(runCli(['log', '--dir', ws.root, '   ']).code).toBe(2);
    expect(ws.files('memory')).toEqual([]);
  });
});
