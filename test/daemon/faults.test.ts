// Faults the daemon survives, with real child processes: kill -9 mid-cycle, the memory folder
// vanishing, unreadable files, symlink loops, bursts of files, growing logs, a full disk.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/lib/corpus.js';
import { splitFrontmatter } from '../../src/tree/frontmatter.js';
import { contentHash } from '../../src/tree/hash.js';
import { caughtUp, daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { completion, echoSummary, type RecordedRequest, requestedNode, startFakeLlm } from '../helpers/llm-server.js';
import { cycle, node, nodeHashes, rawLog, rawLogHashes, statusOf } from '../helpers/tree.js';
import { makeWorkspace, runCli, runCliAsync, type TestWorkspace } from '../helpers/workspace.js';

const start = daemonsForTests();
/**
 * Sends the daemon SIGTERM and expects it gone within 10 s, exit 0, its lock removed. Returns
 * when the signal was sent, for a test that times the stop.
 */
async function stopsOnSigterm(d: ReturnType<typeof start>, ws: TestWorkspace): Promise<number> {
  const t0 = Date.now();
  d.child.kill('SIGTERM');
  const exited = await Promise.race([d.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
  expect(exited).toEqual({ code: 0, signal: null });
  expect(ws.exists('.hipo/daemon.lock')).toBe(false);
  return t0;
}

const settled = (ws: TestWorkspace, now: string) =>
  JSON.parse(runCli(['compact', '--dry-run', '--json', '--now', now, '--dir', ws.root]).stdout).plan.actions.length === 0;

describe('daemon faults', () => {
  it('survives kill -9 at random points: the tree ends as a clean run builds it, raw logs untouched', async () => {
    const ws = makeWorkspace({}, FAST_DAEMON);
    generateCorpus(ws.memoryDir, { start: '2026-01-05', days: 45, seed: 11 });
    const raws = rawLogHashes(ws);
    const clean = makeWorkspace({}, FAST_DAEMON);
    generateCorpus(clean.memoryDir, { start: '2026-01-05', days: 45, seed: 11 });
    await cycle(clean, '2026-03-01', { catchUp: true });

    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 12; i++) {
      const d = start(ws.root, { HIPO_NOW: '2026-03-01' });
      await d.waitFor((l) => l.event === 'start');
      await new Promise((r) => setTimeout(r, 30 + Math.floor(rand() * 250)));
      d.child.kill('SIGKILL');
      await d.exited;
      // Whatever was on disk at the kill is whole: every node parses. (A write cut short leaves
      // only a hidden temp file, swept by the next run.)
      for (const f of ws.files('memory').filter((f) => !/^memory\/\d{4}-\d{2}-\d{2}\.md$/.test(f))) {
        if (f.split('/').pop()!.startsWith('.')) expect(f).toMatch(/\.hipo-tmp-\d+-\d+$/);
        else expect(splitFrontmatter(ws.read(f)).data, f).not.toBeNull();
      }
    }
    const d = start(ws.root, { HIPO_NOW: '2026-03-01' });
    await d.until(() => settled(ws, '2026-03-01'), 60_000, 'the tree to settle after the kills');
    expect(nodeHashes(ws)).toEqual(nodeHashes(clean));
    expect(rawLogHashes(ws)).toEqual(raws);
    // The index matches the files: an update finds nothing to do. (The killed daemons may have
    // finished everything already, so this one need not log a cycle or an index update: its
    // state file says when it has caught up.)
    await d.until(() => caughtUp(d, ws.root), 60_000, 'the daemon to report the index current');
    d.child.kill('SIGTERM');
    await d.exited;
    const idx = JSON.parse(runCli(['index', '--json', '--dir', ws.root]).stdout);
    expect(idx.added + idx.changed + idx.removed).toBe(0);
    expect(ws.files().filter((f) => f.includes('hipo-tmp'))).toEqual([]);
  }, 120_000);

  it('waits out a deleted memory folder and picks it up when it comes back', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['first'] }) }, FAST_DAEMON);
    const d = start(ws.root, { HIPO_NOW: '2026-06-02' });
    await d.until(() => ws.exists('memory/ROOT.md'));
    rmSync(ws.memoryDir, { recursive: true, force: true });
    await d.waitFor((l) => l.event === 'run-error' && /no memory folder/.test(l.message), 20_000, 'the missing-folder warning');
    mkdirSync(ws.memoryDir);
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'back again [project]': ['the folder returned'] }));
    await d.until(() => ws.exists('memory/daily/2026-06-02.md'), 20_000, 'the new daily node');
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('the folder returned');
    expect(d.child.exitCode).toBeNull();
  });

  it('names the memory folder, not ".", when it is moved away', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['first'] }) }, FAST_DAEMON);
    const d = start(ws.root, { HIPO_NOW: '2026-06-02' });
    await d.until(() => ws.exists('memory/ROOT.md'));
    renameSync(ws.memoryDir, `${ws.memoryDir}.away`);
    const warned = await d.waitFor(
      (l) => l.event === 'run-error' && /no memory folder/.test(l.message),
      20_000,
      'the missing-folder warning',
    );
    expect(warned.message).toContain('(change: memory/ (unlinkDir))');
    renameSync(`${ws.memoryDir}.away`, ws.memoryDir);
  });

  it('keeps going past a symlink loop, a FIFO and a burst of 1,000 files', async () => {
    const ws = makeWorkspace({}, { ...FAST_DAEMON, compaction: { limits: { daily: 200, weekly: 50, monthly: 20, root: 1 } } });
    symlinkSync(join(ws.memoryDir, 'loop'), join(ws.memoryDir, 'loop'));
    symlinkSync(ws.memoryDir, join(ws.memoryDir, 'self'));
    execFileSync('mkfifo', [join(ws.memoryDir, '2026-01-01.md')]);
    const d = start(ws.root, { HIPO_NOW: '2029-01-01' });
    await d.waitFor((l) => l.event === 'start');
    const first = new Date('2026-01-02T00:00:00Z').getTime();
    for (let i = 0; i < 1000; i++) {
      const date = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
      writeFileSync(join(ws.memoryDir, `${date}.md`), rawLog(date, { [`burst ${i} [project]`]: [`file ${i}`] }));
    }
    await d.until(() => settled(ws, '2029-01-01'), 90_000, 'the burst to be compacted');
    expect(ws.files('memory/daily')).toHaveLength(1000);
    expect(d.child.exitCode).toBeNull();
    // The burst was debounced: far fewer change-triggered runs than files.
    expect(d.logs.filter((l) => l.event === 'cycle' && String(l.reason).includes('change')).length).toBeLessThan(50);
  }, 120_000);

  it('catches a raw log that keeps growing while cycles read it', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': rawLog('2026-06-01', { 'stream [project]': ['line 0'] }) }, FAST_DAEMON);
    const d = start(ws.root, { HIPO_NOW: '2026-06-01' });
    await d.until(() => ws.exists('memory/ROOT.md'));
    for (let i = 1; i <= 40; i++) {
      appendFileSync(join(ws.memoryDir, '2026-06-01.md'), `- line ${i}\n`);
      await new Promise((r) => setTimeout(r, 15));
    }
    const final = contentHash(ws.read('memory/2026-06-01.md'));
    await d.until(() => node(ws, 'daily/2026-06-01.md').data['source-hash'] === final, 20_000, 'the daily node to catch up with the log');
    expect(node(ws, 'daily/2026-06-01.md').body).toContain('line 40');
  });

  it('keeps compacting when the LLM and embeddings endpoints are down', async () => {
    const dead = 'http://127.0.0.1:9/v1'; // discard port: nothing listens
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': Array.from({ length: 250 }, (_, i) => `decided item ${i}`) }) },
      {
        ...FAST_DAEMON,
        llm: { baseUrl: dead, model: 'm', timeoutMs: 500, maxRetries: 0 },
        search: { embedder: 'openai', openai: { baseUrl: dead, model: 'e', timeoutMs: 500 } },
      },
    );
    const d = start(ws.root, { HIPO_NOW: '2026-06-02' });
    await d.until(() => ws.exists('memory/ROOT.md'), 30_000, 'the tree');
    expect(node(ws, 'daily/2026-06-01.md').data.summarizer).toBe('extractive');
    await d.waitFor((l) => l.event === 'index-warning' || l.event === 'index-error', 30_000, 'the embeddings warning');
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'y [project]': ['still alive'] }));
    await d.until(() => ws.exists('memory/daily/2026-06-02.md'), 30_000, 'the next day');
    expect(d.child.exitCode).toBeNull();
    // Keywords still work without vectors.
    const found = JSON.parse(runCli(['search', 'still alive', '--mode', 'bm25', '--no-update', '--json', '--dir', ws.root]).stdout);
    expect(found.hits.length).toBeGreaterThan(0);
  });

  it('stops on SIGTERM while an embeddings endpoint stalls after its headers', async () => {
    const stalling = await startFakeLlm(() => ({ stall: true }));
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['decided to stall'] }) },
      // A timeout longer than the test: only abandoning the request lets the daemon stop.
      { ...FAST_DAEMON, search: { embedder: 'openai', openai: { baseUrl: stalling.url, model: 'e', timeoutMs: 120_000 } } },
    );
    const d = start(ws.root, { HIPO_NOW: '2026-06-02' });
    await d.until(() => stalling.requests.length > 0, 20_000, 'the embeddings request');
    await stopsOnSigterm(d, ws);
  });

  it('stops on SIGTERM while the chat endpoint never answers; the node gets its model pass later', async () => {
    const llm = await startFakeLlm(() => ({ hang: true }));
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['decided to hang', 'shipped the stall', 'fixed the wait'] }) },
      // A timeout longer than the test: only abandoning the call lets the daemon stop.
      {
        ...FAST_DAEMON,
        compaction: { thresholds: { daily: 3, weekly: 3, monthly: 3 } },
        llm: { baseUrl: llm.url, model: 'test-model', timeoutMs: 120_000, maxRetries: 0 },
      },
    );
    const d = start(ws.root, { HIPO_NOW: '2026-06-02' });
    await d.until(() => llm.requests.length > 0, 20_000, 'the chat request');
    expect(requestedNode(llm.requests[0]!)).toBe('2026-06-01');
    const t0 = await stopsOnSigterm(d, ws);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(ws.exists('.hipo/lock')).toBe(false);
    // The index is left to the next start: a stopping daemon does not update it after the cycle.
    expect(d.logs.filter((l) => l.event === 'index')).toEqual([]);
    expect(llm.requests).toHaveLength(1);
    // The day is written whole by the extractive summarizer, or not at all; the endpoint is not
    // taken for down, and nothing of the abandoned call is cached.
    if (ws.exists('memory/daily/2026-06-01.md')) {
      expect(node(ws, 'daily/2026-06-01.md').data.summarizer).toBe('extractive');
      expect(node(ws, 'daily/2026-06-01.md').body).toContain('decided to hang');
    }
    if (ws.exists('.hipo/llm-state.json')) expect(JSON.parse(ws.read('.hipo/llm-state.json')).backoff).toBeNull();
    expect(ws.files('.hipo/llm-cache')).toEqual([]);

    llm.respond((req) => completion(echoSummary(req)));
    const again = start(ws.root, { HIPO_NOW: '2026-06-02' });
    await again.until(
      () => ws.exists('memory/daily/2026-06-01.md') && node(ws, 'daily/2026-06-01.md').data.summarizer === 'llm:test-model',
      20_000,
      'the model pass of 2026-06-01',
    );
    expect(node(ws, 'daily/2026-06-01.md').body).toContain('model summary of 2026-06-01');
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  });

  it("stops on SIGTERM while a search's query expansion never answers; the command searches itself", async () => {
    // The daemon's expansion call hangs; compaction's calls, and any later expansion, are answered.
    const isExpansion = (req: RecordedRequest) => req.body.messages[0]?.content.startsWith('You write search queries') ?? false;
    const expansions = () => llm.requests.filter(isExpansion);
    const llm = await startFakeLlm((req) =>
      !isExpansion(req) ? completion(echoSummary(req)) : expansions().length === 1 ? { hang: true } : completion('lex: zeppelin hangar'),
    );
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'zeppelin [project]': ['measured the zeppelin hangar doors'] }) },
      // search.expand.timeoutMs as by default: only abandoning the call lets the daemon stop sooner.
      { ...FAST_DAEMON, llm: { baseUrl: llm.url, model: 'test-model', maxRetries: 0 }, search: { expand: { timeoutMs: 20_000 } } },
    );
    const env = { HIPO_NOW: '2026-06-02' };
    const d = start(ws.root, env);
    await d.until(() => caughtUp(d, ws.root), 30_000, 'the catch-up and first index');
    const searched = runCliAsync(['search', 'zeppelin', '--expand', '--mode', 'bm25', '--json', '--dir', ws.root], { env });
    await d.until(() => expansions().length > 0, 20_000, "the daemon's expansion request");
    const t0 = await stopsOnSigterm(d, ws);
    expect(Date.now() - t0).toBeLessThan(5_000);
    // The command was not left waiting (nor was the hanging call its own): it searched itself,
    // its own expansion answered.
    const r = await searched;
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hits.map((h: { path: string }) => h.path)).toContain('memory/2026-06-01.md');
    expect(answer.expansion).toEqual({ model: 'test-model', cached: false });
    expect(expansions()).toHaveLength(2);
  });

  it.skipIf(process.getuid?.() === 0)('logs an unreadable raw log and compacts the rest', async () => {
    const ws = makeWorkspace(
      {
        'memory/2026-06-01.md': rawLog('2026-06-01', { 'ok [project]': ['fine'] }),
        'memory/2026-06-02.md': rawLog('2026-06-02', { 'secret [project]': ['hidden'] }),
      },
      FAST_DAEMON,
    );
    chmodSync(join(ws.memoryDir, '2026-06-02.md'), 0o000);
    const d = start(ws.root, { HIPO_NOW: '2026-06-03' });
    await d.waitFor((l) => l.event === 'warning' && /2026-06-02\.md: skipped: cannot be read \(EACCES\)/.test(l.message));
    await d.until(() => statusOf(ws, 'daily/2026-06-01.md') === 'fixed');
    chmodSync(join(ws.memoryDir, '2026-06-02.md'), 0o644);
  });

  it.skipIf(process.getuid?.() !== 0 || process.platform !== 'linux')(
    'survives a full disk (ENOSPC) and writes once space is back',
    async (ctx) => {
      const mount = mkdtempSync(join(tmpdir(), 'hipo-enospc-'));
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
      } catch (err) {
        rmSync(mount, { recursive: true, force: true });
        // Root without the right to mount (a container): nothing to fill, so skipped, saying why.
        process.stdout.write(
          `[faults] full disk under the daemon: skipped: cannot mount a tmpfs (${(err as Error).message.split('\n')[0]})\n`,
        );
        ctx.skip();
        return;
      }
      try {
        const root = join(mount, 'ws');
        mkdirSync(join(root, 'memory'), { recursive: true });
        writeFileSync(join(root, 'hipo.config.json'), JSON.stringify(FAST_DAEMON));
        const logText = rawLog('2026-06-01', {
          'disk [project]': Array.from({ length: 40 }, (_, i) => `note ${i} about the disk filling up`),
        });
        const rawPath = join(root, 'memory', '2026-06-01.md');
        writeFileSync(rawPath, logText);
        const d = start(root, { HIPO_NOW: '2026-06-02' });
        await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the first catch-up');
        const before = execFileSync('cat', [join(root, 'memory', 'daily', '2026-06-01.md')], { encoding: 'utf8' });
        // Fill the disk, then change the raw log in place (same length: it needs no new space).
        try {
          execFileSync('dd', ['if=/dev/zero', `of=${join(mount, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
        } catch {
          /* dd stops at ENOSPC, as intended */
        }
        const changed = logText.replace('note 7 about', 'NOTE 7 about');
        const fd = openSync(rawPath, 'r+');
        writeSync(fd, changed, 0);
        closeSync(fd);
        await d.waitFor((l) => /ENOSPC/.test(l.message), 20_000, 'the ENOSPC error in the log');
        expect(d.child.exitCode).toBeNull();
        // Nothing half-written: the node is still the old one, whole.
        expect(execFileSync('cat', [join(root, 'memory', 'daily', '2026-06-01.md')], { encoding: 'utf8' })).toBe(before);
        rmSync(join(mount, 'filler'));
        await d.until(
          () => execFileSync('cat', [join(root, 'memory', 'daily', '2026-06-01.md')], { encoding: 'utf8' }).includes('NOTE 7 about'),
          30_000,
          'the retry after space came back',
        );
        expect(execFileSync('cat', [rawPath], { encoding: 'utf8' })).toBe(changed);
        d.child.kill('SIGTERM');
        expect((await d.exited).code).toBe(0);
      } finally {
        try {
          execFileSync('umount', [mount]);
        } catch {
          /* best effort */
        }
        rmSync(mount, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
