// Bytes from disk as text: UTF-16 is read by its byte order mark, whole characters only.
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/tree/text.js';

const le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);

describe('UTF-16 with a byte order mark', () => {
  it('drops the half character a capped read leaves at the end', () => {
    const bytes = le('- first line\n- second line\n');
    expect(decodeText(bytes.subarray(0, bytes.length - 1))).toMatchObject({ ok: true, text: '- first line\n- second line' });
  });

  it("does not take UTF-32's mark for UTF-16's", () => {
    const utf32 = Buffer.from([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0]);
    expect(decodeText(utf32)).toEqual({ ok: false, reason: 'binary data (NUL bytes), not a text file' });
  });
});
