// The one sanctioned write to a raw log: appending an entry (captured turns, `hipo log`).
// Never rewrites a byte that is there: the file is opened O_APPEND and each entry goes out in
// one write. The caller holds the append lock (state/lock.ts, `withAppendLock`), so two hooks
// never interleave their read-decide-append steps.
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { namedWriteError } from '../fs/out-of-space.js';
import type { LocalDate } from '../time/calendar.js';
import { rawRelPath, type Workspace } from '../tree/layout.js';
import { statePath } from '../state/dir.js';
import { NotInsideMemory, openRegular, realInside, requireInside } from '../tree/inside.js';
import { requireMemoryDir } from '../tree/scan.js';
import type { FileLock } from '../state/lock-file.js';
import { AppendLockBusy } from '../state/lock.js';
import { withoutControls } from '../text/controls.js';

export interface Appended {
  /** Memory-relative path: `2026-03-15.md`. */
  rel: string;
  /** Byte offset where the entry starts, and its length in bytes. */
  at: number;
  bytes: number;
}

/**
 * What must go before an entry so it starts a section: a title for a new file, else blank lines
 * after the file's `tail` (its last two bytes). A file that is one newline needs nothing.
 * Capture asks the same question to know where an append will land (capture/archive.ts).
 */
export function entrySeparator(size: number, tail: string, date: LocalDate): string {
  if (size === 0) return `# ${date}\n\n`;
  return tail.endsWith('\n\n') || (size === 1 && tail === '\n') ? '' : tail.endsWith('\n') ? '\n' : '\n\n';
}

function separator(fd: number, size: number, date: LocalDate): string {
  if (size === 0) return entrySeparator(0, '', date);
  const tail = Buffer.alloc(Math.min(2, size));
  readSync(fd, tail, 0, tail.length, size - tail.length);
  return entrySeparator(size, tail.toString('latin1'), date);
}

/**
 * A log saved as UTF-16 (a byte order mark: Windows editors' "Unicode") is read as such, but an
 * entry appended in UTF-8 would make the rest of it unreadable: refused, the log left as it is.
 */
function refuseUtf16(fd: number, size: number, shown: string): void {
  if (size < 2) return;
  const head = Buffer.alloc(2);
  readSync(fd, head, 0, 2, 0);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
    throw new Error(`${shown}: saved as UTF-16, and hipo appends UTF-8; nothing appended (save the file as UTF-8 to log to it)`);
}

/**
 * Appends `entry` to the raw log of `date`. The caller holds the append lock, so the size read
 * here is where the write lands. No control character reaches the log (one NUL and every reader
 * skips the whole day as binary): callers render entries without them before redacting (so that
 * a removal cannot join a secret's halves), and what is left is removed here.
 */
export function appendRawEntry(ws: Workspace, date: LocalDate, entry: string, lock?: Pick<FileLock, 'held'>): Appended {
  // Held past its lease and taken over: another appender may be deciding on the same turns.
  if (lock && !lock.held()) throw new AppendLockBusy(`${statePath(ws, 'appendLock')}: the append lock was taken over; nothing appended`);
  // A memory folder removed (or never made) is not made here: an entry in a fresh folder would
  // look like the whole memory, and `hipo init` is what makes one.
  requireMemoryDir(ws);
  const rel = rawRelPath(date);
  // Through a link only while it stays inside the memory folder; the real path is opened without
  // following a link, so the file cannot be swapped for one between the check and the open.
  const real = requireInside(ws.memoryDir, rel, `${ws.memoryName}/${rel}`);
  const existed = exists(real);
  const fd = openLog(real, `${ws.memoryName}/${rel}`);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotInsideMemory(`${ws.memoryName}/${rel}: not a regular file; nothing appended`);
    const size = st.size;
    refuseUtf16(fd, size, `${ws.memoryName}/${rel}`);
    const prefix = separator(fd, size, date);
    const buf = Buffer.from(prefix + withoutControls(entry), 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      fsyncSync(fd);
    } catch (err) {
      rollBack(fd, size, off);
      // A log this append created is removed again rather than left empty.
      if (!existed) removeIfEmpty(real);
      throw namedWriteError(err, join(ws.memoryDir, rel), `${ws.memoryName}/${rel}`);
    }
    const head = Buffer.byteLength(prefix);
    return { rel, at: size + head, bytes: buf.length - head };
  } finally {
    closeSync(fd);
  }
}

/** Opens a raw log for appending, made when missing; a folder in its place is named as one. */
function openLog(real: string, shown: string): number {
  try {
    return openSync(real, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw new NotInsideMemory(`${shown}: a folder, not a file; nothing appended`);
    throw err;
  }
}

/**
 * Cuts a failed append (a full disk, an I/O error) back to the length the log had, so that the
 * error leaves the log as it was and a retry writes the entry once. Only when the bytes past
 * that length are all this append's (nobody else appended meanwhile).
 */
function rollBack(fd: number, size: number, written: number): void {
  try {
    const now = fstatSync(fd).size;
    if (now > size && now <= size + written) ftruncateSync(fd, size);
  } catch {
    /* nothing more can be done here; the caller reports the error */
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function removeIfEmpty(path: string): void {
  try {
    if (statSync(path).size === 0) unlinkSync(path);
  } catch {
    /* gone already */
  }
}

/** Reads `bytes` at `at` of a raw log (to find an entry again). Null when out of range. */
export function readRawRange(ws: Workspace, rel: string, at: number, bytes: number): Buffer | null {
  const real = realInside(ws.memoryDir, rel);
  const fd = real === null ? null : openRegular(real);
  if (fd === null) return null;
  try {
    if (fstatSync(fd).size < at + bytes) return null;
    const buf = Buffer.alloc(bytes);
    readSync(fd, buf, 0, bytes, at);
    return buf;
  } finally {
    closeSync(fd);
  }
}
