// A command loads its own code only: `hipo --version` no framework at all, other commands not
// the daemon's watcher, the compaction pipeline or the search index unless they use them; a hook
// without a daemon, at every prompt, not the PostgreSQL store's or the embedders' code unless
// the workspace uses them.
import { describe, expect, it } from 'vitest';
import { loadedModules, loadReportingEnv } from '../helpers/loaded.js';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const run = (args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}) => {
  const r = runCli(args, { ...opts, env: { ...opts.env, ...loadReportingEnv() } });
  return { ...r, loaded: loadedModules(r.stderr) };
};

/** A workspace with its tree and index built; `config` adds to a wide hook budget (a loaded machine still recalls). */
function indexed(config: Record<string, unknown> = {}) {
  const ws = makeWorkspace(
    {
      'memory/2026-06-01.md': rawLog('2026-06-01', {
        'search latency [project]': ['decided to move search to Postgres full-text search', 'the GIN index builds in a minute'],
      }),
    },
    { timeZone: 'UTC', agents: { hookBudgetMs: 30_000 }, ...config },
  );
  expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--index', '--now', '2026-06-02']).code).toBe(0);
  return ws;
}

/** A hook run by its own process (no daemon asked), as an agent starts it. */
const hook = (root: string, event: string, fields: Record<string, unknown>) =>
  run(['hook', event, '--dir', root, '--now', '2026-06-02'], {
    input: JSON.stringify({ hook_event_name: event, session_id: 's', cwd: root, transcript_path: null, ...fields }),
    env: { HIPO_HOOK_DAEMON: '0' },
  });

/** The loaded modules whose path holds `part` (node_modules may be a link out of the repository: "../…/node_modules/pg/"). */
const loading = (r: { loaded: string[] }, part: string): string[] => r.loaded.filter((m) => m.includes(part));

/** Code a local workspace's hook never uses: the store's, the embedders', the chunker and the summarizer's. */
const NOT_FOR_A_LOCAL_HOOK = [
  'dist/index/pg/',
  'dist/search/pg.js',
  'node_modules/pg/',
  'dist/index/embed/select.js',
  'dist/index/embed/openai.js',
  'dist/index/embed/use-lite.js',
  'dist/index/embed/wink',
  'dist/index/chunk.js',
  'dist/summarize/entries.js',
];

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
      expect(loading(r, heavy)).toEqual([]);
    }
  });

  it("runs a local workspace's prompt and session-start hooks without the store's or the embedders' code", () => {
    const ws = indexed();
    const prompt = hook(ws.root, 'UserPromptSubmit', { prompt: 'why did we move search to postgres' });
    expect(prompt.code).toBe(0);
    // The prompt's recall searched the index.
    expect(prompt.stdout).toContain('decided to move search to Postgres full-text search');
    const start = hook(ws.root, 'SessionStart', { source: 'startup' });
    expect(start.code).toBe(0);
    expect(start.stdout).toContain('"hookEventName":"SessionStart"');
    for (const heavy of NOT_FOR_A_LOCAL_HOOK) {
      expect(loading(prompt, heavy)).toEqual([]);
      expect(loading(start, heavy)).toEqual([]);
    }
  });

  it("still asks a workspace's PostgreSQL store at a prompt, and its local index when the store is down", () => {
    // No server listens on port 1: the store's search is tried, fails, and the local index answers.
    const ws = indexed({ search: { store: 'postgres', postgres: { url: 'postgres://hipo@127.0.0.1:1/hipo' } } });
    const prompt = hook(ws.root, 'UserPromptSubmit', { prompt: 'why did we move search to postgres' });
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('decided to move search to Postgres full-text search');
    for (const used of ['dist/index/pg/store.js', 'dist/search/pg.js', 'node_modules/pg/']) expect(loading(prompt, used)).not.toEqual([]);
  });

  it('still lists every command in the help', () => {
    const r = run(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['init', 'compact', 'status', 'daemon', 'search', 'index', 'mcp', 'recall', 'context', 'log', 'hook', 'uninstall'])
      expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
  });
});
