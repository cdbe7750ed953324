// A disk that fills up in the middle of a hook's append: the partial write is rolled back, the
// capture state does not move, and the retry once space is back appends every turn once.
// Needs a small tmpfs to fill (root on Linux); elsewhere the test is skipped, saying why.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

describe.skipIf(!probe)(`faults: a full disk during a hook append (${why})`, () => {
  it('rolls the partial append back, keeps the capture state, and the retry appends every turn once', () => {
    const mount = mountTmpfs('1m')!;
    let cleanup: string | null = null;
    try {
      const root = join(mount, 'ws');
      mkdirSync(join(root, 'memory'), { recursive: true });
      writeFileSync(join(root, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
      const session = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
      const w = new TranscriptWriter(session, '2026-03-15T09:00:00.000Z');
      const filler = 'words to fill the turn '.repeat(200);
      for (let i = 0; i < 50; i++) w.user(`turn-${i}-start ${filler} turn-${i}-end`).assistant(`answer ${i} done`);
      const transcriptDir = mkdtempSync(join(tmpdir(), 'hipo-transcript-'));
      cleanup = transcriptDir;
      const transcript = w.writeTo(join(transcriptDir, 's.jsonl'));
      const stop = () =>
        runCli(['hook', 'Stop', '--dir', root], {
          input: hookJson('Stop', { session_id: session, cwd: root, transcript_path: transcript }),
        });

      // Leave room for the hook's own small files but not for the 50 turns (~240 KB).
      const st = statfsSync(mount);
      const free = Number(st.bavail) * Number(st.bsize);
      writeFileSync(join(mount, 'filler'), Buffer.alloc(Math.max(0, free - 96 * 1024)));
      expect(stop().code).toBe(0);
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
      expect(stop().code).toBe(0);
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
      if (cleanup) rmSync(cleanup, { recursive: true, force: true });
    }
  }, 60_000);
});
