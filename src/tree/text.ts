// Turning bytes from disk into text, with a clear word for what could not be read.

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

/**
 * Decodes a file's bytes. UTF-16 with its byte order mark is read, with a note saying so.
 * Otherwise NUL bytes or mostly control characters mean binary (refused).
 * Invalid UTF-8 is read as Latin-1 so nothing is lost, with a note saying so, unless the file
 * is UTF-8 with a few broken bytes (a write cut mid-character, one pasted line in another
 * encoding): then its valid characters outnumber the broken ones, and only those are replaced
 * ("�"), where Latin-1 would garble every accent, emoji and CJK character of the file.
 */
export function decodeText(bytes: Uint8Array): Decoded {
  const bom = utf16Of(bytes);
  if (bom) return decodeUtf16(bytes, bom);
  if (bytes.subarray(0, 64 * 1024).indexOf(0) !== -1) return { ok: false, reason: 'binary data (NUL bytes), not a text file' };
  const sample = bytes.subarray(0, 4096);
  let control = 0;
  for (const b of sample) if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) control++;
  if (sample.length > 0 && control / sample.length > 0.1) return { ok: false, reason: 'binary data (control bytes), not a text file' };
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return { ok: true, text: utf8.decode(bytes.subarray(start)), encoding: 'utf-8', note: null };
  } catch {
    const text = lenientUtf8.decode(bytes.subarray(start));
    let broken = 0;
    let wide = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0xfffd) broken++;
      else if (c > 0x7f && (c < 0xdc00 || c > 0xdfff)) wide++;
    }
    if (wide > broken) {
      const note = `${broken} byte sequence${broken === 1 ? '' : 's'} not valid UTF-8, read as "\uFFFD"`;
      return { ok: true, text, encoding: 'utf-8', note };
    }
    return { ok: true, text: latin1.decode(bytes), encoding: 'latin-1', note: 'not valid UTF-8; read as Latin-1' };
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
