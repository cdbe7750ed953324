// A disk quota used up (EDQUOT: shared servers, NFS homes) is a full disk to the user: a capture
// hook says so (exit 1, one line), keeps the session's place, and the next hook that can write
// archives its turns once. Node 20 has no name for EDQUOT (its code is "UNKNOWN"), so only the
// errno tells it apart. A real quota needs a file system with quotas that root sets up, and a
// writer without root's right to pass them (tmpfs has quotas only in kernels built with them);
// instead strace's fault injection gives the raw log's writes, and only them, the kernel's
// answer: a real hook process gets EDQUOT from write(2). Skipped, saying why, without strace.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outOfSpace } from '../../src/fs/out-of-space.js';
import { conversationTurns, hookJson, twoExchanges } from '../helpers/transcript.js';
import { CLI, journalRecords as journal, makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const ENDED = '6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d';
const NEXT = '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b';
const DAY = '2026-03-15';
const WRITES = 'write,pwrite64,writev,pwritev,pwritev2';

/** Node's error for a write(2) that failed with `errno`, as Node 20 makes it (measured under strace). */
function writeError(errno: number, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: unknown error, write`), { errno: -errno, code, syscall: 'write' });
}

describe('a write out of room', () => {
  it('is a full disk (ENOSPC) or a used-up quota (EDQUOT), whatever name Node gives it', () => {
    const EDQUOT = constants.errno.EDQUOT;
    expect(outOfSpace(writeError(constants.errno.ENOSPC, 'ENOSPC'))).toBe('disk full (ENOSPC)');
    expect(outOfSpace(writeError(EDQUOT, 'UNKNOWN'))).toBe('disk quota exceeded (EDQUOT)');
    expect(outOfSpace(writeError(EDQUOT, 'EDQUOT'))).toBe('disk quota exceeded (EDQUOT)');
    // A file past the process's size limit, a failing disk, a refusal: freeing space helps none of them.
    expect(outOfSpace(writeError(constants.errno.EFBIG, 'EFBIG'))).toBeNull();
    expect(outOfSpace(writeError(constants.errno.EIO, 'EIO'))).toBeNull();
    expect(outOfSpace(writeError(constants.errno.EACCES, 'EACCES'))).toBeNull();
    expect(outOfSpace(new Error('disk quota exceeded'))).toBeNull();
  });
});

/** strace's arguments that make every write to `file` fail with EDQUOT (-f: the hook's threads too). */
function edquotOn(file: string): string[] {
  return ['-f', '-qq', '-o', '/dev/null', '-P', file, '-e', `trace=${WRITES}`, '-e', `inject=${WRITES}:error=EDQUOT`];
}

/** Whether strace can make a write to one file fail with EDQUOT here; else why not. */
function probeStrace(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'hipo-quota-'));
  try {
    const file = join(realpathSync(dir), 'probe');
    const edquot = -constants.errno.EDQUOT;
    const script = `try { require('fs').writeFileSync(process.argv[1], 'x') } catch (e) { process.exit(e.errno === ${edquot} ? 0 : 3) }`;
    const p = spawnSync('strace', [...edquotOn(file), process.execPath, '-e', script, file]);
    if (p.error) return `strace is not there (${p.error.message})`;
    return p.status === 0 ? null : `strace cannot inject a write error here (exit ${p.status ?? p.signal})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const cannot = process.platform === 'linux' ? probeStrace() : 'needs Linux and strace';
if (cannot) process.stdout.write(`[faults] disk quota: skipped: ${cannot}\n`);

/** A hook as a platform calls it, its raw log's writes failing with EDQUOT when `quota` is set. */
function hook(ws: TestWorkspace, event: string, session: string, transcript?: string, quota = false) {
  const input = hookJson(event, {
    session_id: session,
    cwd: ws.root,
    reason: 'logout',
    ...(transcript ? { transcript_path: transcript } : {}),
  });
  if (!quota) return runCli(['hook', event], { input, env: { HIPO_NOW: DAY } });
  const log = join(realpathSync(ws.memoryDir), `${DAY}.md`);
  const p = spawnSync('strace', [...edquotOn(log), process.execPath, CLI, 'hook', event], {
    input,
    env: { ...process.env, HIPO_NOW: DAY },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: p.status, stdout: p.stdout, stderr: p.stderr };
}

const turns = conversationTurns;

describe.skipIf(cannot)('faults: a used-up disk quota during a hook append (strace injects EDQUOT)', () => {
  it('says so, keeps the ended session place, and the next hook of another session archives each turn once', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', agents: { hookBudgetMs: 60_000, hookTimeoutMs: 30_000 } });
    const t = twoExchanges(ws.root, ENDED, DAY);

    const end = hook(ws, 'SessionEnd', ENDED, t, true);
    expect(end.code).toBe(1);
    expect(end.stderr.trim()).toBe(
      `hipo: ${ws.memoryDir}: disk quota exceeded (EDQUOT) (nothing archived; the transcript is archived once the quota has room)`,
    );
    expect(ws.files('memory')).toEqual([]);
    expect(ws.files('.hipo/pending-captures')).toHaveLength(1);
    expect(journal(ws).find((e) => e.type === 'hook-error')).toMatchObject({ event: 'SessionEnd', session: ENDED, pending: true });

    expect(hook(ws, 'Stop', NEXT)).toMatchObject({ code: 0, stderr: '' });
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
    expect(ws.files('.hipo/pending-captures')).toEqual([]);
    // Taken in once: another hook adds nothing.
    expect(hook(ws, 'Stop', NEXT).code).toBe(0);
    expect(turns(ws.read(`memory/${DAY}.md`))).toBe(2);
  }, 60_000);
});

describe.skipIf(cannot)('faults: a used-up disk quota under `hipo log` (strace injects EDQUOT)', () => {
  it('names the raw log and the quota, exits 1 and leaves no empty log behind', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC' });
    const log = join(realpathSync(ws.memoryDir), `${DAY}.md`);
    const p = spawnSync(
      'strace',
      [...edquotOn(log), process.execPath, CLI, 'log', '--dir', ws.root, '--now', DAY, 'the proxy listens on 8443'],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    // Before, Node's own words: "hipo: UNKNOWN: unknown error, write", no file named.
    expect(p.stderr.trim()).toBe(`hipo: memory/${DAY}.md: disk quota exceeded (EDQUOT)`);
    expect(p.status).toBe(1);
    expect(ws.files('memory')).toEqual([]);
  }, 60_000);
});
