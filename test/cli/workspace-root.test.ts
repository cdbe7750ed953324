// Every command finds its workspace upward from the current folder, like git, and takes --dir.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const outside: string[] = [];
afterEach(() => {
  for (const d of outside.splice(0)) rmSync(d, { recursive: true, force: true });
});
function bareFolder(): string {
  const d = mkdtempSync(join(tmpdir(), 'hipo-nows-'));
  outside.push(d);
  return d;
}

describe('workspace discovery', () => {
  it('runs from any subfolder of a workspace, also inside memory/', () => {
    const ws = makeWorkspace({
      'memory/2026-03-14.md': '# 2026-03-14\n\n## deploys [project]\n- moved the deploy to Fridays\n',
      'src/deep/er/x.ts': '',
    });
    expect(runCli(['compact', '--now', '2026-03-15'], { cwd: join(ws.root, 'src', 'deep', 'er') }).code).toBe(0);
    expect(ws.exists('memory/daily/2026-03-14.md')).toBe(true);
    const st = runCli(['status', '--json', '--now', '2026-03-15'], { cwd: join(ws.root, 'memory', 'daily') });
    expect(st.code).toBe(0);
    expect(JSON.parse(st.stdout).memoryDir).toBe(join(ws.root, 'memory'));
    const log = runCli(['log', '--now', '2026-03-15', '--topic', 'deploys', 'Fridays only'], { cwd: join(ws.root, 'memory') });
    expect(log.stdout).toContain('appended to memory/2026-03-15.md');
    expect(ws.exists('memory/memory')).toBe(false);
    const found = runCli(['search', 'deploy Fridays', '--mode', 'bm25', '--json'], { cwd: join(ws.root, 'src') });
    expect(JSON.parse(found.stdout).hits.map((h: { path: string }) => h.path)).toContain('memory/2026-03-14.md');
  });

  it('outside any workspace says so, and the daemon leaves no .hipo/ behind', () => {
    const dir = bareFolder();
    const r = runCli(['status'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no hipo workspace in ${dir} or any folder above it`);
    const d = runCli(['daemon'], { cwd: dir, timeoutMs: 10_000 });
    expect(d.code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
    const withDir = runCli(['daemon', '--dir', dir], { cwd: dir, timeoutMs: 10_000 });
    expect(withDir.code).toBe(2);
    expect(withDir.stderr).toContain(`${join(dir, 'memory')}: no memory folder here`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('init and uninstall take --dir or a folder; without one, init uses the workspace above', () => {
    const dir = bareFolder();
    const made = runCli(['init', '--dir', join(dir, 'ws'), '--timezone', 'UTC']);
    expect(made.code).toBe(0);
    expect(readdirSync(join(dir, 'ws')).sort()).toEqual(['hipo.config.json', 'memory']);
    mkdirSync(join(dir, 'ws', 'sub'));
    const again = runCli(['init'], { cwd: join(dir, 'ws', 'sub') });
    expect(again.stdout).toContain(`hipo init · ${join(dir, 'ws')}\n  kept     memory/`);
    expect(readdirSync(join(dir, 'ws', 'sub'))).toEqual([]);
    expect(runCli(['uninstall', '--dir', join(dir, 'ws')]).stdout).toContain("nothing of hipo's installed");
    const both = runCli(['init', 'a', '--dir', 'b'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('two folders given');
  });

  it('--dir at the memory folder, or a folder in it, points at its workspace', () => {
    const ws = makeWorkspace({ 'memory/2026-03-14.md': '# 2026-03-14\n- a line\n', 'memory/daily/x.md': 'x' });
    for (const [dir, what] of [
      ['memory', 'the memory folder'],
      ['memory/daily', 'inside the memory folder'],
    ]) {
      const r = runCli(['status', '--dir', join(ws.root, dir!)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `hipo: ${join(ws.root, dir!, 'memory')}: no memory folder here ` +
          `(${join(ws.root, dir!)} is ${what} of the workspace ${ws.root}: use --dir ${ws.root})\n`,
      );
    }
  });

  it('every command documents --dir', () => {
    for (const cmd of ['init', 'compact', 'status', 'daemon', 'search', 'index', 'hook', 'context', 'recall', 'log', 'uninstall', 'mcp']) {
      expect(runCli([cmd, '--help']).stdout, cmd).toContain('--dir <path>');
    }
  });
});
