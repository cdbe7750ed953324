// Turning bytes from disk into text, with a clear word for what could not be read.
import { isUtf8 } from 'node:buffer';

type Encoding = 'utf-8' | 'latin-1' | 'utf-16le' | 'utf-16be';
export type Decoded = { ok: true; text: string; encoding: Encoding; note: string | null } | { ok: false; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');
const latin1 = new TextDecoder('latin1');
const utf16 = { 'utf-16le': new TextDecoder('utf-16le'), 'utf-16be': new TextDecoder('utf-16be') } as const;

/**
 * UTF-16 by its byte order mark, as a Windows editor saves "Unicode" text. Without the mark,
 * UTF-16 is not told from binary: its NUL bytes refuse it. UTF-32's mark starts as UTF-16 LE's.
 */
function utf16Of(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes[2] === 0 && bytes[3] === 0 ? null : 'utf-16le';
  return bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): Decoded {
  // An odd byte at the end is half a character (a read capped mid-character).
  const text = utf16[encoding].decode(bytes.subarray(2, bytes.length - (bytes.length % 2)));
  if (text.slice(0, 64 * 1024).includes('\0')) return { ok: false, reason: 'binary data (NUL characters), not a text file' };
  return { ok: true, text, encoding, note: `${encoding === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE'}, not UTF-8; read as UTF-16` };
}

/** A run of NUL bytes at least this long is a hole in a text file, not binary data. */
const MIN_HOLE = 16;
/** How far into a file NUL bytes are looked for (binary formats show them at once). */
const NUL_LOOK = 64 * 1024;

/**
 * The bytes without their holes: runs of NUL bytes a crash leaves in a file (a file system
 * that grew the file before the data reached the disk fills the gap with zeros; later appends
 * go on after it), at least MIN_HOLE long or running to the file's end. Null when a shorter run
 * is in the first NUL_LOOK bytes: that is binary data (a PNG's header, UTF-32). (A shorter run
 * past them stays in the text, as any NUL there always has.)
 */
function withoutHoles(bytes: Uint8Array): { bytes: Uint8Array; removed: number } | null {
  let at = bytes.indexOf(0);
  if (at === -1) return { bytes, removed: 0 };
  const kept: Uint8Array[] = [];
  let from = 0;
  let removed = 0;
  while (at !== -1) {
    let end = at;
    while (end < bytes.length && bytes[end] === 0) end++;
    if (end - at >= MIN_HOLE || end === bytes.length) {
      kept.push(bytes.subarray(from, at));
      removed += end - at;
      from = end;
    } else if (at < NUL_LOOK) return null;
    at = bytes.indexOf(0, end);
  }
  if (removed === 0) return { bytes, removed: 0 };
  kept.push(bytes.subarray(from));
  return { bytes: Buffer.concat(kept), removed };
}

/**
 * Decodes a file's bytes. UTF-16 with its byte order mark is read, with a note saying so.
 * Otherwise NUL bytes or mostly control characters mean binary (refused), but for the runs of
 * zeros a crash leaves in a text file, left out with a note. A file that is not valid UTF-8 is
 * read line by line (decodeMixed), with a note saying how.
 */
export function decodeText(bytes: Uint8Array): Decoded {
  const bom = utf16Of(bytes);
  if (bom) return decodeUtf16(bytes, bom);
  const holes = withoutHoles(bytes);
  if (!holes) return { ok: false, reason: 'binary data (NUL bytes), not a text file' };
  const read = decodeBytes(holes.bytes);
  if (!read.ok || holes.removed === 0) return read;
  const note = `${holes.removed} NUL bytes left out (runs of zeros, as a crash can leave in a file)`;
  return { ...read, note: read.note ? `${note}; ${read.note}` : note };
}

function decodeBytes(bytes: Uint8Array): Decoded {
  const sample = bytes.subarray(0, 4096);
  let control = 0;
  for (const b of sample) if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) control++;
  if (sample.length > 0 && control / sample.length > 0.1) return { ok: false, reason: 'binary data (control bytes), not a text file' };
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return { ok: true, text: utf8.decode(bytes.subarray(start)), encoding: 'utf-8', note: null };
  } catch {
    return decodeMixed(bytes.subarray(start));
  }
}

/**
 * A file that is not valid UTF-8, line by line, so that nothing is lost: a line in Latin-1 is
 * read as Latin-1, and every other line as UTF-8. Line by line because hipo appends UTF-8 to a
 * log saved in Latin-1 (`hipo log`, captured turns), and a line pasted from an old note lands in
 * a UTF-8 log: read whole as either, one part of the file would be garbled. A line of mostly
 * valid characters with a few broken bytes, and a write cut mid-character at the end of the
 * file, keep UTF-8 with only the broken bytes replaced ("\uFFFD"): Latin-1 would garble every
 * accent, emoji and CJK character of it.
 */
function decodeMixed(bytes: Uint8Array): Decoded {
  const parts: string[] = [];
  let latin = 0;
  let broken = 0;
  let wide = false;
  let cut: { at: number; line: Uint8Array } | null = null;
  for (let from = 0; from < bytes.length; ) {
    const nl = bytes.indexOf(10, from);
    const end = nl === -1 ? bytes.length : nl + 1;
    const line = bytes.subarray(from, end);
    from = end;
    if (isUtf8(line)) {
      const text = utf8.decode(line);
      wide ||= /[^\x00-\x7f]/.test(text);
      parts.push(text);
      continue;
    }
    const text = lenientUtf8.decode(line);
    const counts = brokenAndWide(text);
    if (counts.wide > counts.broken) {
      broken += counts.broken;
      wide = true;
      parts.push(text);
    } else if (nl === -1 && isUtf8Cut(line)) {
      cut = { at: parts.length, line };
      parts.push(text);
    } else {
      latin++;
      parts.push(latin1.decode(line));
    }
  }
  // A last line cut mid-character is one only in a file of UTF-8 (its other lines show it); in
  // one with Latin-1 lines, or with no character past ASCII elsewhere, it is Latin-1 too.
  if (cut && (latin > 0 || !wide)) {
    latin++;
    parts[cut.at] = latin1.decode(cut.line);
  } else if (cut) broken++;
  const notes: string[] = [];
  if (latin > 0)
    notes.push(
      wide || broken > 0 ? `${latin} line${latin === 1 ? '' : 's'} not valid UTF-8, read as Latin-1` : 'not valid UTF-8; read as Latin-1',
    );
  if (broken > 0) notes.push(`${broken} byte sequence${broken === 1 ? '' : 's'} not valid UTF-8, read as "\uFFFD"`);
  return { ok: true, text: parts.join(''), encoding: latin > 0 ? 'latin-1' : 'utf-8', note: notes.join('; ') };
}

/** Replacement characters, and characters past ASCII (not counting lone surrogates), in decoded text. */
function brokenAndWide(text: string): { broken: number; wide: number } {
  let broken = 0;
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd) broken++;
    else if (c > 0x7f && (c < 0xdc00 || c > 0xdfff)) wide++;
  }
  return { broken, wide };
}

/** Whether `line` is valid UTF-8 but for a character cut short at its end. */
function isUtf8Cut(line: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(line, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Number of lines as an editor shows them (a final newline does not start a new line). */
export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  if (text.endsWith('\n')) n--;
  return n;
}
