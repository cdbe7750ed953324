// A lock file's record and how it is judged: who holds it (pid, host, boot, process start time,
// lease), whether that holder is still there, and creating a lock file whole. The locking
// itself (takeover, release, waiting) is lock-file.ts.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, openSync, readSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive, processStartedAt, processStartTicks, sameBoot, selfIdentity, type ProcessIdentity } from '../fs/process-identity.js';

export interface LockRecord extends ProcessIdentity {
  command: string;
  since: string;
  /** Unique per acquisition: two records are never equal. */
  nonce: string;
  /** The holder touches the file at least every quarter of this; past it the lock is stale to other hosts. */
  leaseMs: number;
}

export interface LockView {
  /** Null when the file is empty or holds no record (a crash or a full disk mid-write). */
  record: (Partial<LockRecord> & { pid: number }) | null;
  /** The file's inode and content: changes when the file is replaced, not when its lease is renewed. */
  identity: string;
  mtimeMs: number;
}

export type Verdict = { stale: false } | { stale: true; why: string };

/** An unreadable lock file younger than this may be a writer of an older hipo between open and write. */
const UNREADABLE_GRACE_MS = 1000;
/** Lease assumed for records that carry none (older hipo versions) held on another host. */
const DEFAULT_FOREIGN_LEASE_MS = 5 * 60_000;

export const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** The lock file as it is now; null when there is none. */
export function readLockFile(file: string): LockView | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { record: null, identity: `${st.dev}:${st.ino}:not-a-file`, mtimeMs: 0 };
    const buf = Buffer.alloc(Math.min(st.size, 64 * 1024));
    const n = buf.length ? readSync(fd, buf, 0, buf.length, 0) : 0;
    const text = buf.subarray(0, n).toString('utf8');
    let record: LockView['record'] = null;
    try {
      const o = JSON.parse(text) as Partial<LockRecord>;
      if (o && typeof o === 'object' && typeof o.pid === 'number') record = o as LockView['record'];
    } catch {
      /* empty or cut short: judged stale below */
    }
    return { record, identity: `${st.dev}:${st.ino}:${hash(text)}`, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

const alive: Verdict = { stale: false };
const stale = (why: string): Verdict => ({ stale: true, why });

/** Whether the holder a lock file names is gone (or, on another host, stopped renewing). */
export function judgeLock(view: LockView, now = Date.now(), me: ProcessIdentity = selfIdentity()): Verdict {
  const r = view.record;
  const age = now - view.mtimeMs;
  if (!r) return age > UNREADABLE_GRACE_MS ? stale('the lock file is empty or unreadable') : alive;
  const lease = typeof r.leaseMs === 'number' && r.leaseMs > 0 ? r.leaseMs : null;
  if (r.host !== me.host) {
    // Nothing here can check a process on another host: only its lease says it is still there.
    const limit = lease ?? DEFAULT_FOREIGN_LEASE_MS;
    return age > limit ? stale(`held on host ${String(r.host)}, whose lease ran out ${Math.round((age - limit) / 1000)} s ago`) : alive;
  }
  if (r.boot && me.boot && !sameBoot(r.boot, me.boot)) return stale('written before the machine restarted');
  if (!processAlive(r.pid)) return stale(`process ${r.pid} is gone`);
  if (r.start) {
    const current = processStartTicks(r.pid);
    if (current !== null) return current === r.start ? alive : stale(`pid ${r.pid} now belongs to another process`);
  } else {
    // A record without a start time (an older hipo): a process younger than the file is not its writer.
    const started = processStartedAt(r.pid);
    if (started !== null) return started > view.mtimeMs + 1000 ? stale(`pid ${r.pid} started after the lock was written`) : alive;
  }
  // No start time to compare (no /proc): trust a live pid while it keeps its lease.
  return lease !== null && age > lease ? stale(`pid ${r.pid} stopped renewing its lease`) : alive;
}

/** Creates `file` holding `text` if it does not exist; false when it does. Never leaves it half-written. */
export function createExclusive(file: string, text: string): { created: boolean; identity: string } {
  const tmp = join(dirname(file), `.${basename(file)}.new-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(tmp, text, { flag: 'wx', mode: 0o644 });
    const st = statSync(tmp);
    try {
      linkSync(tmp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return { created: false, identity: '' };
      // A file system without hard links: exclusive create, then write (an older hipo's way).
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createByOpen(file, text);
      throw err;
    }
    return { created: true, identity: `${st.dev}:${st.ino}:${hash(text)}` };
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
  }
}

function createByOpen(file: string, text: string): { created: boolean; identity: string } {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { created: false, identity: '' };
    throw err;
  }
  try {
    writeSync(fd, text);
    const st = fstatSync(fd);
    return { created: true, identity: `${st.dev}:${st.ino}:${hash(text)}` };
  } catch (err) {
    try {
      unlinkSync(file);
    } catch {
      /* gone already */
    }
    throw err;
  } finally {
    closeSync(fd);
  }
}

export function newRecord(command: string, leaseMs: number): LockRecord {
  return { ...selfIdentity(), command, since: new Date().toISOString(), nonce: randomBytes(8).toString('hex'), leaseMs };
}
