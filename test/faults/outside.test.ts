// Nothing is read or written outside the memory folder: links that leave it are skipped with a
// warning (raw logs, node folders, the log an append goes to), links that stay inside work, and
// a FIFO named like a raw log never blocks a command.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const OUTSIDE = 'OUTSIDE-ONLY-TEXT';

const outside: string[] = [];
afterEach(() => {
  for (const d of outside.splice(0)) rmSync(d, { recursive: true, force: true });
});

function outsideDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'hipo-outside-'));
  outside.push(d);
  return d;
}

/** Every file hipo wrote under the workspace (the .hipo index included) that holds `needle`. */
function filesHolding(ws: TestWorkspace, needle: string): string[] {
  return ws.files().filter((f) => !lstatSync(join(ws.root, f)).isSymbolicLink() && readFileSync(join(ws.root, f)).includes(needle));
}

describe('faults: links and special files', () => {
  it('reads no raw log through a link that leaves memory/, and follows one that stays inside', () => {
    const out = outsideDir();
    writeFileSync(join(out, 'notes.md'), rawLog('2026-03-10', { 'elsewhere [project]': [`${OUTSIDE} from another folder`] }));
    const ws = makeWorkspace({
      'memory/2026-03-11.md': rawLog('2026-03-11', { 'here [project]': ['an ordinary day'] }),
      'memory/archive/2026-03-12.md': rawLog('2026-03-12', { 'linked [project]': ['INSIDE-LINKED day'] }),
    });
    symlinkSync(join(out, 'notes.md'), join(ws.memoryDir, '2026-03-10.md'));
    symlinkSync(join(ws.memoryDir, 'archive', '2026-03-12.md'), join(ws.memoryDir, '2026-03-12.md'));
    const r = runCli(['compact', '--catch-up', '--now', '2026-03-20', '--json', '--dir', ws.root]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).problems).toContainEqual({
      file: 'memory/2026-03-10.md',
      message: 'skipped: a link to outside the memory folder',
    });
    expect(ws.read('memory/daily/2026-03-12.md')).toContain('INSIDE-LINKED day');
    expect(ws.exists('memory/daily/2026-03-10.md')).toBe(false);
    const idx = runCli(['index', '--json', '--dir', ws.root]);
    expect(idx.code).toBe(0);
    expect(JSON.parse(idx.stdout).warnings).toContain('memory/2026-03-10.md: skipped: a link to outside memory');
    const found = JSON.parse(runCli(['search', OUTSIDE, '--mode', 'bm25', '--json', '--dir', ws.root]).stdout);
    expect(found.hits).toEqual([]);
    for (const cmd of [
      ['context', '--budget', '4000'],
      ['recall', 'what came from another folder elsewhere'],
    ]) {
      const c = runCli([...cmd, '--now', '2026-03-12', '--dir', ws.root]);
      expect(c.code).toBe(0);
      expect(c.stdout).not.toContain(OUTSIDE);
    }
    expect(filesHolding(ws, OUTSIDE)).toEqual([]);
    expect(JSON.parse(runCli(['status', '--json', '--now', '2026-03-20', '--dir', ws.root]).stdout).warnings).toContainEqual({
      file: 'memory/2026-03-10.md',
      message: 'skipped: a link to outside the memory folder',
    });
  });

  it('writes no node through a memory/daily link that leaves memory/', () => {
    const out = outsideDir();
    const ws = makeWorkspace({ 'memory/2026-03-11.md': rawLog('2026-03-11', { 'here [project]': ['an ordinary day'] }) });
    symlinkSync(out, join(ws.memoryDir, 'daily'));
    const r = runCli(['compact', '--catch-up', '--now', '2026-03-20', '--json', '--dir', ws.root]);
    expect(readdirSync(out)).toEqual([]);
    const result = JSON.parse(r.stdout);
    expect(result.problems).toContainEqual({
      file: 'memory/daily',
      message: expect.stringContaining('a link to a folder outside the memory folder'),
    });
    expect(result.errors).toContainEqual(
      expect.stringMatching(/memory\/daily\/2026-03-11\.md: memory\/daily: a link to outside the memory folder/),
    );
    expect(r.code).toBe(1);
  });

  it('appends nothing through a raw log linked outside memory/ (hipo log, hooks)', () => {
    const out = outsideDir();
    const target = join(out, 'target.md');
    writeFileSync(target, 'before\n');
    const ws = makeWorkspace();
    symlinkSync(target, join(ws.memoryDir, '2026-03-15.md'));
    const logged = runCli(['log', '--now', '2026-03-15', '--dir', ws.root, 'a note that must stay inside']);
    expect(logged.code).not.toBe(0);
    expect(logged.stderr).toContain('memory/2026-03-15.md: a link to outside the memory folder');
    const t = new TranscriptWriter('9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', '2026-03-15T09:00:00.000Z')
      .user('captured turn')
      .assistant('ok')
      .writeTo(join(ws.root, 's.jsonl'));
    expect(
      runCli(['hook', 'Stop', '--dir', ws.root], {
        input: hookJson('Stop', { session_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', cwd: ws.root, transcript_path: t }),
      }).code,
    ).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('before\n');
    expect(JSON.parse(runCli(['status', '--json', '--dir', ws.root]).stdout).hookErrors[0].message).toContain(
      'a link to outside the memory folder',
    );
  });

  it('never blocks on a FIFO named like a raw log or a node', () => {
    const ws = makeWorkspace({ 'memory/2026-03-11.md': rawLog('2026-03-11', { 'here [project]': ['an ordinary day'] }) });
    execFileSync('mkfifo', [join(ws.memoryDir, '2026-03-12.md')]);
    mkdirSync(join(ws.memoryDir, 'daily'));
    execFileSync('mkfifo', [join(ws.memoryDir, 'daily', '2026-03-13.md')]);
    const opts = { timeoutMs: 20_000 };
    for (const args of [
      ['compact', '--catch-up', '--now', '2026-03-13'],
      ['index'],
      ['context', '--now', '2026-03-13'],
      ['recall', 'ordinary', '--now', '2026-03-13'],
      ['status'],
    ]) {
      const r = runCli([...args, '--dir', ws.root], opts);
      expect({ args, code: r.code }).toEqual({ args, code: 0 });
    }
    expect(runCli(['context', '--now', '2026-03-13', '--dir', ws.root], opts).stdout).toContain('an ordinary day');
  });
});
