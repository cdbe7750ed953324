// The one lock every hipo writer uses: the compaction lock (`.hipo/lock`), the daemon's
// (`.hipo/daemon.lock`) and the append lock (`.hipo/append.lock`).
//
// A lock is a file holding its owner's record. It is created whole (written to a temp file,
// then hard-linked into place, which fails when the lock exists), so a lock file is never seen
// half-written; an empty or unreadable one was left by a crash or a full disk and is stale.
//
// A holder is alive when its pid runs *and* is the same process (its start time, and the boot,
// match the record: a pid reused after a reboot is not the holder). A holder on another host (a
// recreated container, a shared folder) cannot be checked: it renews a lease by touching the
// file, and a lock whose lease has run out is stale.
//
// Taking over a stale lock never unlinks a file that may have changed since it was judged: the
// remover first takes a mutex named after the lock file's identity (its inode and record), then
// re-reads the lock and removes it only if it is still that file. A holder releasing its lock
// takes the same mutex, so a release and a takeover of one record never interleave, and a lock
// file can only change by a removal under its mutex followed by an exclusive create.
import { readdirSync, unlinkSync, utimesSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../fs/process-identity.js';
import { createExclusive, hash, judgeLock, newRecord, readLockFile, type LockRecord, type LockView } from './lock-record.js';

export { judgeLock, readLockFile, type LockRecord, type LockView } from './lock-record.js';

export class LockTimeout extends Error {
  constructor(
    readonly file: string,
    readonly holder: LockView['record'],
    readonly waitedMs: number,
  ) {
    super(`${file}: held by ${holder ? `pid ${holder.pid}` : 'another process'}; waited ${waitedMs} ms`);
  }
}

const MUTEX_LEASE_MS = 10_000;

/** The mutex a takeover (or the holder's release) of the lock file with this identity takes. */
export const mutexOf = (file: string, identity: string): string => `${file}.break-${hash(identity)}`;

/** Runs `fn` holding the mutex for one lock file's identity; false when another process holds it. */
function underMutex(file: string, identity: string, fn: () => void, depth = 0): boolean {
  const mutex = mutexOf(file, identity);
  if (!createExclusive(mutex, JSON.stringify(newRecord('takeover', MUTEX_LEASE_MS))).created) {
    const m = readLockFile(mutex);
    if (!m) return false; // released just now: the caller tries again
    // Its holder died inside the few system calls the mutex is held for: break it the same way.
    if (depth < 2 && judgeLock(m).stale) underMutex(mutex, m.identity, () => removeIf(mutex, m.identity), depth + 1);
    return false;
  }
  try {
    fn();
  } finally {
    try {
      unlinkSync(mutex);
    } catch {
      /* swept by a later holder */
    }
  }
  return true;
}

function removeIf(file: string, identity: string): void {
  if (readLockFile(file)?.identity !== identity) return;
  try {
    unlinkSync(file);
  } catch {
    /* already gone */
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number): void => void Atomics.wait(pause, 0, 0, ms);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class FileLock {
  private released = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly file: string,
    readonly record: LockRecord,
    private readonly identity: string,
  ) {
    this.timer = setInterval(() => this.renew(), Math.max(50, Math.floor(record.leaseMs / 4)));
    this.timer.unref();
  }

  /** Whether the lock file is still this holder's (it was not taken over as stale). */
  held(): boolean {
    return !this.released && readLockFile(this.file)?.identity === this.identity;
  }

  /** Renews the lease (the file's mtime) for holders on other hosts to see. */
  renew(): void {
    if (!this.held()) return;
    try {
      const now = new Date();
      utimesSync(this.file, now, now);
    } catch {
      /* gone meanwhile: the next renewal finds it is no longer held */
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    try {
      // A takeover holding the mutex judged this lock stale and removes it itself: wait it out briefly.
      for (let i = 0; i < 50; i++) {
        if (underMutex(this.file, this.identity, () => removeIf(this.file, this.identity))) return;
        if (readLockFile(this.file)?.identity !== this.identity) return;
        sleepSync(20);
      }
    } catch {
      // No room even for the mutex (a full disk): no lock can be created now either, so nothing
      // can take this one's place between the check and the removal.
      removeIf(this.file, this.identity);
    }
  }
}

export interface TryResult {
  lock: FileLock | null;
  /** The live holder, when the lock is held. */
  holder: LockView['record'];
  /** Something changed (a stale lock was removed): try again at once. */
  retry: boolean;
}

/** One attempt: create the lock, or judge the one there and take it over if stale. */
export function tryLock(file: string, command: string, leaseMs: number): TryResult {
  const record = newRecord(command, leaseMs);
  const made = createExclusive(file, JSON.stringify(record));
  if (made.created) {
    sweepLeftovers(file, made.identity);
    return { lock: new FileLock(file, record, made.identity), holder: null, retry: false };
  }
  const view = readLockFile(file);
  if (!view) return { lock: null, holder: null, retry: true };
  if (!judgeLock(view).stale) return { lock: null, holder: view.record, retry: false };
  return { lock: null, holder: view.record, retry: takeOver(file, view) };
}

/**
 * Removes the lock file judged stale in `view`, if it is still that file; false when another
 * process is taking it over right now.
 */
export function takeOver(file: string, view: LockView): boolean {
  return underMutex(file, view.identity, () => removeIf(file, view.identity));
}

export interface AcquireOptions {
  command: string;
  /** How long to wait for a live holder; 0 tries once. */
  waitMs: number;
  leaseMs: number;
  /** Delay before the next attempt. */
  pollMs: (attempt: number) => number;
}

export async function acquireFileLock(file: string, opts: AcquireOptions): Promise<FileLock> {
  const started = Date.now();
  let quickRetries = 0;
  for (let attempt = 0; ; attempt++) {
    const r = tryLock(file, opts.command, opts.leaseMs);
    if (r.lock) return r.lock;
    if (r.retry && quickRetries++ < 20) continue;
    quickRetries = 0;
    const waited = Date.now() - started;
    if (waited >= opts.waitMs) throw new LockTimeout(file, r.holder, waited);
    await sleep(Math.max(1, Math.min(opts.pollMs(attempt), opts.waitMs - waited)));
  }
}

/**
 * Removes what crashed processes left beside a lock: temp files of dead pids, and takeover
 * mutexes of lock files that are gone (an identity never comes back, so nobody needs them).
 */
function sweepLeftovers(file: string, identity: string): void {
  const dir = dirname(file);
  const name = basename(file);
  const mine = basename(mutexOf(file, identity));
  const leftoverTemp = new RegExp(`^\\.${name.replace(/\./g, '\\.')}(?:\\.break-[0-9a-f]+)*\\.new-(\\d+)-[0-9a-f]+$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    let gone = false;
    if (n.startsWith(`${name}.break-`) && !n.includes('.break-', name.length + 7)) gone = n !== mine;
    else {
      const m = leftoverTemp.exec(n);
      gone = !!m && Number(m[1]) !== process.pid && !processAlive(Number(m[1]));
    }
    if (!gone) continue;
    try {
      unlinkSync(join(dir, n));
    } catch {
      /* someone else swept it */
    }
  }
}
