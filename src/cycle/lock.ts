// One writer per workspace: the writer lock (`.hipo/lock`) for compaction cycles, and the
// daemon's lock (`.hipo/daemon.lock`), held while a daemon runs. A second writer waits up to its
// limit, then gives up with a message naming the holder; a stale lock (its holder gone, its pid
// reused, its lease run out) is taken over. The mechanism is write/lock-file.ts.
import { join } from 'node:path';
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir } from '../tree/state-dir.js';
import { acquireFileLock, judgeLock, LockTimeout, readLockFile, type LockView } from '../write/lock-file.js';

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

/**
 * Holders renew their lease every quarter of this. Only a process on another host relies on
 * it (on this host the holder's pid and start time are checked), so it can be generous.
 */
const WRITER_LEASE_MS = 120_000;

export function lockPath(ws: Workspace, name: LockName = 'lock'): string {
  return join(ws.stateDir, name);
}

function ownerOf(record: LockView['record']): LockOwner | null {
  if (!record) return null;
  return { pid: record.pid, command: String(record.command ?? '?'), since: String(record.since ?? '?'), host: String(record.host ?? '?') };
}

/** The holder of a lock, if it is held by a live process (or, on another host, a live lease). */
export function lockHolder(ws: Workspace, name: LockName = 'lock'): LockOwner | null {
  const view = readLockFile(lockPath(ws, name));
  return view && !judgeLock(view).stale ? ownerOf(view.record) : null;
}

export async function acquireLock(ws: Workspace, command: string, waitMs: number, name: LockName = 'lock'): Promise<Lock> {
  ensureStateDir(ws);
  try {
    return await acquireFileLock(lockPath(ws, name), { command, waitMs, leaseMs: WRITER_LEASE_MS, pollMs: () => 200 });
  } catch (err) {
    if (err instanceof LockTimeout) throw new LockBusy(err.file, ownerOf(err.holder), err.waitedMs);
    throw err;
  }
}
