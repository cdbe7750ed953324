// The one sanctioned write to a raw log: appending an entry (captured turns, `hipo log`).
// Never rewrites a byte that is there: the file is opened O_APPEND and each entry goes out in
// one write. Appenders take a short per-workspace lock (`.hipo/append.lock`), separate from
// the compaction lock, so a hook never waits for a compaction cycle and two hooks never
// interleave their read-decide-append steps.
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { LocalDate } from '../time/calendar.js';
import { rawRelPath, type Workspace } from '../tree/layout.js';
import { ensureStateDir } from '../tree/state-dir.js';

export class AppendLockBusy extends Error {}

const STALE_MS = 30_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(file: string): boolean {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as { pid?: number; host?: string };
    if (typeof owner.pid === 'number' && owner.host === hostname()) return !alive(owner.pid);
  } catch {
    /* half-written or unreadable: judge by age */
  }
  try {
    return Date.now() - statSync(file).mtimeMs > STALE_MS;
  } catch {
    return false;
  }
}

/** Runs `fn` holding the workspace's append lock; waits up to `waitMs` for it. */
export async function withAppendLock<T>(ws: Workspace, fn: () => T | Promise<T>, waitMs = 5000): Promise<T> {
  ensureStateDir(ws);
  const file = join(ws.stateDir, 'append.lock');
  const me = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, me);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (isStale(file)) {
      try { unlinkSync(file); } catch { /* another waiter removed it */ }
      continue;
    }
    if (Date.now() - started > waitMs) throw new AppendLockBusy(`${file}: another hipo process is appending (waited ${waitMs} ms)`);
    await sleep(Math.min(5 + attempt * 5, 50));
  }
  try {
    return await fn();
  } finally {
    try {
      if (readFileSync(file, 'utf8') === me) unlinkSync(file);
    } catch {
      /* already gone */
    }
  }
}

export interface Appended {
  /** Memory-relative path: `2026-03-15.md`. */
  rel: string;
  /** Byte offset where the entry starts, and its length in bytes. */
  at: number;
  bytes: number;
}

/** What must go before an entry so it starts a section: a title for a new file, blank lines. */
function separator(fd: number, size: number, date: LocalDate): string {
  if (size === 0) return `# ${date}\n\n`;
  const tail = Buffer.alloc(Math.min(2, size));
  readSync(fd, tail, 0, tail.length, size - tail.length);
  const t = tail.toString('latin1');
  return t.endsWith('\n\n') || (size === 1 && t === '\n') ? '' : t.endsWith('\n') ? '\n' : '\n\n';
}

/**
 * Appends `entry` to the raw log of `date`. The caller holds the append lock, so the size read
 * here is where the write lands.
 */
export function appendRawEntry(ws: Workspace, date: LocalDate, entry: string): Appended {
  mkdirSync(ws.memoryDir, { recursive: true });
  const rel = rawRelPath(date);
  const fd = openSync(join(ws.memoryDir, rel), 'a+', 0o644);
  try {
    const size = fstatSync(fd).size;
    const prefix = separator(fd, size, date);
    const buf = Buffer.from(prefix + entry, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    const head = Buffer.byteLength(prefix);
    return { rel, at: size + head, bytes: buf.length - head };
  } finally {
    closeSync(fd);
  }
}

/** Reads `bytes` at `at` of a raw log (to find an entry again). Null when out of range. */
export function readRawRange(ws: Workspace, rel: string, at: number, bytes: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(join(ws.memoryDir, rel), 'r');
  } catch {
    return null;
  }
  try {
    if (fstatSync(fd).size < at + bytes) return null;
    const buf = Buffer.alloc(bytes);
    readSync(fd, buf, 0, bytes, at);
    return buf;
  } finally {
    closeSync(fd);
  }
}
