// Atomic file replacement: write a temp file beside the target, rename it over the target.
// A reader, or a process killed at any point, sees the old file or the new one, never half of
// either. `durable` adds an fsync before the rename, for files that cannot be rebuilt after a
// power cut; nodes and caches can (a node left empty by one is regenerated from its raw log),
// and skipping the fsync halves the cost of a catch-up.
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from './process-identity.js';

let counter = 0;

/** Temp files are hidden dot-files so watchers and scans skip them. */
function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.hipo-tmp-${process.pid}-${++counter}`);
}

export function atomicWriteFile(target: string, data: string | Uint8Array, opts: { durable?: boolean } = {}): void {
  const tmp = tempPathFor(target);
  let fd = -1;
  try {
    fd = openSync(tmp, 'wx', 0o644);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (opts.durable !== false) fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, target);
  } catch (err) {
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
    throw err;
  }
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
