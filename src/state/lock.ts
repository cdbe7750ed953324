// The workspace's locks: the writer lock (`.hipo/lock`) for compaction cycles, the daemon's lock
// (`.hipo/daemon.lock`), held while a daemon runs, and the append lock (`.hipo/append.lock`),
// short and separate from the writer lock so that a hook never waits for a compaction cycle. A
// second holder waits up to its limit, then gives up with a message naming the holder; a stale
// lock (its holder gone, its pid reused, its lease run out) is taken over. One mechanism for
// all three: lock-file.ts.
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir, statePath } from './dir.js';
import { acquireFileLock, type FileLock, judgeLock, LockTimeout, readLockFile, type LockView } from './lock-file.js';

export interface LockOwner {
  pid: number;
  command: string;
  since: string;
  host: string;
}

export class LockBusy extends Error {
  constructor(
    readonly file: string,
    readonly owner: LockOwner | null,
    waitedMs: number,
  ) {
    const waited = `waited ${Math.round(waitedMs / 1000)} s`;
    super(
      owner
        ? `${file}: another hipo process holds the lock (pid ${owner.pid}, "${owner.command}", since ${owner.since}); ${waited}`
        : `${file}: the lock is held by another process; ${waited}`,
    );
  }
}

export interface Lock {
  readonly file: string;
  release(): void;
}

/** The writer lock (compaction cycles), or the lock that marks a running daemon. */
type LockName = 'writerLock' | 'daemonLock';

/**
 * Holders renew their lease every quarter of this. Only a process on another host relies on
 * it (on this host the holder's pid and start time are checked), so it can be generous.
 */
const WRITER_LEASE_MS = 120_000;

export function lockPath(ws: Workspace, name: LockName = 'writerLock'): string {
  return statePath(ws, name);
}

function ownerOf(record: LockView['record']): LockOwner | null {
  if (!record) return null;
  return { pid: record.pid, command: String(record.command ?? '?'), since: String(record.since ?? '?'), host: String(record.host ?? '?') };
}

/** The holder of a lock, if it is held by a live process (or, on another host, a live lease). */
export function lockHolder(ws: Workspace, name: LockName = 'writerLock'): LockOwner | null {
  const view = readLockFile(lockPath(ws, name));
  return view && !judgeLock(view).stale ? ownerOf(view.record) : null;
}

export async function acquireLock(ws: Workspace, command: string, waitMs: number, name: LockName = 'writerLock'): Promise<Lock> {
  ensureStateDir(ws);
  try {
    return await acquireFileLock(lockPath(ws, name), { command, waitMs, leaseMs: WRITER_LEASE_MS, pollMs: () => 200 });
  } catch (err) {
    if (err instanceof LockTimeout) throw new LockBusy(err.file, ownerOf(err.holder), err.waitedMs);
    throw err;
  }
}

export class AppendLockBusy extends Error {}

/** Appends take well under a second; a holder on another host that stops renewing for this long is gone. */
const APPEND_LEASE_MS = 30_000;

/** Runs `fn` holding the workspace's append lock; waits up to `waitMs` for it. */
export async function withAppendLock<T>(ws: Workspace, fn: (lock: FileLock) => T | Promise<T>, waitMs = 5000): Promise<T> {
  ensureStateDir(ws);
  const file = statePath(ws, 'appendLock');
  let lock: FileLock;
  try {
    lock = await acquireFileLock(file, {
      command: 'append',
      waitMs,
      leaseMs: APPEND_LEASE_MS,
      pollMs: (attempt) => Math.min(5 + attempt * 5, 50),
    });
  } catch (err) {
    if (err instanceof LockTimeout)
      throw new AppendLockBusy(
        `${file}: another hipo process is appending (${err.holder ? `pid ${err.holder.pid}, ` : ''}waited ${waitMs} ms)`,
      );
    throw err;
  }
  try {
    return await fn(lock);
  } finally {
    lock.release();
  }
}
