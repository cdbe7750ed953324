// One-shot commands handing their work to a running daemon over `.hipo/daemon.sock`: the real
// daemon child process, the real `hipo` CLI, a real Unix socket.
import { appendFileSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askDaemon } from '../../src/daemon/ask.js';
import { settingsDigest } from '../../src/config/settings-source.js';
import { loadedModules, loadReportingEnv } from '../helpers/loaded.js';
import { daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { node, rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli, runCliAsync } from '../helpers/workspace.js';
import { connectMcp, startRawMcp } from '../helpers/mcp.js';
import { completion, echoSummary, type RecordedRequest, startFakeLlm } from '../helpers/llm-server.js';

const start = daemonsForTests();

/** What the daemon's settings digest is, for a daemon started with `env` (test/helpers/daemon.ts). */
const settingsOf = (root: string, env: NodeJS.ProcessEnv): string => settingsDigest(root, { ...process.env, HIPO_NOW: '', ...env });

/**
 * `slow`: the watcher reports a change only after 20 s of quiet, so only the socket can see it
 * sooner (with room for a command that takes seconds to start on a loaded machine).
 */
function workspace(slow = false) {
  const ws = makeWorkspace(
    {},
    slow ? { ...FAST_DAEMON, daemon: { ...FAST_DAEMON.daemon, debounceMs: 20_000, writeFinishMs: 20_000 } } : FAST_DAEMON,
  );
  for (const date of ['2026-06-01', '2026-06-02']) ws.write(`memory/${date}.md`, rawLog(date, { [`work ${date} [project]`]: ['started'] }));
  ws.write('now.txt', '2026-06-02');
  return { ws, env: { HIPO_NOW_FILE: join(ws.root, 'now.txt') } };
}

describe('hipo compact with a daemon running', () => {
  it('is run by the daemon, which sees a line appended just before, on an owner-only socket', async () => {
    const { ws, env } = workspace(true);
    // A binding folder a crashed daemon left behind (daemon/socket.ts) is cleared at start.
    ws.write('.hipo/.s-Xk29fQ/s', '');
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the catch-up and first index');
    expect(statSync(join(ws.stateDir, 'daemon.sock')).mode & 0o777).toBe(0o600);
    expect(readdirSync(ws.stateDir).filter((f) => f.startsWith('.s-'))).toEqual([]);
    // Appended and compacted at once: no time for the watcher to report the change first.
    appendFileSync(join(ws.root, 'memory/2026-06-02.md'), '- decided to hand compaction to the daemon\n');
    const r = runCli(['compact', '--dir', ws.root], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/regenerate daily\/2026-06-02\.md/);
    expect(r.stdout).toMatch(/run by the daemon/);
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('decided to hand compaction to the daemon');
    await d.waitFor((l) => l.event === 'cycle' && l.reason === 'hipo compact', 5000, "the daemon's log of that cycle");
    // --json says so too; nothing left to do now. The command loaded no compaction code.
    const again = runCli(['compact', '--json', '--dir', ws.root], { env: { ...env, ...loadReportingEnv() } });
    const j = JSON.parse(again.stdout);
    expect(j.searchIndex).toEqual({ updated: false, byDaemon: true });
    expect(j.cycles).toBe(0);
    const loaded = loadedModules(again.stderr);
    expect(loaded).toContain('dist/daemon/ask.js');
    expect(loaded.filter((m) => /^dist\/(cycle|summarize|plan|compose|index)\//.test(m) || m === 'dist/daemon/watcher.js')).toEqual([]);
    // Nor the command line, the configuration's validation or the redactor: the daemon's answer is redacted already.
    expect(loaded.filter((m) => /^dist\/(cli\/main|config\/config|redact)\b/.test(m) || m.startsWith('node_modules/'))).toEqual([]);
  });

  it('is done by the command itself for another clock, a dry run or a catch-up', async () => {
    const { ws, env } = workspace();
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const cycles = () => d.logs.filter((l) => l.event === 'cycle').length;
    const before = cycles();
    for (const args of [['--now', '2026-06-02'], ['--dry-run'], ['--catch-up']]) {
      const r = await runCliAsync(['compact', ...args, '--dir', ws.root], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/run by the daemon/);
    }
    expect(cycles()).toBe(before);
  });

  it('falls back to doing the work when the daemon is gone, even past a stale socket', async () => {
    const { ws, env } = workspace();
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    d.child.kill('SIGTERM');
    await d.exited;
    expect(ws.exists('.hipo/daemon.sock')).toBe(false);
    appendFileSync(join(ws.root, 'memory/2026-06-02.md'), '- no daemon now\n');
    const local = runCli(['compact', '--dir', ws.root], { env });
    expect(local.code).toBe(0);
    expect(local.stdout).not.toMatch(/run by the daemon/);
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('no daemon now');
    // A daemon killed outright leaves its socket file: nobody answers on it.
    const killed = start(ws.root, env);
    await killed.waitFor((l) => l.event === 'listening');
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(ws.exists('.hipo/daemon.sock')).toBe(true);
    appendFileSync(join(ws.root, 'memory/2026-06-02.md'), '- after a crash\n');
    const afterCrash = runCli(['compact', '--dir', ws.root], { env });
    expect(afterCrash.code).toBe(0);
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('after a crash');
    // The next daemon takes the socket over.
    const next = start(ws.root, env);
    await next.waitFor((l) => l.event === 'listening');
    const ping = { op: 'ping', clock: `file:${env.HIPO_NOW_FILE}`, settings: settingsOf(ws.root, env) } as const;
    expect(await askDaemon<{ pid: number }>(ws, ping, 5000)).toEqual({
      ok: true,
      result: { pid: next.child.pid },
    });
  });

  it('answers `hipo search` and `hipo recall` from the index it keeps open, as the commands would', async () => {
    const { ws, env } = workspace();
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors'] }));
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const args = ['search', 'zeppelin', 'hangar', '--mode', 'bm25', '-n', '5', '--json', '--dir', ws.root];
    const recallArgs = ['recall', 'what did I measure', '--also', 'zeppelin hangar', '--budget', '400', '--json', '--dir', ws.root];
    const asked = runCli(args, { env: { ...env, ...loadReportingEnv() } });
    const askedRecall = runCli(recallArgs, { env: { ...env, ...loadReportingEnv() } });
    // The commands loaded no search, index or embedder code: the daemon searched.
    const heavy = /^dist\/(index\/(db|search-index|update|embed)|search\/search|cli\/main)\b/;
    for (const r of [asked, askedRecall]) {
      expect(r.code).toBe(0);
      const loaded = loadedModules(r.stderr);
      expect(loaded).toContain('dist/daemon/ask.js');
      expect(loaded.filter((m) => heavy.test(m) || m.startsWith('node_modules/'))).toEqual([]);
    }
    d.child.kill('SIGTERM');
    await d.exited;
    // The same search and recall with no daemon: the same answers, in the same JSON shape.
    const itself = runCli(args, { env });
    expect(itself.code).toBe(0);
    const strip = (r: { stdout: string }) => ({ ...JSON.parse(r.stdout), ms: 0 });
    expect(strip(asked)).toEqual(strip(itself));
    expect(strip(asked).hits.map((h: { path: string }) => h.path)).toContain('memory/2026-06-02.md');
    const recalled = JSON.parse(askedRecall.stdout);
    expect(recalled).toEqual(JSON.parse(runCli(recallArgs, { env }).stdout));
    expect(recalled.passages.map((p: { path: string }) => p.path)).toContain('memory/2026-06-02.md');
  });

  it('finds what was just written in a `search.include` folder, which the watcher does not follow', async () => {
    const ws = makeWorkspace({}, { ...FAST_DAEMON, search: { include: ['knowledge'] } });
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'work [project]': ['started'] }));
    ws.write('knowledge/runbook.md', '# Runbook\n\n## restarts\n- restart the workers one by one\n');
    const env = { HIPO_NOW: '2026-06-02' };
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    ws.write('knowledge/zeppelin.md', '# Zeppelin\n\n## hangar\n- the hangar doors are 41 m wide\n');
    const r = runCli(['search', 'zeppelin', 'hangar', '--mode', 'bm25', '--json', '--dir', ws.root], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hits.map((h: { path: string }) => h.path)).toContain('knowledge/zeppelin.md');
    // The daemon answered it (a command that searched itself would have found it too).
    await d.waitFor((l) => l.event === 'index' && l.files === 1, 10_000, 'the index update the search asked for');
  });

  it("answers the MCP server's searches and recalls too, as the server answers them itself", async () => {
    const { ws, env } = workspace();
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors'] }));
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const search = async (stderr: string[]) => {
      const client = await connectMcp(['--dir', ws.root], { env: { ...env, ...loadReportingEnv() }, stderr });
      try {
        const r = await client.callTool({ name: 'search', arguments: { query: 'zeppelin hangar', mode: 'bm25', limit: 5 } });
        const recalled = await client.callTool({ name: 'recall', arguments: { question: 'the zeppelin hangar doors', budget: 400 } });
        return { ...(r.structuredContent as { hits: { path: string; score: number }[] }), recalled: recalled.structuredContent };
      } finally {
        await client.close();
      }
    };
    const asked: string[] = [];
    const byDaemon = await search(asked);
    expect(byDaemon.hits.map((h) => h.path)).toContain('memory/2026-06-02.md');
    // The server opened no index: the daemon searched.
    expect(
      loadedModules(asked.join('')).filter((m) => /^dist\/index\/(db|search-index)\b/.test(m) || m.includes('better-sqlite3')),
    ).toEqual([]);
    d.child.kill('SIGTERM');
    await d.exited;
    const itself: string[] = [];
    expect(await search(itself)).toEqual(byDaemon);
    expect(loadedModules(itself.join(''))).toContain('dist/index/search-index.js');
  });

  it("lets an MCP server whose stdin closes end at once while the daemon's query expansion hangs", async () => {
    // Compaction's calls are answered; every expansion hangs.
    const llm = await startFakeLlm((req) =>
      req.body.messages[0]?.content.startsWith('You write search queries') ? { hang: true } : completion(echoSummary(req)),
    );
    const { ws, env } = workspace();
    ws.write('hipo.config.json', `${JSON.stringify({ ...FAST_DAEMON, llm: { baseUrl: llm.url, model: 'test-model', maxRetries: 0 } })}\n`);
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const sent = llm.requests.length;
    const mcp = startRawMcp(['--dir', ws.root], { ...env, ...loadReportingEnv() });
    mcp.call('search', { query: 'work started', mode: 'bm25', expand: true });
    await d.until(() => llm.requests.length > sent, 20_000, "the daemon's expansion request");
    const t0 = Date.now();
    mcp.child.stdin.end();
    const exited = await Promise.race([mcp.exited, new Promise((r) => setTimeout(() => r('still running'), 8_000))]);
    expect(exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(5_000);
    // The daemon made the call; the server did not search itself (and call the model again) for nobody.
    expect(llm.requests).toHaveLength(sent + 1);
    const loaded = loadedModules(mcp.stderr());
    expect(loaded).toContain('dist/daemon/ask.js');
    expect(loaded.filter((m) => /^dist\/(search\/expand|index\/search-index)\b/.test(m))).toEqual([]);
    expect(d.child.exitCode).toBeNull();
  });

  it('answers other searches while one waits for its model, and `hipo search --expand` waits past lockWaitMs for it', async () => {
    const isExpansion = (req: RecordedRequest) => req.body.messages[0]?.content.startsWith('You write search queries') ?? false;
    const expansions = () => llm.requests.filter(isExpansion);
    // The daemon's expansion is answered when the test says; any other (a command's own) at once.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const llm = await startFakeLlm(async (req) => {
      if (!isExpansion(req)) return completion(echoSummary(req));
      if (expansions().length === 1) await held;
      return completion('lex: zeppelin hangar');
    });
    const { ws, env } = workspace();
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors'] }));
    const lockWaitMs = 500;
    const config = { ...FAST_DAEMON, lockWaitMs, llm: { baseUrl: llm.url, model: 'test-model', maxRetries: 0 } };
    ws.write('hipo.config.json', `${JSON.stringify({ ...config, search: { expand: { timeoutMs: 120_000 } } })}\n`);
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const reporting = { ...env, ...loadReportingEnv() };
    const expanded = runCliAsync(['search', 'doors', '--expand', '--mode', 'bm25', '--json', '--dir', ws.root], { env: reporting });
    await d.until(() => expansions().length > 0, 20_000, "the daemon's expansion request");
    const t0 = Date.now();
    // Another search meanwhile: the daemon answers it (the command ran no search of its own),
    // its turn at the index not queued behind the model's call.
    const plain = await runCliAsync(['search', 'zeppelin', '--mode', 'bm25', '--json', '--dir', ws.root], { env: reporting });
    expect(plain.code).toBe(0);
    expect(loadedModules(plain.stderr)).not.toContain('dist/cli/main.js');
    expect(JSON.parse(plain.stdout).hits.map((h: { path: string }) => h.path)).toContain('memory/2026-06-02.md');
    // The model answers well past lockWaitMs: a command that gave up on the daemon by then
    // would have asked the model again itself.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 4 * lockWaitMs - (Date.now() - t0))));
    answer();
    const r = await expanded;
    expect(r.code).toBe(0);
    expect(loadedModules(r.stderr)).not.toContain('dist/cli/main.js');
    expect(JSON.parse(r.stdout).expansion).toEqual({ model: 'test-model', cached: false });
    expect(expansions()).toHaveLength(1);
  });

  it("gives an MCP search that expands lockWaitMs plus the model's time: the daemon's slow expansion is its answer", async () => {
    const isExpansion = (req: RecordedRequest) => req.body.messages[0]?.content.startsWith('You write search queries') ?? false;
    const expansions = () => llm.requests.filter(isExpansion);
    const lockWaitMs = 500;
    // The daemon's expansion comes well past lockWaitMs, well within search.expand.timeoutMs;
    // any other (the server's own, had it given up on the daemon) at once.
    const llm = await startFakeLlm((req) => {
      if (!isExpansion(req)) return completion(echoSummary(req));
      return { ...completion('lex: zeppelin hangar'), ...(expansions().length === 1 ? { delayMs: 4 * lockWaitMs } : {}) };
    });
    const { ws, env } = workspace();
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors'] }));
    const config = { ...FAST_DAEMON, lockWaitMs, llm: { baseUrl: llm.url, model: 'test-model', maxRetries: 0 } };
    ws.write('hipo.config.json', `${JSON.stringify({ ...config, search: { expand: { timeoutMs: 120_000 } } })}\n`);
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const stderr: string[] = [];
    const client = await connectMcp(['--dir', ws.root], { env: { ...env, ...loadReportingEnv() }, stderr });
    let tookMs = 0;
    try {
      const t0 = Date.now();
      const r = await client.callTool({ name: 'search', arguments: { query: 'doors', mode: 'bm25', expand: true } });
      tookMs = Date.now() - t0;
      expect(r.isError).toBeFalsy();
      const found = r.structuredContent as { also: { kind: string; text: string }[]; hits: { path: string }[] };
      expect(found.also).toEqual([{ kind: 'lex', text: 'zeppelin hangar' }]);
      expect(found.hits.map((h) => h.path)).toContain('memory/2026-06-02.md');
    } finally {
      await client.close();
    }
    // One call to the model, the daemon's: the server neither asked it again nor searched itself.
    expect(expansions()).toHaveLength(1);
    const loaded = loadedModules(stderr.join(''));
    expect(loaded).toContain('dist/daemon/ask.js');
    expect(loaded.filter((m) => /^dist\/(search\/expand|index\/search-index)\b/.test(m))).toEqual([]);
    expect(tookMs).toBeGreaterThanOrEqual(4 * lockWaitMs);
  });

  it('declines a command with another clock or other settings, and that command does the work itself', async () => {
    const { ws, env } = workspace();
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors'] }));
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const search = { query: 'zeppelin', mode: 'bm25', limit: 5, filters: {}, update: true } as const;
    const settings = settingsOf(ws.root, env);
    const clock = `file:${env.HIPO_NOW_FILE}`;
    expect((await askDaemon(ws, { op: 'search', clock, settings, search }, 10_000))?.ok).toBe(true);
    expect(await askDaemon(ws, { op: 'search', clock: 'now:2026-06-09', settings, search }, 5000)).toBeNull();
    // A variable or config file the daemon did not start with: its answer might not be the command's.
    expect(
      await askDaemon(ws, { op: 'search', clock, settings: settingsOf(ws.root, { ...env, HIPO_EMBED_MODEL: 'x' }), search }, 5000),
    ).toBeNull();
    // A command started with a variable the daemon does not have runs the search itself.
    const own = runCli(['search', 'zeppelin', '--mode', 'bm25', '--json', '--dir', ws.root], {
      env: { ...env, HIPO_SETTINGS_PROBE: '1', ...loadReportingEnv() },
    });
    expect(own.code).toBe(0);
    expect(loadedModules(own.stderr)).toContain('dist/cli/main.js');
    expect(own.stdout).toMatch(/zeppelin/i);
    // A changed config: the command runs the search itself, or the daemon answers once it has
    // taken the new config in (it watches the file; which comes first is a race). Either way the
    // word the config now redacts is not printed.
    ws.write('hipo.config.json', `${JSON.stringify({ ...FAST_DAEMON, redactPatterns: ['zeppelin'] })}\n`);
    const r = runCli(['search', 'zeppelin', '--mode', 'bm25', '--json', '--dir', ws.root], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/zeppelin/i);
  });
});

