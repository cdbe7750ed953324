// A fresh world for one agent CLI: its own HOME, project folder and temp folder, a PATH holding
// the CLI, its Node.js and the `hipo` of this checkout (a link to dist/cli.js, as a global
// install has), and an environment built from nothing (no variable of this machine leaks in).
// Child processes run in their own process group and are killed whole when they overrun.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { AgentCli } from './agents.js';
import { REPO } from './agents.js';

export interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export interface Background {
  output(): string;
  /** Resolves when `pattern` shows in the output; rejects after `ms` or when the process ends. */
  waitFor(pattern: RegExp, ms: number): Promise<void>;
  stop(): Promise<void>;
}

export interface Sandbox {
  root: string;
  home: string;
  project: string;
  /** The civil date (UTC) the hooks are told is today (HIPO_NOW). */
  today: string;
  yesterday: string;
  env: NodeJS.ProcessEnv;
  run(
    cmd: string,
    args: string[],
    opts?: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
  ): Promise<RunResult>;
  /** A long-running process (a gateway): its output so far, and a stop that kills its group. */
  start(cmd: string, args: string[], opts?: { env?: NodeJS.ProcessEnv }): Background;
  /** `hipo …` in the project, as the user types it. */
  hipo(args: string[], opts?: { env?: NodeJS.ProcessEnv }): Promise<RunResult>;
  cleanup(): void;
}

const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

export function makeSandbox(cli: AgentCli): Sandbox {
  const root = mkdtempSync(join(tmpdir(), `hipo-e2e-${cli.platform}-`));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const bin = join(root, 'bin');
  const tmp = join(root, 'tmp');
  for (const d of [home, project, bin, tmp]) mkdirSync(d);
  // hipo runs with the Node its native module was built for, as an install under the user's own
  // Node would; the agent CLI may need a newer Node first on PATH (OpenClaw's Node 24).
  writeFileSync(
    join(bin, 'hipo'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO, 'dist', 'cli.js'))} "$@"\n`,
    { mode: 0o755 },
  );
  if (cli.bin) symlinkSync(cli.bin, join(bin, cli.bin.split(sep).at(-1)!));
  const now = new Date();
  const today = isoDay(now);
  const yesterday = isoDay(new Date(now.getTime() - 86_400_000));
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    USER: 'e2e',
    PATH: [bin, cli.nodeDir, join(process.execPath, '..'), '/usr/bin', '/bin'].join(':'),
    TMPDIR: tmp,
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    HIPO_NOW: today,
    HIPO_CACHE_DIR: join(root, 'hipo-cache'),
  };
  const run: Sandbox['run'] = (cmd, args, opts = {}) =>
    new Promise((resolveRun) => {
      const t0 = performance.now();
      const child = spawn(cmd, args, {
        cwd: opts.cwd ?? project,
        env: { ...env, ...opts.env },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, opts.timeoutMs ?? 120_000);
      child.on('error', (err) => (stderr += `\n[spawn error] ${err.message}`));
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        // Whatever the CLI left running in its group (an MCP server, a language server) goes too.
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* none left */
        }
        resolveRun({ code, signal, stdout, stderr, ms: Math.round(performance.now() - t0), timedOut });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.input ?? '');
    });
  const start: Sandbox['start'] = (cmd, args, opts = {}) => {
    const child = spawn(cmd, args, { cwd: project, env: { ...env, ...opts.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let exited = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const closed = new Promise<void>((ok) => child.on('close', () => ((exited = true), ok())));
    return {
      output: () => out,
      waitFor: (pattern, ms) =>
        new Promise((ok, fail) => {
          const t0 = Date.now();
          const tick = (): void => {
            if (pattern.test(out)) return ok();
            if (exited) return fail(new Error(`${cmd} exited before ${pattern}\n${out.slice(-3000)}`));
            if (Date.now() - t0 > ms) return fail(new Error(`${cmd}: no ${pattern} within ${ms} ms\n${out.slice(-3000)}`));
            setTimeout(tick, 200);
          };
          tick();
        }),
      stop: async () => {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          return;
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 5000);
        await closed;
        clearTimeout(timer);
      },
    };
  };
  return {
    root,
    home,
    project,
    today,
    yesterday,
    env,
    run,
    start,
    hipo: (args, opts = {}) => run(join(bin, 'hipo'), args, opts),
    cleanup: () => {
      if (!process.env.HIPO_E2E_KEEP) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** What a folder holds: relative path → content hash, `dir`, or `link → target`. */
export type Snapshot = Map<string, string>;

export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Snapshot {
  const out: Snapshot = new Map();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      const rel = relative(dir, abs).split(sep).join('/');
      if (skip(rel)) continue;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out.set(rel, `link → ${readlinkSync(abs)}`);
      else if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(abs);
      } else if (st.isFile()) out.set(rel, createHash('sha256').update(readFileSync(abs)).digest('hex').slice(0, 16));
    }
  };
  walk(dir);
  return out;
}

/** Differences between two snapshots, one line each (empty when equal). */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [k, v] of before) {
    if (!after.has(k)) out.push(`removed  ${k}`);
    else if (after.get(k) !== v) out.push(`changed  ${k}`);
  }
  for (const k of after.keys()) if (!before.has(k)) out.push(`added    ${k}`);
  return out.sort();
}

/** Files under `dir` whose bytes contain `needle`, relative paths. */
export function filesContaining(dir: string, needle: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const [rel, v] of snapshot(dir, skip)) {
    if (v === 'dir' || v.startsWith('link')) continue;
    if (readFileSync(join(dir, rel)).includes(needle)) out.push(rel);
  }
  return out;
}

/** The tail of a run's output, for a failure message. */
export function tail(r: RunResult, n = 1500): string {
  const both = `exit ${r.code}${r.signal ? ` (${r.signal})` : ''}${r.timedOut ? ' TIMED OUT' : ''} after ${r.ms} ms\n--- stdout\n${r.stdout.slice(-n)}\n--- stderr\n${r.stderr.slice(-n)}`;
  return both;
}
