// The hard cap on a hook process: `agents.hookTimeoutMs` from the workspace's config ends the
// hook with exit 0 whatever it is doing, HIPO_HOOK_TIMEOUT_MS over it. The slow path is a
// SessionStart waiting up to 2 s for the append lock, which this test process holds.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireFileLock, type FileLock } from '../../src/state/lock-file.js';
import { ensureStateDir, statePath } from '../../src/state/dir.js';
import { hookJson } from '../helpers/transcript.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const SESSION = '6d5c4b3a-2f1e-4d0c-9b8a-7f6e5d4c3b2a';

let lock: FileLock | null = null;
afterEach(() => lock?.release());

async function busyWorkspace(hookTimeoutMs: number): Promise<TestWorkspace> {
  const ws = makeWorkspace({}, { timeZone: 'UTC', agents: { hookTimeoutMs } });
  ensureStateDir(ws);
  lock = await acquireFileLock(statePath(ws, 'appendLock'), { command: 'test', waitMs: 0, leaseMs: 30_000, pollMs: () => 10 });
  return ws;
}

function sessionStart(ws: TestWorkspace, env: NodeJS.ProcessEnv = {}) {
  const started = Date.now();
  const r = runCli(['hook', 'SessionStart'], {
    input: hookJson('SessionStart', { session_id: SESSION, source: 'startup', cwd: ws.root, transcript_path: join(ws.root, 's.jsonl') }),
    env: { HIPO_HOOK_TIMEOUT_MS: '', ...env },
  });
  return { ...r, ms: Date.now() - started };
}

describe('hook hard cap', () => {
  it("ends the hook at the config's agents.hookTimeoutMs, with exit 0", async () => {
    const r = sessionStart(await busyWorkspace(400));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(''); // ended while waiting for the lock, before the restore JSON
    expect(r.ms).toBeLessThan(1800);
  });

  it('lets a hook run to its end under a large agents.hookTimeoutMs', async () => {
    const r = sessionStart(await busyWorkspace(20_000));
    expect(r.code).toBe(0);
    expect(r.ms).toBeGreaterThanOrEqual(2000); // the lock's wait, given up
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'SessionStart' } });
  });

  it('takes HIPO_HOOK_TIMEOUT_MS over the config', async () => {
    const r = sessionStart(await busyWorkspace(400), { HIPO_HOOK_TIMEOUT_MS: '20000' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'SessionStart' } });
  });
});