describe('a daemon whose workspace was moved or renamed', () => {
  it('serves it no more: commands there do their own work, status says so, and the daemon waits without a trace', async () => {
    // A heartbeat every second, so the daemon runs (and finds its folder gone) within the test.
    const ws = makeWorkspace({}, { ...FAST_DAEMON, daemon: { ...FAST_DAEMON.daemon, heartbeat: '* * * * * *' } });
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'work [project]': ['started'] }));
    const env = { HIPO_NOW: '2026-06-02' };
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    expect(runCli(['compact', '--dir', ws.root], { env }).stdout).toMatch(/run by the daemon/);
    const moved = `${ws.root}-moved`;
    renameSync(ws.root, moved);
    try {
      appendFileSync(join(moved, 'memory/2026-06-02.md'), '- measured the quokka enclosure\n');
      const r = runCli(['compact', '--dir', moved], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/run by the daemon/);
      expect(readFileSync(join(moved, 'memory/daily/2026-06-02.md'), 'utf8')).toContain('quokka enclosure');
      const found = JSON.parse(runCli(['search', 'quokka', '--mode', 'bm25', '--json', '--dir', moved], { env }).stdout);
      expect(found.hits.map((h: { path: string }) => h.path)).toContain('memory/2026-06-02.md');
      expect(runCli(['status', '--dir', moved], { env }).stdout).toContain(
        `daemon: not serving this workspace: pid ${d.child.pid} runs for ${ws.root}`,
      );
      const status = JSON.parse(runCli(['status', '--json', '--dir', moved], { env }).stdout);
      expect(status.daemon).toMatchObject({ running: true, servesHere: false, root: ws.root });
      // The daemon says once that its folder is gone, and stays up without making it again.
      await d.waitFor((l) => l.event === 'run-error' && l.message.includes('is gone'), 20_000, 'the warning');
      await new Promise((r) => setTimeout(r, 2500));
      expect(d.logs.filter((l) => l.event === 'run-error')).toHaveLength(1);
      expect(d.child.exitCode).toBeNull();
      expect(existsSync(ws.root)).toBe(false);
    } finally {
      renameSync(moved, ws.root);
    }
    // Back where it was started, it is served again.
    appendFileSync(join(ws.root, 'memory/2026-06-02.md'), '- back home\n');
    await d.until(() => runCli(['compact', '--dir', ws.root], { env }).stdout.includes('run by the daemon'), 20_000, 'the daemon');
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('back home');
  });
});

