import { afterEach, describe, expect, it } from 'vitest';
import { acquireFileLock, type FileLock } from '../../src/state/lock-file.js';
import { ensureStateDir, statePath } from '../../src/state/dir.js';
import { conversationTurns, hookJson, twoExchanges } from '../helpers/transcript.js';
import { journalRecords as journal, makeWorkspace, runCli } from '../helpers/workspace.js';

const ENDED = '4c5d6e7f-8091-4a2b-8c3d-4e5f60718293';
const NEXT = '0f1e2d3c-4b5a-4697-8877-665544332211';
const DAY = '2026-03-15';

let lock: FileLock | null = null;
afterEach(() => lock?.release());

function hook(cwd: string, event: string, fields: Record<string, unknown>) {
  return runCli(['hook', event], { input: hookJson(event, { cwd, ...fields }), env: { HIPO_NOW: DAY } });
}

const turns = conversationTurns;

describe('a capture hook at a busy append lock', () => {
  it('exits 0, keeps the session place, and the next hook of another session archives each turn once', async () => {
    // A budget no loaded machine runs out of: the hook that takes the waiting capture in must get to it.
    const ws = makeWorkspace({}, { timeZone: 'UTC', agents: { hookBudgetMs: 60_000, hookTimeoutMs: 30_000 } });
    const t = twoExchanges(ws.root, ENDED, DAY);
    ensureStateDir(ws);
    lock = await acquireFileLock(statePath(ws, 'appendLock'), { command: 'test', waitMs: 0, leaseMs: 30_000, pollMs: () => 10 });

    const end = hook(ws.root, 'SessionEnd', { session_id: ENDED, transcript_path: t, reason: 'logout' });
    expect(end).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(ws.files('memory')).toEqual([]);
    expect(ws.files('.hipo/pending-captures')).toHaveLength(1);
    const error = journal(ws).find((e) => e.type === 'hook-error');
    expect(error).toMatchObject({ event: 'SessionEnd', session: ENDED, pending: true });
    expect(String(error?.message)).toContain('another hipo process is appending');

    lock.release();
    lock = null;
    expect(hook(ws.root, 'Stop', { session_id: NEXT }).code).toBe(0);
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
    expect(ws.files('.hipo/pending-captures')).toEqual([]);
    expect(journal(ws).find((e) => e.type === 'capture' && e.session === ENDED)).toMatchObject({
      turns: 2,
      pendingSince: expect.any(String),
    });

    // Taken in once: another hook, or the session's own transcript met again, adds nothing.
    expect(hook(ws.root, 'Stop', { session_id: NEXT }).code).toBe(0);
    expect(hook(ws.root, 'SessionEnd', { session_id: ENDED, transcript_path: t, reason: 'logout' }).code).toBe(0);
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
  }, 60_000);
});
