// Hooks in a workspace that is broken in a way only the user can mend: no memory folder, or a
// file where one of its folders must be. A capture there would lose the session without a word:
// like a config that does not load (config-not-loaded.test.ts), it is said on stderr with a
// non-blocking exit 1, the session's place is kept when `.hipo/` can hold it, and SessionStart
// tells the agent. A folder that is no workspace stays silent. The real CLI, real transcripts.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationTurns, hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { journalRecords as journal, makeWorkspace, runCli } from '../helpers/workspace.js';

const ENDED = '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182';
const NEXT = '9a8b7c6d-5e4f-4d3c-8b2a-1f0e9d8c7b6a';
const DAY = '2026-03-15';

function hook(cwd: string, event: string, fields: Record<string, unknown>) {
  return runCli(['hook', event], { input: hookJson(event, { cwd, ...fields }), env: { HIPO_NOW: DAY } });
}

function session(dir: string): string {
  return new TranscriptWriter(ENDED, `${DAY}T09:00:00.000Z`, dir)
    .user('Where do the nightly exports go?')
    .assistant('To the cold-storage bucket, kept 90 days.')
    .writeTo(join(dir, 'session.jsonl'));
}

/** A budget no loaded machine runs out of: the hook that takes a waiting capture in must get to it. */
const CONFIG = { timeZone: 'UTC', agents: { hookBudgetMs: 60_000 } };

const turns = conversationTurns;

describe('hooks in a broken workspace', () => {
  it('without its memory folder: exit 1 naming it, the session kept, told at SessionStart, archived once it is back', () => {
    const ws = makeWorkspace({}, CONFIG);
    const t = session(ws.root);
    rmSync(ws.memoryDir, { recursive: true });
    for (const event of ['Stop', 'PreCompact', 'SessionEnd']) {
      const r = hook(ws.root, event, { session_id: ENDED, transcript_path: t, trigger: 'auto', reason: 'logout' });
      expect(r.code, event).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toBe(
        `hipo: ${ws.memoryDir}: no memory folder (run "hipo init") ` +
          '(nothing archived; the transcript is archived once the folder is there)',
      );
    }
    expect(ws.files('.hipo/pending-captures')).toHaveLength(1);
    expect(journal(ws).filter((e) => e.type === 'hook-error')).toHaveLength(3);

    const start = hook(ws.root, 'SessionStart', { session_id: NEXT, source: 'startup', transcript_path: join(ws.root, 'next.jsonl') });
    expect(start.code).toBe(0);
    const out = JSON.parse(start.stdout) as { systemMessage: string; hookSpecificOutput: { additionalContext: string } };
    expect(out.systemMessage).toBe(`hipo: memory not loaded: ${ws.memoryDir}: no memory folder (run "hipo init")`);
    expect(out.hookSpecificOutput.additionalContext).toContain(`because of ${ws.memoryDir}: no memory folder`);

    expect(runCli(['init', ws.root]).code).toBe(0);
    expect(hook(ws.root, 'SessionStart', { session_id: NEXT, source: 'startup' }).code).toBe(0);
    const log = ws.read(`memory/${DAY}.md`);
    expect(turns(log)).toBe(1);
    expect(log).toContain('Assistant: To the cold-storage bucket, kept 90 days.');
    expect(ws.files('.hipo/pending-captures')).toEqual([]);
  });

  it('with a file as its memory folder: exit 1 saying it is not a folder', () => {
    const ws = makeWorkspace();
    const t = session(ws.root);
    rmSync(ws.memoryDir, { recursive: true });
    writeFileSync(ws.memoryDir, 'not a folder\n');
    const r = hook(ws.root, 'SessionEnd', { session_id: ENDED, transcript_path: t, reason: 'logout' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`hipo: ${ws.memoryDir}: is not a folder (move it away, then run "hipo init")`);
    expect(ws.files('.hipo/pending-captures')).toHaveLength(1);
  });

  it('with a file as its .hipo folder: exit 1 naming it, nothing written, nothing kept', () => {
    const ws = makeWorkspace();
    const t = session(ws.root);
    writeFileSync(ws.stateDir, '');
    const r = hook(ws.root, 'Stop', { session_id: ENDED, transcript_path: t });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`hipo: ${ws.stateDir}: is not a folder (ENOTDIR) (nothing archived, and nothing kept to archive later)`);
    expect(ws.files('memory')).toEqual([]);
  });

  // Root writes anywhere, whatever the mode (checked by hand as uid 65534 with setpriv).
  it.skipIf(process.getuid?.() === 0)(
    `with a memory folder it may not write in: exit 1 naming the file, archived once it may${
      process.getuid?.() === 0 ? ' (skipped: running as root)' : ''
    }`,
    () => {
      const ws = makeWorkspace({}, CONFIG);
      const t = session(ws.root);
      chmodSync(ws.memoryDir, 0o555);
      const r = hook(ws.root, 'Stop', { session_id: ENDED, transcript_path: t });
      chmodSync(ws.memoryDir, 0o755);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`hipo: ${join(ws.memoryDir, `${DAY}.md`)}: permission denied (EACCES)`);
      expect(hook(ws.root, 'Stop', { session_id: NEXT }).code).toBe(0);
      expect(turns(ws.read(`memory/${DAY}.md`))).toBe(1);
    },
  );

  it('in a folder that is no workspace: exit 0, nothing said, nothing written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hipo-not-a-workspace-'));
    try {
      mkdirSync(join(dir, 'memory')); // a bare folder named memory does not make a workspace
      const t = session(dir);
      for (const event of ['Stop', 'PreCompact', 'SessionEnd', 'SessionStart']) {
        const r = hook(dir, event, { session_id: ENDED, transcript_path: t, source: 'startup' });
        expect(r, event).toEqual({ code: 0, stdout: '', stderr: '' });
      }
      expect(readdirSync(dir).sort()).toEqual(['memory', 'session.jsonl']);
      expect(readdirSync(join(dir, 'memory'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
