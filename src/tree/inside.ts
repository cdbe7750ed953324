// hipo reads, follows and writes only regular files inside the memory folder. A symbolic link
// that leads out of it (a raw log linked to a file elsewhere, a `daily/` folder linked to
// another disk) is skipped with a warning, and a FIFO or device named like a log is never
// opened for a blocking read.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';

export class NotInsideMemory extends Error {}

/** Where a path really is, through every link; for a name not created yet, its folder's real path. */
function realPath(abs: string): string | null {
  try {
    return realpathSync(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
    try {
      // A dangling link: whatever it names is not known to be inside.
      if (lstatSync(abs).isSymbolicLink()) return null;
    } catch {
      /* nothing there: a file to be created */
    }
    const dir = dirname(abs);
    if (dir === abs) return null;
    const real = realPath(dir);
    return real === null ? null : join(real, basename(abs));
  }
}

/** Whether `real` is `root` or below it (both real paths). */
function within(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The real path of `rel` in the memory folder, or null when it (or a folder on the way) is a
 * link leading outside.
 */
export function realInside(memoryDir: string, rel: string): string | null {
  const root = realPath(memoryDir);
  const real = realPath(join(memoryDir, rel));
  return root !== null && real !== null && within(root, real) ? real : null;
}

/**
 * Why a symbolic link leads nowhere, for a warning: what it names does not exist, or its links
 * go around in a loop. Null for anything else (a link that leads somewhere, not a link).
 */
export function brokenLink(abs: string): string | null {
  try {
    if (!lstatSync(abs).isSymbolicLink()) return null;
    statSync(abs);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `a link to ${readlinkSync(abs)}, which does not exist`;
    return code === 'ELOOP' ? `a link to ${readlinkSync(abs)}, which leads around in a loop` : null;
  }
}

/**
 * The first part of the folder path `rel` that is there but is not a folder (a file the user
 * named `weekly` or `edits`): nothing can be made or written under it. Null when there is none.
 */
export function fileInTheWay(memoryDir: string, rel: string): string | null {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 1; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join('/');
    try {
      if (!statSync(join(memoryDir, sub)).isDirectory()) return sub;
    } catch {
      return null; // not made yet (or a link that leads nowhere, said by requireInside)
    }
  }
  return null;
}

/** Throws NotInsideMemory naming the path when it leads out of the memory folder. */
export function requireInside(memoryDir: string, rel: string, shown: string): string {
  const real = realInside(memoryDir, rel);
  if (real === null) {
    const why = brokenLink(join(memoryDir, rel)) ?? 'a link to outside the memory folder';
    throw new NotInsideMemory(`${shown}: ${why}; hipo neither reads nor writes through it`);
  }
  return real;
}

/**
 * Opens a file for reading without ever blocking: a FIFO or device opens at once with
 * O_NONBLOCK and is refused as not a regular file. Null when it cannot be opened or is not one.
 */
export function openRegular(abs: string): number | null {
  try {
    return openRegularOrThrow(abs);
  } catch {
    return null;
  }
}

/** As openRegular, but a file that cannot be opened throws why (EACCES, ENOENT): null only for one not regular. */
export function openRegularOrThrow(abs: string): number | null {
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (fstatSync(fd).isFile()) return fd;
  } catch {
    /* fall through: close it */
  }
  closeSync(fd);
  return null;
}
