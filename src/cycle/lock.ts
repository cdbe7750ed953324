// One writer per workspace: a lock file (`.hipo/lock`) holding the owner's pid. A second writer
// waits up to its limit, then gives up with a message naming the holder; a lock left by a dead
// process is taken over.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir } from '../tree/state-dir.js';

export interface LockOwner {
  pid: number;
  command: string;
  since: string;
  host: string;
}

export class LockBusy extends Error {
  constructor(readonly file: string, readonly owner: LockOwner | null, waitedMs: number) {
    super(
      owner
        ? `${file}: another hipo process holds the lock (pid ${owner.pid}, "${owner.command}", since ${owner.since}); waited ${Math.round(waitedMs / 1000)} s`
        : `${file}: the lock is held by another process; waited ${Math.round(waitedMs / 1000)} s`,
    );
  }
}

export interface Lock {
  readonly file: string;
  release(): void;
}

/** `lock` is the writer lock (compaction cycles); `daemon.lock` marks a running daemon. */
export type LockName = 'lock' | 'daemon.lock';

export function lockPath(ws: Workspace, name: LockName = 'lock'): string {
  return join(ws.stateDir, name);
}

export function readLockOwner(file: string): LockOwner | null {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return typeof o.pid === 'number' ? o : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a lock file is held by a live process (on this host). */
export function lockHolder(ws: Workspace, name: LockName = 'lock'): LockOwner | null {
  const owner = readLockOwner(lockPath(ws, name));
  return owner && (owner.host !== hostname() || alive(owner.pid)) ? owner : null;
}

function tryCreate(file: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function acquireLock(ws: Workspace, command: string, waitMs: number, name: LockName = 'lock'): Promise<Lock> {
  ensureStateDir(ws);
  const file = lockPath(ws, name);
  const owner: LockOwner = { pid: process.pid, command, since: new Date().toISOString(), host: hostname() };
  const started = Date.now();
  for (;;) {
    if (tryCreate(file, owner)) break;
    const holder = readLockOwner(file);
    const stale = holder ? holder.host === owner.host && !alive(holder.pid) : lockAgeMs(file) > 5000;
    if (stale) {
      // Remove only the lock we judged stale: re-read right before unlinking.
      const again = readLockOwner(file);
      if (JSON.stringify(again) === JSON.stringify(holder)) {
        try { unlinkSync(file); } catch { /* someone else took it over first */ }
      }
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new LockBusy(file, holder, waited);
    await sleep(Math.min(200, waitMs - waited));
  }
  let released = false;
  return {
    file,
    release(): void {
      if (released) return;
      released = true;
      const cur = readLockOwner(file);
      if (cur && cur.pid === owner.pid && cur.since === owner.since) {
        try { unlinkSync(file); } catch { /* already gone */ }
      }
    },
  };
}

function lockAgeMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}
