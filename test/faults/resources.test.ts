// Resources under abuse: a raw log far bigger than any day (400 MB in the long run), a log that
// is one enormous line, and a redaction pattern that backtracks catastrophically. Memory stays
// bounded (measured as each command's peak RSS), the file is named in a warning, nodes stay
// small, and the bad pattern is refused at config load instead of hanging compaction.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, REPO, runCli, type TestWorkspace } from '../helpers/workspace.js';
import { figure, LONG, scale } from './scale.js';

const RSS_RUN = join(import.meta.dirname, 'rss-run.mjs');

/** Runs `hipo args…` in a child and returns its exit code, output and peak RSS in MB. */
function measured(args: string[], timeoutMs = 600_000): { code: number | null; stdout: string; stderr: string; rssMb: number; ms: number } {
  const dir = mkdtempSync(join(tmpdir(), 'hipo-rss-'));
  const out = join(dir, 'rss');
  const t0 = Date.now();
  const p = spawnSync(process.execPath, [RSS_RUN, out, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, HIPO_NOW: '' },
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  let kb = NaN;
  try {
    kb = Number(readFileSync(out, 'utf8'));
  } catch {
    /* killed before exit: no figure */
  }
  rmSync(dir, { recursive: true, force: true });
  return { code: p.status, stdout: p.stdout, stderr: p.stderr, rssMb: Math.round(kb / 1024), ms: Date.now() - t0 };
}

/** Writes a raw log of `mb` megabytes: typed entries of ordinary lines, or (oneLine) a single line. */
function bigLog(ws: TestWorkspace, date: string, mb: number, oneLine = false): string {
  const path = join(ws.memoryDir, `${date}.md`);
  const fd = openSync(path, 'w');
  const words = [
    'deploy',
    'billing',
    'queue',
    'postgres',
    'latency',
    'review',
    'carol',
    'search',
    'index',
    'cache',
    'retry',
    'webhook',
    'invoice',
    'schema',
  ];
  let size = writeSync(fd, `# ${date}\n\n`);
  for (let i = 0; size < mb * 1024 * 1024; ) {
    let chunk = '';
    for (let k = 0; k < 500; k++, i++) {
      const w = (n: number) => words[(i * 7 + n * 13) % words.length];
      chunk += oneLine
        ? `${w(1)} ${w(2)} item ${i} decided ${w(3)}; `
        : `${i % 20 === 0 ? `\n## ${w(1)} ${w(2)} ${i % 97} [project]\n` : ''}- ${w(1)} ${w(2)} item ${i} decided to ${w(3)} the ${w(4)}\n`;
    }
    size += writeSync(fd, chunk);
  }
  if (oneLine) writeSync(fd, '\n');
  closeSync(fd);
  return path;
}

describe('faults: resources', () => {
  it(
    `reads a raw log far over maxFileBytes in part, naming it, in bounded memory (${scale('48 MB, cap 2 MB', '400 MB, default cap')})`,
    () => {
      const mb = scale(48, 400);
      const capMb = scale(2, 16);
      const limitMb = scale(400, 1024);
      const ws = makeWorkspace({}, { timeZone: 'UTC', ...(LONG ? {} : { maxFileBytes: capMb * 1024 * 1024 }) });
      bigLog(ws, '2026-06-01', mb);
      const warning = `memory/2026-06-01.md: ${mb.toFixed(1)} MB, over the ${capMb.toFixed(1)} MB read of any one file (maxFileBytes)`;
      const runs: Record<string, { code: number | null; rssMb: number; ms: number }> = {};
      for (const [name, args] of [
        ['compact', ['compact', '--now', '2026-06-02']],
        ['index', ['index']],
        ['context', ['context', '--now', '2026-06-02']],
        ['recall', ['recall', 'billing queue latency', '--now', '2026-06-02']],
        ['status', ['status', '--now', '2026-06-02']],
      ] as const) {
        const r = measured([...args, '--dir', ws.root]);
        runs[name] = { code: r.code, rssMb: r.rssMb, ms: r.ms };
        if (name === 'compact' || name === 'index') expect(r.stdout, name).toContain(warning);
      }
      figure(`raw log of ${mb} MB (cap ${capMb} MB)`, runs);
      for (const [name, r] of Object.entries(runs))
        expect({ name, code: r.code, underLimit: r.rssMb < limitMb }).toEqual({ name, code: 0, underLimit: true });
      // The part read made a real daily node (a summary: the part is far over the thresholds).
      expect(readFileSync(join(ws.memoryDir, 'daily', '2026-06-01.md'), 'utf8')).toMatch(/summarizer: extractive/);
    },
    scale(300_000, 1_800_000),
  );

  it('summarizes a raw log of one 50 MB line instead of copying it into three 50 MB nodes', () => {
    const ws = makeWorkspace();
    bigLog(ws, '2026-06-01', 50, true);
    const c = measured(['compact', '--now', '2026-06-02', '--dir', ws.root]);
    expect(c.code).toBe(0);
    const sizes = Object.fromEntries(
      ['daily/2026-06-01.md', 'weekly/2026-W23.md', 'monthly/2026-06.md', 'ROOT.md'].map((f) => [f, statSync(join(ws.memoryDir, f)).size]),
    );
    const ctx = measured(['context', '--now', '2026-06-02', '--dir', ws.root]);
    expect(ctx.code).toBe(0);
    figure('one 50 MB line', {
      nodeBytes: sizes,
      compact: { rssMb: c.rssMb, ms: c.ms },
      context: { rssMb: ctx.rssMb, ms: ctx.ms, chars: ctx.stdout.length },
    });
    for (const [f, size] of Object.entries(sizes)) expect({ f, small: size < 64 * 1024 }).toEqual({ f, small: true });
    expect(c.rssMb).toBeLessThan(1024);
  }, 300_000);

  it('refuses a redaction pattern that backtracks catastrophically, at config load, naming its place', () => {
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': `# 2026-06-01\n\n## tokens [project]\n- ${'a'.repeat(48)}!\n` },
      { timeZone: 'UTC', redactPatterns: ['(a+)+$'] },
    );
    const r = runCli(['compact', '--now', '2026-06-02', '--dir', ws.root], { timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'hipo.config.json: "redactPatterns" entry 1 repeats a group in which a choice is not settled by the next character',
    );
    expect(ws.exists('memory/daily/2026-06-01.md')).toBe(false);
  });

  it('refuses a redaction pattern whose repeated alternatives overlap, instead of hanging on a near miss', () => {
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': `# 2026-06-01\n\n## tokens [project]\n- ${'7'.repeat(40)}\n` },
      { timeZone: 'UTC', redactPatterns: ['ACME-[0-9]{6}', '(\\w|\\d)+-token'] },
    );
    const r = runCli(['compact', '--now', '2026-06-02', '--dir', ws.root], { timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'hipo.config.json: "redactPatterns" entry 2 repeats a group in which a choice is not settled by the next character ' +
        '(alternatives 1 and 2 of the group at character 1 can start with the same character)',
    );
    expect(ws.exists('memory/daily/2026-06-01.md')).toBe(false);
  });
});
