// Atomic file replacement: write a temp file beside the target, rename it over the target.
// A reader, or a process killed at any point, sees the old file or the new one, never half of
// either. `durable` adds an fsync before the rename, for files that cannot be rebuilt after a
// power cut; nodes and caches can (a node left empty by one is regenerated from its raw log),
// and skipping the fsync halves the cost of a catch-up.
import { closeSync, fstatSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { namedWriteError } from './out-of-space.js';
import { processAlive } from './process-identity.js';

/** A written file's size and modification time, as the stamp cache compares them. */
interface WrittenStamp {
  size: number;
  mtimeMs: number;
}

let counter = 0;

/** Temp files are hidden dot-files so watchers and scans skip them. */
function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.hipo-tmp-${process.pid}-${++counter}`);
}

/** Returns the stamp of the file written (replaceIfUnchanged). */
export function atomicWriteFile(target: string, data: string | Uint8Array, opts: { durable?: boolean } = {}): WrittenStamp {
  return writeThenRename(target, data, opts, null)!;
}

/**
 * Like atomicWriteFile, but only over the version read earlier, `expected` (null: no file). The
 * target is read again right before the rename: one that changed since (a person saving an
 * edit) is left as it is and null returned, so the caller can keep it first. The gap left is the
 * one between that read and the rename. Returns the stamp of the file written, taken before the
 * rename: a change that lands after it gives the file another stamp, so it is not taken for hipo's.
 */
export function replaceIfUnchanged(
  target: string,
  data: string | Uint8Array,
  expected: Uint8Array | null,
  opts: { durable?: boolean } = {},
): WrittenStamp | null {
  return writeThenRename(target, data, opts, () => sameContent(target, expected));
}

/** Removes `target` if it still holds `expected` (replaceIfUnchanged); false when it changed. */
export function removeIfUnchanged(target: string, expected: Uint8Array): boolean {
  if (!sameContent(target, expected)) return false;
  unlinkSync(target);
  return true;
}

function writeThenRename(
  target: string,
  data: string | Uint8Array,
  opts: { durable?: boolean },
  unchanged: (() => boolean) | null,
): WrittenStamp | null {
  const tmp = tempPathFor(target);
  let fd = -1;
  let placed = false;
  try {
    fd = openSync(tmp, 'wx', 0o644);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (opts.durable !== false) fsyncSync(fd);
    const st = fstatSync(fd);
    closeSync(fd);
    fd = -1;
    if (unchanged && !unchanged()) return null;
    renameSync(tmp, target);
    placed = true;
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    throw namedWriteError(err, target);
  } finally {
    if (!placed) {
      if (fd >= 0) {
        try {
          closeSync(fd);
        } catch {
          /* already failing */
        }
      }
      try {
        unlinkSync(tmp);
      } catch {
        /* never created */
      }
    }
  }
}

function sameContent(path: string, expected: Uint8Array | null): boolean {
  let now: Buffer;
  try {
    now = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return expected === null;
    throw err;
  }
  return expected !== null && now.equals(expected);
}

const TEMP = /^\.(.+)\.hipo-tmp-(\d+)-\d+$/;

/**
 * Removes temp files left in `dirs` by hipo processes that died mid-write (their pid is in the
 * name). Called under the writer lock, so no live writer's temp file is touched.
 */
export function sweepTempFiles(dirs: readonly string[]): number {
  let removed = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = TEMP.exec(name);
      if (!m) continue;
      const pid = Number(m[2]);
      if (pid !== process.pid && processAlive(pid)) continue;
      try {
        unlinkSync(join(dir, name));
        removed++;
      } catch {
        /* already gone */
      }
    }
  }
  return removed;
}
