// A disk that fills up in the middle of a hook's append: the partial write is rolled back, the
// capture state does not move, the hook says so (exit 1, one line) and keeps the session's
// place, and the retry once space is back appends every turn once: by the session's next hook,
// or, after a SessionEnd, by the next hook of another session.
// Needs a small tmpfs to fill (root on Linux); elsewhere the test is skipped, saying why.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { runCli } from '../helpers/workspace.js';
import { figure } from './scale.js';

/** Mounts a tmpfs of `size` (e.g. "1m"); null where that is not allowed. */
function mountTmpfs(size: string): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'hipo-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const probe = mountTmpfs('64k');
if (probe) unmount(probe);
const why = 'needs to mount a tmpfs (root on Linux) to fill a disk';
if (!probe) process.stdout.write(`[faults] full disk: skipped: ${why}\n`);

const ENDED = '5e6f7081-92a3-4b4c-9d5e-6f708192a3b4';
const OTHER = 'a1b2c3d4-e5f6-4789-8abc-def012345678';

/** 50 turns of ~5 KB each (~240 KB in the raw log), the transcript outside the small disk. */
function longSession(root: string): string {
  const w = new TranscriptWriter(ENDED, '2026-03-15T09:00:00.000Z', root);
  const filler = 'words to fill the turn '.repeat(200);
  for (let i = 0; i < 50; i++) w.user(`turn-${i}-start ${filler} turn-${i}-end`).assistant(`answer ${i} done`);
  const dir = mkdtempSync(join(tmpdir(), 'hipo-transcript-'));
  transcriptDirs.push(dir);
  return w.writeTo(join(dir, 's.jsonl'));
}

/** A workspace on the small disk with `config`, and the long session's transcript. */
function workspaceOn(mount: string, config: object): { root: string; transcript: string } {
  const root = join(mount, 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'hipo.config.json'), JSON.stringify(config));
  return { root, transcript: longSession(root) };
}

/** A capture hook of `session` in the workspace at `root`, as a platform calls it. */
function hook(root: string, event: string, session: string, path?: string) {
  return runCli(['hook', event, '--dir', root], {
    input: hookJson(event, { session_id: session, cwd: root, ...(path ? { transcript_path: path } : {}), reason: 'logout' }),
  });
}

const transcriptDirs: string[] = [];
afterAll(() => {
  for (const dir of transcriptDirs) rmSync(dir, { recursive: true, force: true });
});

/** Fills the mount but for `room` bytes. */
function fill(mount: string, room: number): void {
  const st = statfsSync(mount);
  writeFileSync(join(mount, 'filler'), Buffer.alloc(Math.max(0, Number(st.bavail) * Number(st.bsize) - room)));
}

describe.skipIf(!probe)(`faults: a full disk during a hook append (${why})`, () => {
  it('rolls the partial append back, keeps the capture state, and the retry appends every turn once', () => {
    const mount = mountTmpfs('1m')!;
    try {
      const { root, transcript } = workspaceOn(mount, { timeZone: 'UTC' });
      const session = ENDED;
      const stop = () => hook(root, 'Stop', session, transcript);

      // Leave room for the hook's own small files but not for the 50 turns (~240 KB).
      fill(mount, 96 * 1024);
      const failed = stop();
      expect(failed.code).toBe(1);
      expect(failed.stderr.trim()).toBe(
        `hipo: ${join(root, 'memory')}: disk full (ENOSPC) (nothing archived; the transcript is archived once the disk has space)`,
      );
      expect(readdirSync(join(root, '.hipo', 'pending-captures'))).toHaveLength(1);
      const log = join(root, 'memory', '2026-03-15.md');
      const partial = (() => {
        try {
          return execFileSync('cat', [log], { encoding: 'utf8' });
        } catch {
          return '';
        }
      })();
      const state = JSON.parse(execFileSync('cat', [join(root, '.hipo', 'sessions', `${session}.json`)], { encoding: 'utf8' })) as {
        offset: number;
        archived: number;
      };
      const status = JSON.parse(runCli(['status', '--json', '--dir', root]).stdout) as { hookErrors: { message: string }[] };

      rmSync(join(mount, 'filler'));
      expect(stop()).toMatchObject({ code: 0, stderr: '' });
      expect(readdirSync(join(root, '.hipo', 'pending-captures'))).toEqual([]);
      const after = execFileSync('cat', [log], { encoding: 'utf8' });
      const counts = Array.from({ length: 50 }, (_, i) => after.split(`turn-${i}-start`).length - 1);
      const whole = Array.from({ length: 50 }, (_, i) => after.includes(`turn-${i}-end`) && after.includes(`answer ${i} done`)).filter(
        Boolean,
      ).length;
      figure('full disk during an append', {
        turnsLeftAfterFailure: partial.split('turn-').length - 1,
        stateOffset: state.offset,
        retryTurns: counts.reduce((a, b) => a + b, 0),
        doubled: counts.filter((c) => c > 1).length,
        whole,
      });
      expect(partial).toBe('');
      expect(state).toMatchObject({ offset: 0, archived: 0 });
      expect(status.hookErrors[0]?.message).toMatch(/ENOSPC/);
      expect(counts).toEqual(Array(50).fill(1));
      expect(whole).toBe(50);
    } finally {
      unmount(mount);
    }
  }, 60_000);
  it('keeps the place of a session that ended on the full disk: the next hook of another session archives it once', () => {
    const mount = mountTmpfs('1m')!;
    try {
      const { root, transcript } = workspaceOn(mount, { timeZone: 'UTC', agents: { hookBudgetMs: 60_000 } });
      fill(mount, 96 * 1024);
      const end = hook(root, 'SessionEnd', ENDED, transcript);
      expect(end.code).toBe(1);
      expect(end.stderr.trim()).toBe(
        `hipo: ${join(root, 'memory')}: disk full (ENOSPC) (nothing archived; the transcript is archived once the disk has space)`,
      );
      expect(readdirSync(join(root, '.hipo', 'pending-captures'))).toHaveLength(1);

      rmSync(join(mount, 'filler'));
      expect(hook(root, 'Stop', OTHER)).toMatchObject({ code: 0, stderr: '' });
      expect(hook(root, 'Stop', OTHER).code).toBe(0);
      const after = execFileSync('cat', [join(root, 'memory', '2026-03-15.md')], { encoding: 'utf8' });
      expect(Array.from({ length: 50 }, (_, i) => after.split(`turn-${i}-start`).length - 1)).toEqual(Array(50).fill(1));
      expect(readdirSync(join(root, '.hipo', 'pending-captures'))).toEqual([]);
    } finally {
      unmount(mount);
    }
  }, 60_000);

  it('says so when the full disk cannot even keep the place', () => {
    const mount = mountTmpfs('1m')!;
    try {
      const { root, transcript } = workspaceOn(mount, { timeZone: 'UTC' });
      fill(mount, 0);
      const end = hook(root, 'SessionEnd', ENDED, transcript);
      expect(end.code).toBe(1);
      expect(end.stderr.trim()).toMatch(/^hipo: \/.+: disk full \(ENOSPC\) \(nothing archived, and nothing kept to archive later\)$/);
    } finally {
      unmount(mount);
    }
  }, 60_000);
});
