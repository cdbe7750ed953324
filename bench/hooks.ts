// npm run bench:hooks — wall time of `hipo hook` as a platform runs it (a fresh process with the
// hook JSON on stdin): a typical incremental capture (one new turn), a repeat with nothing new,
// SessionStart on a compacted 4-month workspace, UserPromptSubmit with memory about its prompt
// (the workspace indexed; also with a 600 KB document pasted after it), and the first hook on a 100 MB transcript
// (bounded by agents.hookBudgetMs; the rest waits for the next hook); then a capture, SessionStart
// and the prompt again with a daemon running, which answers them (cli/hook-entry.ts). Medians of 11 runs.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateCorpus } from './lib/corpus.js';
import { readDaemonState } from '../src/state/daemon-record.js';
import { workspaceAt } from '../src/tree/layout.js';

const cli = join(resolve(import.meta.dirname), '..', 'dist', 'cli.js');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function hook(event: string, dir: string, input: object): { ms: number; rssMB: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, cli, 'hook', event, '--dir', dir], {
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(r.stderr);
  return { ms, rssMB: Math.round(Number(r.stderr.trim().split('\n').pop()) / 1024), stdout: r.stdout };
}

let n = 0;
function turnLines(session: string, i: number): string {
  const ts = new Date(Date.parse('2026-01-20T09:00:00Z') + i * 60_000).toISOString();
  const line = (type: string, content: unknown) =>
    JSON.stringify({
      type,
      uuid: `${session}-${++n}`,
      sessionId: session,
      timestamp: ts,
      isSidechain: false,
      message: { role: type, content },
    });
  return [
    line('user', `Question ${i}: why is the importer slow on large CSV files?`),
    line('assistant', [
      { type: 'text', text: `Looked at src/importer.ts: it re-parses every row (${i}).` },
      { type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: 'src/importer.ts' } },
    ]),
    line('user', [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'x'.repeat(2000) }]),
    line('assistant', [{ type: 'text', text: 'Fixed: parse once and stream rows.' }]),
  ]
    .map((l) => `${l}\n`)
    .join('');
}

