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

/** "disk full (ENOSPC)" or "disk quota exceeded (EDQUOT)" when `err` is a write out of room, else null. */
export function outOfSpace(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOSPC') return 'disk full (ENOSPC)';
  if (e.code === 'EDQUOT' || (EDQUOT !== undefined && e.errno === -EDQUOT)) return 'disk quota exceeded (EDQUOT)';
  return null;
}
