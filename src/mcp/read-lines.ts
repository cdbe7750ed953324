// A line range of a file, read in chunks: memory stays bounded by what is returned, whatever
// the file's size, and a line longer than an agent can use is cut with a note.
import { closeSync, readSync } from 'node:fs';
import { openRegular } from '../tree/inside.js';
import { decodeText } from '../tree/text.js';

const CHUNK = 1024 * 1024;

export interface LineRange {
  /** The lines asked for that exist, each cut at `maxLineChars`. */
  lines: string[];
  /** Lines in the whole file. */
  total: number;
}

/** Lines `from` (1-based) to `from + count - 1` of a regular file; null when it is not one or cannot be read. */
export function readLineRange(path: string, from: number, count: number, maxLineChars: number): LineRange | null {
  const fd = openRegular(path);
  if (fd === null) return null;
  try {
    const buf = Buffer.alloc(CHUNK);
    const lines: string[] = [];
    let line = 1;
    let parts: Buffer[] = [];
    let kept = 0;
    let cut = 0;
    let pos = 0;
    let sawAny = false;
    const wanted = (): boolean => line >= from && line < from + count;
    const finish = (): boolean => {
      const bytes = Buffer.concat(parts);
      if (!cut) {
        const d = decodeText(bytes);
        if (!d.ok) return false;
        lines.push(d.text);
        return true;
      }
      if (bytes.includes(0)) return false;
      // Cut inside a character: drop its first bytes rather than show a replacement mark.
      lines.push(`${bytes.toString('utf8').replace(/\uFFFD$/, '')} … [line cut: ${kept + cut} bytes]`);
      return true;
    };
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      pos += n;
      sawAny = true;
      let start = 0;
      while (start < n) {
        const nl = buf.indexOf(0x0a, start);
        const end = nl === -1 || nl >= n ? n : nl;
        if (wanted()) {
          const room = Math.max(0, maxLineChars - kept);
          const piece = buf.subarray(start, Math.min(end, start + room));
          parts.push(Buffer.from(piece));
          kept += piece.length;
          cut += end - start - piece.length;
        }
        if (end === n) break;
        if (wanted() && !finish()) return null;
        parts = [];
        kept = 0;
        cut = 0;
        line++;
        start = end + 1;
      }
    }
    // A last line without a newline still counts.
    if (sawAny && !endsWithNewline(fd, pos)) {
      if (wanted() && !finish()) return null;
    } else line--;
    return { lines, total: line };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function endsWithNewline(fd: number, size: number): boolean {
  const b = Buffer.alloc(1);
  return size > 0 && readSync(fd, b, 0, 1, size - 1) === 1 && b[0] === 0x0a;
}