describe("the daemon's settings in its answers", () => {
  it('a recall the daemon answers reports a typo in a config key, as the command does', async () => {
    const ws = makeWorkspace({}, { ...FAST_DAEMON, compaction: { rootMaxToken: 10 } });
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'zeppelin hangar [project]': ['measured the zeppelin hangar doors'] }));
    const d = start(ws.root);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    const typo =
      `${ws.root}/hipo.config.json: unknown setting "compaction.rootMaxToken" ignored` + ' (did you mean "compaction.rootMaxTokens"?)';
    const text = runCli(['recall', 'zeppelin hangar', '--dir', ws.root], { env: loadReportingEnv() });
    expect(loadedModules(text.stderr)).toContain('dist/daemon/ask.js');
    expect(loadedModules(text.stderr)).not.toContain('dist/cli/main.js');
    expect(text.stderr).toContain(`hipo: warning: ${typo}`);
    const json = runCli(['recall', 'zeppelin hangar', '--json', '--dir', ws.root]);
    expect(JSON.parse(json.stdout).warnings).toEqual([typo]);
  });
});

describe('a config changed under a running daemon', () => {
  it("a lockWaitMs too long for a timer is reported by the command, with no timer's overflow warning", async () => {
    const { ws, env } = workspace();
    const d = start(ws.root, env);
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    ws.write('hipo.config.json', `${JSON.stringify({ ...FAST_DAEMON, lockWaitMs: 2 ** 31 })}\n`);
    const r = runCli(['search', 'started', '--mode', 'bm25', '--dir', ws.root], { env });
    expect(r.stderr).not.toContain('TimeoutOverflowWarning');
    expect(r.stderr).toContain('"lockWaitMs" must be at most 2147483647');
    expect(r.code).toBe(2);
  });
});

describe('askDaemon without a daemon', () => {
  it('answers null at once when there is no socket, or only a file in its place', async () => {
    const ws = makeWorkspace();
    const t0 = performance.now();
    expect(await askDaemon(ws, { op: 'ping', clock: null, settings: '' }, 5000)).toBeNull();
    ws.write('.hipo/daemon.sock', 'not a socket');
    expect(await askDaemon(ws, { op: 'ping', clock: null, settings: '' }, 5000)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(4000);
    writeFileSync(join(ws.stateDir, 'daemon.sock'), '');
  });
});
