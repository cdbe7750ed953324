// A command loads its own code only: `hipo --version` no framework at all, other commands not
// the daemon's watcher, the compaction pipeline or the search index unless they use them.
import { describe, expect, it } from 'vitest';
import { loadedModules, loadReportingEnv } from '../helpers/loaded.js';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const run = (args: string[]) => {
  const r = runCli(args, { env: loadReportingEnv() });
  return { ...r, loaded: loadedModules(r.stderr) };
};

describe('what a command loads', () => {
  it('answers --version from two small modules', () => {
    for (const flag of ['--version', '-v']) {
      const r = run([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
      expect(r.loaded).toEqual(['dist/cli.js', 'dist/cli/version.js']);
    }
  });

  it('loads one command module, and no watcher, scheduler or index code for status', () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['y'] }) });
    const r = run(['status', '--dir', ws.root, '--now', '2026-06-01']);
    expect(r.code).toBe(0);
    expect(r.loaded.filter((m) => m.startsWith('dist/cli/commands/'))).toEqual(['dist/cli/commands/status.js']);
    for (const heavy of [
      'dist/daemon/watcher.js',
      'node_modules/node-cron',
      'dist/daemon/daemon.js',
      'dist/index/',
      'dist/search/',
      'dist/summarize/extractive.js',
      'dist/cycle/compaction.js',
    ]) {
      expect(r.loaded.filter((m) => m.startsWith(heavy))).toEqual([]);
    }
  });

  it('still lists every command in the help', () => {
    const r = run(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['init', 'compact', 'status', 'daemon', 'search', 'index', 'mcp', 'recall', 'context', 'log', 'hook', 'uninstall'])
      expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
  });
});
