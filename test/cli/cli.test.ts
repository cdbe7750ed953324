// The hipo executable, run as a real child process.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/state/lock.js';
import { rawLog } from '../helpers/tree.js';
import { CLI, makeWorkspace, runCli } from '../helpers/workspace.js';

const withLogs = () =>
  makeWorkspace({
    'memory/2026-06-01.md': rawLog('2026-06-01', { 'parser [project]': ['decided to keep the scanner'] }),
    'memory/2026-06-02.md': rawLog('2026-06-02', { 'timezone [user]': ['I work from Seoul'] }),
  });

describe('hipo --help', () => {
  it.each([[[]], [['compact']], [['status']], [['init']]])('documents %j', (cmd) => {
    const r = runCli([...cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: hipo/);
    if (cmd[0] === 'compact') expect(r.stdout).toMatch(/--dry-run[\s\S]*--catch-up[\s\S]*--now[\s\S]*--json[\s\S]*--dir/);
    if (cmd[0] === 'compact') expect(r.stdout).toMatch(/Exit codes: 0 done/);
  });

  it('rejects an unknown option with exit code 2', () => {
    const r = runCli(['compact', '--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--frobnicate'/);
  });
});

describe('hipo init', () => {
  it('creates memory/ and a config with the time zone, and never overwrites', () => {
    const ws = makeWorkspace({}, null as never);
    const dir = `${ws.root}/fresh`;
    const first = runCli(['init', dir, '--timezone', 'Europe/Berlin']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/created\s+memory\//);
    expect(JSON.parse(ws.read('fresh/hipo.config.json'))).toMatchObject({ timeZone: 'Europe/Berlin' });
    ws.write('fresh/hipo.config.json', '{"timeZone":"Asia/Seoul"}');
    const second = runCli(['init', dir]);
    expect(second.stdout).toMatch(/kept\s+hipo\.config\.json/);
    expect(ws.read('fresh/hipo.config.json')).toBe('{"timeZone":"Asia/Seoul"}');
  });

  it('creates the memory folder the config already there names, which compact then finds', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', memoryDir: 'notes' });
    expect(existsSync(ws.memoryDir)).toBe(false);
    const r = runCli(['init', ws.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/created\s+notes\//);
    expect(existsSync(ws.memoryDir)).toBe(true);
    expect(runCli(['compact', '--dir', ws.root, '--now', '2026-03-20']).code).toBe(0);
  });

  it('finishes its work and exits 0 when the reader of its output stops early', () => {
    const ws = makeWorkspace({}, null as never);
    // The reader exits before hipo (a Node start-up later) prints anything. pipefail: hipo's exit code.
    const p = spawnSync(
      'bash',
      ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" init "${ws.root}/fresh" --platform claude-code | true`],
      {
        encoding: 'utf8',
      },
    );
    expect(p.stderr).not.toContain('EPIPE');
    expect(p.status).toBe(0);
    expect(existsSync(join(ws.root, 'fresh', '.claude'))).toBe(true);
  });
});

describe('hipo compact', () => {
  it('refuses to run without a memory folder and creates nothing (pitfall 10)', () => {
    const ws = makeWorkspace({}, null as never);
    const { rmSync } = require('node:fs') as typeof import('node:fs');
    rmSync(ws.memoryDir, { recursive: true });
    const r = runCli(['compact', '--dir', ws.root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${ws.memoryDir}: no memory folder here`);
    expect(ws.files()).toEqual([]);
  });

  it('names the config file and key on a bad config', () => {
    const ws = makeWorkspace({}, { timeZone: 'Nowhere/Land' });
    const r = runCli(['compact', '--dir', ws.root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${ws.root}/hipo.config.json: "timeZone" is not an IANA time zone: "Nowhere/Land"`);
  });

  it('rejects an impossible --now', () => {
    const r = runCli(['compact', '--now', '2026-02-30', '--dir', withLogs().root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--now: "2026-02-30" is not a date/);
  });

  it('--dry-run --json prints the plan and writes nothing', () => {
    const ws = withLogs();
    const before = ws.hashes();
    const r = runCli(['compact', '--dry-run', '--json', '--now', '2026-06-03', '--dir', ws.root]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.dryRun).toBe(true);
    // One daily node per cycle; the week waits for its other day, and the month and ROOT for it.
    expect(out.plan.actions.map((a: { action: string; node: string }) => `${a.action} ${a.node}`)).toEqual(['create daily/2026-06-02.md']);
    expect(out.plan.deferred.map((d: { node: string }) => d.node)).toEqual([
      'daily/2026-06-01.md',
      'weekly/2026-W23.md',
      'monthly/2026-06.md',
      'ROOT.md',
    ]);
    expect(out.plan.deferred[1].reason).toBe('new period; waiting for 2026-06-01');
    expect(ws.hashes()).toEqual(before);
  });

  it('human output lists what was done and what is left', () => {
    const ws = withLogs();
    const r = runCli(['compact', '--now', '2026-06-03', '--dir', ws.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/create\s+daily\/2026-06-02\.md\s+→ fixed\s+copy\s+new raw log/);
    expect(r.stdout).toMatch(/next cycle: 4 action\(s\) pending/);
    expect(r.stdout).toMatch(/create\s+ROOT\.md\s+→ tentative\s+no ROOT\.md yet/);
  });

  it('exits 1 when a node whose day changed cannot be rewritten (broken frontmatter), 0 on a dry run', () => {
    const ws = withLogs();
    expect(runCli(['compact', '--catch-up', '--now', '2026-06-03', '--dir', ws.root]).code).toBe(0);
    ws.write('memory/daily/2026-06-02.md', ws.read('memory/daily/2026-06-02.md').replace('type: daily', 'type: [daily'));
    ws.write('memory/2026-06-02.md', `${ws.read('memory/2026-06-02.md')}- a line added later\n`);
    const r = runCli(['compact', '--catch-up', '--now', '2026-06-03', '--dir', ws.root]);
    expect(r.stdout).toMatch(/attention: memory\/daily\/2026-06-02\.md: not rewritten: malformed frontmatter/);
    expect(r.code).toBe(1);
    expect(runCli(['compact', '--dry-run', '--now', '2026-06-03', '--dir', ws.root]).code).toBe(0);
  });

  it('exits 3 when another writer holds the lock', async () => {
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'x [project]': ['y'] }) },
      { timeZone: 'UTC', lockWaitMs: 300 },
    );
    const lock = await acquireLock(ws, 'daemon', 100);
    try {
      const r = runCli(['compact', '--dir', ws.root]);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/another hipo process holds the lock \(pid \d+, "daemon"/);
    } finally {
      lock.release();
    }
  });
});

describe('hipo status', () => {
  it('reports nodes per level with tokens, pending work and the last cycle', () => {
    const ws = withLogs();
    runCli(['compact', '--now', '2026-06-03', '--dir', ws.root]);
    const r = runCli(['status', '--json', '--now', '2026-06-03', '--dir', ws.root]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.raw.files).toBe(2);
    expect(s.nodes.daily).toMatchObject({ tentative: 0, fixed: 1 });
    expect(s.nodes.daily.tokens).toBeGreaterThan(10);
    expect(s.pending.actions.map((a: { node: string }) => a.node)).toContain('daily/2026-06-01.md');
    expect(s.lastCycle).toMatchObject({ type: 'cycle', command: 'compact', today: '2026-06-03', errors: [] });
    const human = runCli(['status', '--now', '2026-06-03', '--dir', ws.root]);
    expect(human.stdout).toMatch(/daily\s+0\s+1\s+\d+/);
    expect(human.stdout).toMatch(/last cycle: .*compact, today 2026-06-03/);
  });
});

describe('hipo status and the search index', () => {
  it('says whether there is an index, and its size', () => {
    const ws = withLogs();
    expect(JSON.parse(runCli(['status', '--json', '--dir', ws.root]).stdout).index).toBeNull();
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    const s = JSON.parse(runCli(['status', '--json', '--dir', ws.root]).stdout);
    expect(s.index).toMatchObject({ file: `${ws.root}/.hipo/index.db`, embedder: 'wink' });
    expect(s.index.bytes).toBeGreaterThan(1000);
  });
});

describe('what hipo prints from memory', () => {
  it('writes control characters as \\u escapes: a memory file cannot retitle or clear the terminal, and the file stays as it was', () => {
    // OSC "set title" ended by BEL, "clear screen", a C1 CSI (U+009B), backspaces.
    const line = '- measured the zeppelin doors \u001b]0;pwned\u0007 then \u001b[2J cleared \u009b31m red \b\b hidden';
    const raw = `# 2026-06-02\n\n## zeppelin hangar [project]\n${line}\n- next line\r\n`;
    const ws = makeWorkspace({ 'memory/2026-06-02.md': raw });
    const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
    const shown = String.raw`measured the zeppelin doors \u001b]0;pwned\u0007 then \u001b[2J cleared \u009b31m red \u0008\u0008 hidden`;
    const env = { HIPO_NOW: '2026-06-02' };
    for (const args of [['search', 'zeppelin'], ['context'], ['recall', 'zeppelin doors']]) {
      const r = runCli([...args, '--dir', ws.root], { env });
      expect(r.code, args[0]).toBe(0);
      expect(r.stdout, args[0]).not.toMatch(control);
      expect(r.stdout, args[0]).toContain(shown);
    }
    // JSON escapes C0 itself; a C1 character is escaped the same way, and reads back as it was.
    const r = runCli(['search', 'zeppelin', '--json', '--dir', ws.root], { env });
    expect(r.stdout).not.toMatch(control);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('cleared \u009b31m red');
    expect(ws.read('memory/2026-06-02.md')).toBe(raw);
  });
});
