// A write refused for want of room: the disk is full (ENOSPC), or the user's disk quota is used
// up (EDQUOT: shared servers, NFS homes). For the user both are the same: nothing is written
// until they free space. A file past the process's size limit (EFBIG) is not among them:
// freeing space does not help it.
import { constants } from 'node:os';

/**
 * EDQUOT's number (none on Windows). Node 20's libuv has no name for it: the error's code is
 * "UNKNOWN" (or "Unknown system error -122"), and only its errno, negated, says what it was.
 */
const EDQUOT = (constants.errno as Partial<Record<string, number>>).EDQUOT;

/** Which room a write ran out of: the disk's (ENOSPC) or the user's quota (EDQUOT); null for any other error. */
export function outOfSpaceCode(err: unknown): 'ENOSPC' | 'EDQUOT' | null {
  if (!(err instanceof Error)) return null;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOSPC') return 'ENOSPC';
  if (e.code === 'EDQUOT' || (EDQUOT !== undefined && e.errno === -EDQUOT)) return 'EDQUOT';
  return null;
}

const ROOM = { ENOSPC: 'disk full (ENOSPC)', EDQUOT: 'disk quota exceeded (EDQUOT)' } as const;

/** "disk full (ENOSPC)" or "disk quota exceeded (EDQUOT)" when `err` is a write out of room, else null. */
export function outOfSpace(err: unknown): string | null {
  const code = outOfSpaceCode(err);
  return code && ROOM[code];
}

/**
 * `err`, from writing `path`, made to say which file and what went wrong: a write(2) error names
 * no file, and Node 20 calls EDQUOT "UNKNOWN: unknown error". `shown` is the name the user
 * knows the file by (`memory/2026-03-15.md`); `path` stays the real one for callers.
 */
export function namedWriteError(err: unknown, path: string, shown = path): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as NodeJS.ErrnoException;
  if (typeof e.path === 'string' || typeof e.errno !== 'number') return err;
  const code = outOfSpaceCode(err);
  if (code) e.code = code;
  e.path = path;
  e.message = `${shown}: ${code ? ROOM[code] : e.message}`;
  return err;
}