if (!existsSync(cli)) throw new Error('run "npm run build" first');
console.log(`hipo bench:hooks · node ${process.version} · ${new Date().toISOString()}`);
const dir = mkdtempSync(join(tmpdir(), 'hipo-bench-hooks-'));
try {
  writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }));
  generateCorpus(join(dir, 'memory'), { start: '2025-09-20', days: 122, seed: 7 });
  spawnSync(process.execPath, [cli, 'compact', '--dir', dir, '--catch-up', '--now', '2026-01-20']);
  const session = 'bench-session-1';
  const t = join(dir, 'session.jsonl');
  writeFileSync(t, Array.from({ length: 50 }, (_, i) => turnLines(session, i)).join(''));
  const input = { session_id: session, transcript_path: t, cwd: dir };
  hook('Stop', dir, input);
  const one: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < 11; i++) {
    appendFileSync(t, turnLines(session, 50 + i));
    const r = hook('Stop', dir, input);
    one.push(r.ms);
    rss.push(r.rssMB);
  }
  console.log(`capture, one new turn      ${median(one).toFixed(0).padStart(5)} ms wall  peak RSS ${median(rss)} MB`);
  const none = Array.from({ length: 11 }, () => hook('UserPromptSubmit', dir, { ...input, prompt: 'next' }).ms);
  console.log(`capture, nothing new       ${median(none).toFixed(0).padStart(5)} ms wall`);
  const starts = Array.from({ length: 11 }, () => hook('SessionStart', dir, { session_id: session, source: 'startup' }));
  console.log(
    `SessionStart (8,000 chars) ${median(starts.map((s) => s.ms))
      .toFixed(0)
      .padStart(
        5,
      )} ms wall  peak RSS ${median(starts.map((s) => s.rssMB))} MB  (${JSON.parse(starts[0]!.stdout).hookSpecificOutput.additionalContext.length} chars)`,
  );
  const compactStarts = Array.from({ length: 11 }, () => hook('SessionStart', dir, { session_id: session, source: 'compact' }).ms);
  console.log(`SessionStart after compact ${median(compactStarts).toFixed(0).padStart(5)} ms wall`);

  // Memory about the prompt: a keyword search of the index (built here, as a daemon keeps it).
  spawnSync(process.execPath, [cli, 'index', '--dir', dir]);
  const asked = Array.from({ length: 11 }, () =>
    hook('UserPromptSubmit', dir, { ...input, prompt: 'why was the billing export slow and what did we decide about retries?' }),
  );
  const told = asked[0]!.stdout ? JSON.parse(asked[0]!.stdout).hookSpecificOutput.additionalContext.length : 0;
  console.log(
    `prompt, memory about it    ${median(asked.map((a) => a.ms))
      .toFixed(0)
      .padStart(5)} ms wall  peak RSS ${median(asked.map((a) => a.rssMB))} MB  (${told} chars)`,
  );

  // A question with a long document pasted after it (Korean: every word a run of its own), about
  // 600 KB of hook input: the search reads the first 4,000 characters, and so must the rest.
  const words = ['배포', '서버', '검색', '지연', '시간', '대시보드', '경고', '사용자', '설정', '확인', '문제', '해결'];
  const pasted = Array.from({ length: 40_000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
  const long = Array.from({ length: 5 }, () =>
    hook('UserPromptSubmit', dir, { ...input, prompt: `why was the billing export slow? the log:\n${pasted}` }),
  );
  console.log(
    `prompt, 600 KB pasted      ${median(long.map((a) => a.ms))
      .toFixed(0)
      .padStart(5)} ms wall (median of 5)`,
  );

  // The same with a daemon running: the hook asks it and prints its answer.
  const daemon = spawn(process.execPath, [cli, 'daemon', '--dir', dir], { stdio: 'ignore' });
  try {
    // Caught up, with a run after `since` (ms since the epoch) and the index updated after that run.
    const settle = async (since: number): Promise<void> => {
      const end = Date.now() + 120_000;
      for (;;) {
        const st = readDaemonState(workspaceAt(dir));
        const ran = st?.lastRun ? Date.parse(st.lastRun.at) : Number.NaN;
        const indexed = st?.indexedAt ? Date.parse(st.indexedAt) : Number.NaN;
        if (
          st?.pid === daemon.pid &&
          st.lastRun?.pending === 0 &&
          ran > since &&
          indexed >= ran &&
          existsSync(join(dir, '.hipo', 'daemon.sock'))
        )
          break;
        if (Date.now() > end) throw new Error('the daemon did not settle within 120 s');
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    await settle(0);
    const turnsByDaemon = Array.from({ length: 11 }, (_, i) => {
      appendFileSync(t, turnLines(session, 100 + i));
      return hook('Stop', dir, input);
    });
    // What those turns started (a cycle, an index update) is over before SessionStart is timed.
    await settle(Date.now());
    const startInput = { session_id: session, source: 'startup' };
    const promptInput = { ...input, prompt: 'why was the billing export slow and what did we decide about retries?' };
    const startsByDaemon = Array.from({ length: 11 }, () => hook('SessionStart', dir, startInput));
    const askedByDaemon = Array.from({ length: 11 }, () => hook('UserPromptSubmit', dir, promptInput));
    // Its answers are the hook's own: the same hook run by itself, on the tree as the daemon left it.
    const itself = (event: string, fields: object): string => {
      process.env.HIPO_HOOK_DAEMON = '0';
      try {
        return hook(event, dir, fields).stdout;
      } finally {
        delete process.env.HIPO_HOOK_DAEMON;
      }
    };
    const same = (a: { stdout: string }[], b: string) => (a[0]!.stdout === b ? 'the same output' : 'OUTPUT DIFFERS');
    const row = (runs: { ms: number; rssMB: number }[]) =>
      `${median(runs.map((r) => r.ms))
        .toFixed(0)
        .padStart(5)} ms wall  peak RSS ${median(runs.map((r) => r.rssMB))} MB`;
    console.log(`capture, one new turn, daemon runs  ${row(turnsByDaemon)}`);
    console.log(`SessionStart, daemon runs  ${row(startsByDaemon)}  (${same(startsByDaemon, itself('SessionStart', startInput))})`);
    console.log(`prompt, daemon runs        ${row(askedByDaemon)}  (${same(askedByDaemon, itself('UserPromptSubmit', promptInput))})`);
  } finally {
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('exit', r));
  }

  const big = join(dir, 'big.jsonl');
  const fd = openSync(big, 'w');
  let bytes = 0;
  for (let i = 0; bytes < 100 * 1024 * 1024; i++) bytes += writeSync(fd, turnLines('bench-big', i).replace(/x{2000}/, 'x'.repeat(400_000)));
  closeSync(fd);
  const bigInput = { session_id: 'bench-big', transcript_path: big, cwd: dir };
  const calls: { ms: number; rssMB: number }[] = [];
  for (let i = 0; i < 40; i++) {
    calls.push(hook('Stop', dir, bigInput));
    const lines = spawnSync(process.execPath, [cli, 'status', '--dir', dir, '--json'], { encoding: 'utf8' });
    if (JSON.parse(lines.stdout).lastCapture?.backlog === 0) break;
  }
  console.log(
    `100 MB transcript          ${calls.length} hooks to archive it all; per hook median ${median(calls.map((c) => c.ms)).toFixed(0)} ms, max ${Math.max(...calls.map((c) => c.ms)).toFixed(0)} ms wall; peak RSS max ${Math.max(...calls.map((c) => c.rssMB))} MB`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
