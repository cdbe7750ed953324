// Test workspaces: real folders under the OS temp dir, real files, removed after each test.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterEach } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { workspaceAt, type Workspace } from '../../src/tree/layout.js';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const CLI = join(REPO, 'dist', 'cli.js');

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) removeTree(d);
});

/**
 * Removes a test's folder. A detached background compaction a hook started may still be writing
 * its index into `.hipo/` as the test ends (a test waits for ROOT.md, not for the index built after
 * it), and may even recreate `.hipo/` after it was removed. Node's own retries cannot get past a
 * file written after its first pass: they retry only the last `rmdir`, never listing the folder
 * again, and on a loaded CI machine sixty of them waited 183 s and failed. So each try is a whole
 * new removal, until the folder is gone or 30 s have passed.
 */
export function removeTree(dir: string, deadlineMs = 30_000): void {
  const end = Date.now() + deadlineMs;
  for (;;) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2, retryDelay: 50 });
      if (!existsSync(dir)) return;
    } catch (err) {
      if (Date.now() > end) throw err;
    }
    if (Date.now() > end) throw new Error(`${dir}: still written to after ${deadlineMs} ms of removal`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}

export interface TestWorkspace extends Workspace {
  /** Writes a file relative to the workspace, creating folders. */
  write(rel: string, content: string | Uint8Array): string;
  read(rel: string): string;
  exists(rel: string): boolean;
  /** Relative paths of every file under the workspace (or `sub`), sorted. */
  files(sub?: string): string[];
  /** sha256 of every file under `sub`, for byte-identity checks. */
  hashes(sub?: string): Record<string, string>;
}

/** The workspace's journal, one record per line (`.hipo/journal.jsonl`). */
export function journalRecords(ws: TestWorkspace): Record<string, unknown>[] {
  return ws
    .read('.hipo/journal.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A fresh workspace with `files` (paths relative to it) and a config pinning the time zone. */
export function makeWorkspace(
  files: Record<string, string | Uint8Array> = {},
  config: Record<string, unknown> = { timeZone: 'UTC' },
): TestWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'hipo-test-'));
  made.push(root);
  mkdirSync(join(root, 'memory'), { recursive: true });
  if (config) writeFileSync(join(root, 'hipo.config.json'), JSON.stringify(config, null, 2));
  const ws = workspaceAt(root, (config?.memoryDir as string) ?? 'memory');
  const api: TestWorkspace = {
    ...ws,
    write(rel, content) {
      const abs = join(root, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
      return abs;
    },
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    exists(rel) {
      try {
        statSync(join(root, rel));
        return true;
      } catch {
        return false;
      }
    },
    files(sub = '') {
      const out: string[] = [];
      const walk = (d: string): void => {
        let names: string[] = [];
        try {
          names = readdirSync(d);
        } catch {
          return;
        }
        for (const n of names) {
          const abs = join(d, n);
          if (statSync(abs).isDirectory()) walk(abs);
          else out.push(relative(root, abs));
        }
      };
      walk(join(root, sub));
      return out.sort();
    },
    hashes(sub = '') {
      return Object.fromEntries(
        api.files(sub).map((f) => [
          f,
          createHash('sha256')
            .update(readFileSync(join(root, f)))
            .digest('hex'),
        ]),
      );
    },
  };
  for (const [rel, content] of Object.entries(files)) api.write(rel, content);
  return api;
}

export function configOf(ws: Workspace) {
  return loadConfig(ws.root).config;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the compiled `hipo` as a child process. */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): CliRun {
  const p = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? REPO,
    env: { ...process.env, HIPO_NOW: '', ...opts.env },
    input: opts.input,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
  });
  return { code: p.status, stdout: p.stdout, stderr: p.stderr };
}

/** Runs the compiled `hipo` without blocking (for concurrency tests). */
export function runCliAsync(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliRun> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? REPO, env: { ...process.env, HIPO_NOW: '', ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}
