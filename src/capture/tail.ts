// Reading the part of a transcript not yet archived, from a byte offset, in bounded chunks and
// within a deadline. Only complete lines are returned (the platform may be mid-write); a line
// too long to be a message worth keeping (a huge tool result, an inline image) is stepped over.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

interface TailLine {
  text: string;
  /** Byte range of the line, newline included. */
  offset: number;
  end: number;
}

export interface TailRead {
  lines: TailLine[];
  /** Offset after the last complete line read (or stepped over). */
  next: number;
  size: number;
  /** True when everything up to the last complete line was read. */
  done: boolean;
  /** Lines stepped over for their size. */
  oversized: number;
}

export interface TailOptions {
  chunkBytes?: number;
  maxLineBytes?: number;
  /** performance.now() value after which no new chunk is read. */
  deadline?: number;
  /** Bytes read at most (memory bound); the rest waits for the next call. */
  maxBytes?: number;
}

const NL = 0x0a;

export function readTail(path: string, from: number, opts: TailOptions = {}): TailRead {
  const chunkBytes = opts.chunkBytes ?? 4 * 1024 * 1024;
  const maxLine = opts.maxLineBytes ?? chunkBytes;
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const lines: TailLine[] = [];
    let pos = Math.min(from, size);
    let oversized = 0;
    const buf = Buffer.alloc(Math.max(chunkBytes, 64 * 1024));
    while (pos < size) {
      const progressed = lines.length + oversized > 0;
      if (progressed && opts.deadline !== undefined && performance.now() > opts.deadline)
        return { lines, next: pos, size, done: false, oversized };
      if (progressed && opts.maxBytes !== undefined && pos - from >= opts.maxBytes)
        return { lines, next: pos, size, done: false, oversized };
      const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
      if (n <= 0) break;
      const lastNl = buf.lastIndexOf(NL, n - 1);
      if (lastNl === -1) {
        // No line end in a whole chunk: an oversized line (or the unfinished last one).
        if (n < buf.length || pos + n >= size) break;
        const skipTo = findLineEnd(fd, pos + n, size, buf);
        if (skipTo === -1) break;
        pos = skipTo;
        oversized++;
        continue;
      }
      let start = 0;
      while (start <= lastNl) {
        const nl = buf.indexOf(NL, start);
        const len = nl - start;
        if (len > maxLine) oversized++;
        else lines.push({ text: buf.toString('utf8', start, nl), offset: pos + start, end: pos + nl + 1 });
        start = nl + 1;
      }
      pos += lastNl + 1;
    }
    return { lines, next: pos, size, done: true, oversized };
  } finally {
    closeSync(fd);
  }
}

/** Offset just past the next newline at or after `from`, or -1 when the file ends first. */
function findLineEnd(fd: number, from: number, size: number, buf: Buffer): number {
  let pos = from;
  while (pos < size) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n <= 0) return -1;
    const nl = buf.indexOf(NL, 0);
    if (nl !== -1 && nl < n) return pos + nl + 1;
    pos += n;
  }
  return -1;
}
