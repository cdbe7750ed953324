// Reading a file whatever its size, with memory bounded: at most `cap` bytes are kept (cut at
// the last line break before the cap), while the hash that change detection relies on is taken
// over the whole file in chunks. A 400 MB raw log is read as its first `maxFileBytes`, with a
// warning naming it, instead of running the process out of memory.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularOrThrow } from './inside.js';

export { DEFAULT_MAX_FILE_BYTES } from '../config/config.js';

const CHUNK = 1024 * 1024;
/** A line break this close to the cap ends the part read; farther back, the line is cut instead. */
const LINE_SEARCH = 1024 * 1024;

export interface CappedRead {
  /** The file's bytes, or its first `cap` bytes up to the last line break when it is larger. */
  bytes: Buffer;
  /** The whole file's size. */
  size: number;
  /** contentHash of the whole file (not only of `bytes`). */
  hash: string;
  truncated: boolean;
}

class NotARegularFile extends Error {}

export function readCapped(abs: string, cap: number): CappedRead {
  // A file that cannot be opened throws why (EACCES); one that opens is refused if not regular.
  const fd = openRegularOrThrow(abs);
  if (fd === null) throw Object.assign(new NotARegularFile(`${abs}: not a regular file`), { code: 'ENOTREG' });
  try {
    const size = fstatSync(fd).size;
    const keep = Math.min(size, cap);
    const head = Buffer.alloc(keep);
    let got = 0;
    while (got < keep) {
      const n = readSync(fd, head, got, keep - got, got);
      if (n === 0) break;
      got += n;
    }
    if (size <= cap) {
      const bytes = head.subarray(0, got);
      return { bytes, size: got, hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16), truncated: false };
    }
    const h = createHash('sha256').update(head.subarray(0, got));
    const buf = Buffer.alloc(CHUNK);
    let pos = got;
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
      pos += n;
    }
    return { bytes: head.subarray(0, cutPoint(head, got)), size: pos, hash: h.digest('hex').slice(0, 16), truncated: true };
  } finally {
    closeSync(fd);
  }
}

/** Where to end a cut: at a line break near the end, else (one huge line) between two characters. */
function cutPoint(head: Buffer, got: number): number {
  const nl = head.lastIndexOf(0x0a, got - 1);
  if (nl >= 0 && got - nl <= LINE_SEARCH) return nl + 1;
  // Never inside a UTF-8 character: a lead byte followed by fewer continuation bytes than it needs is dropped.
  let end = got;
  let tail = 0;
  while (tail < 3 && end > 0 && (head[end - 1]! & 0xc0) === 0x80) {
    end--;
    tail++;
  }
  const lead = end > 0 ? head[end - 1]! : 0;
  if (lead < 0xc0) return got;
  const needs = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
  return needs === tail ? got : end - 1;
}

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** The warning for a file read in part. */
export function cappedNote(read: CappedRead, cap: number): string {
  return `${mb(read.size)}, over the ${mb(cap)} read of any one file (maxFileBytes); only its first ${mb(read.bytes.length)} are used`;
}
