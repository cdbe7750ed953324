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

describe('a file that is not all UTF-8', () => {
  it('reads each line as what it is: UTF-8 lines as UTF-8, a pasted Latin-1 line as Latin-1', () => {
    const bytes = Buffer.concat([
      Buffer.from('## 東京 [user]\n- 東京に住んでいます 🍮\n', 'utf8'),
      Buffer.from('- pasted from an old note: crème brûlée\n', 'latin1'),
    ]);
    expect(decodeText(bytes)).toEqual({
      ok: true,
      text: '## 東京 [user]\n- 東京に住んでいます 🍮\n- pasted from an old note: crème brûlée\n',
      encoding: 'latin-1',
      note: '1 line not valid UTF-8, read as Latin-1',
    });
  });

  it('reads a file all in Latin-1 as Latin-1, and says so as before, to its last character', () => {
    expect(decodeText(Buffer.from('# café\n- crème\n- café', 'latin1'))).toEqual({
      ok: true,
      text: '# café\n- crème\n- café',
      encoding: 'latin-1',
      note: 'not valid UTF-8; read as Latin-1',
    });
    expect(decodeText(Buffer.from('café', 'latin1'))).toMatchObject({ text: 'café', encoding: 'latin-1' });
  });
});

describe('runs of zeros a crash leaves in a text file', () => {
  const text = (s: string): Buffer => Buffer.from(s, 'utf8');
  it('are left out, with a note, where they end the file or more text follows them', () => {
    const hole = Buffer.alloc(4096);
    expect(
      decodeText(Buffer.concat([text('## 09:00 [project]\n- shipped the parser\n'), hole, text('## 13:00 [project]\n- café\n')])),
    ).toEqual({
      ok: true,
      text: '## 09:00 [project]\n- shipped the parser\n## 13:00 [project]\n- café\n',
      encoding: 'utf-8',
      note: '4096 NUL bytes left out (runs of zeros, as a crash can leave in a file)',
    });
    // At the end, a run of any length: the file grew, its last block never came.
    expect(decodeText(Buffer.concat([text('- a line'), Buffer.alloc(3)]))).toMatchObject({ ok: true, text: '- a line' });
  });

  it('a short run inside the data is binary still', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(decodeText(png)).toEqual({ ok: false, reason: 'binary data (NUL bytes), not a text file' });
    expect(decodeText(Buffer.concat([text('- a line\n'), Buffer.alloc(8), text('- more\n')]))).toMatchObject({ ok: false });
  });
});
