// Appending to a raw log: an entry always starts a section of its own, and capture knows where
// an append lands by the same rule (entrySeparator), whatever the file ends with.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appendRawEntry, entrySeparator } from '../../src/write/raw-append.js';
import { MemoryDirMissing } from '../../src/tree/scan.js';
import { makeWorkspace } from '../helpers/workspace.js';

const date = '2026-03-02' as never;

describe('entrySeparator', () => {
  it.each([
    [0, '', '# 2026-03-02\n\n'],
    [1, '\n', ''],
    [1, 'x', '\n\n'],
    [5, 'x\n', '\n'],
    [5, '\n\n', ''],
    [5, 'ab', '\n\n'],
  ])('a %i-byte file ending in %j takes %j', (size, tail, sep) => {
    expect(entrySeparator(size, tail, date)).toBe(sep);
  });

  it('is what the append writes: the entry starts where size + separator says', () => {
    for (const before of ['', '\n', 'x', '# 2026-03-02\n\n## a\n- b\n', '# 2026-03-02\n\n## a\n- b']) {
      const ws = makeWorkspace();
      const file = `${ws.memoryDir}/2026-03-02.md`;
      if (before) writeFileSync(file, before);
      const size = before ? statSync(file).size : 0;
      const tail = Buffer.from(before)
        .subarray(Math.max(0, size - 2))
        .toString('latin1');
      const expected = size + Buffer.byteLength(entrySeparator(size, tail, date));
      const r = appendRawEntry(ws, date, '## note\n- hello\n');
      expect(r.at, JSON.stringify(before)).toBe(expected);
      expect(readFileSync(file, 'utf8').slice(r.at)).toBe('## note\n- hello\n');
    }
  });
});

describe('appendRawEntry on a log saved as UTF-16', () => {
  it('refuses, naming the file, and leaves the log byte for byte as it was', () => {
    const ws = makeWorkspace();
    const file = `${ws.memoryDir}/2026-03-02.md`;
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# 2026-03-02\n\n## garden\n- new shed\n', 'utf16le')]);
    writeFileSync(file, utf16);
    expect(() => appendRawEntry(ws, date, '## note\n- hello\n')).toThrow(/memory\/2026-03-02\.md: saved as UTF-16.*nothing appended/);
    expect(readFileSync(file).equals(utf16)).toBe(true);
  });
});

describe('appendRawEntry and control characters', () => {
  it('writes none, whoever calls it (one NUL would make the whole day binary to every reader)', () => {
    const ws = makeWorkspace();
    const r = appendRawEntry(ws, date, '## note\r\n- a\u0000b\u001b[2J\tc\u0085\n');
    const text = readFileSync(`${ws.memoryDir}/2026-03-02.md`, 'utf8');
    expect(text).toBe('# 2026-03-02\n\n## note\n- ab[2J\tc\n');
    expect(r.bytes).toBe(Buffer.byteLength('## note\n- ab[2J\tc\n'));
  });
});

describe('appendRawEntry without a memory folder', () => {
  it('refuses and makes none: an entry in a fresh folder would look like the whole memory', () => {
    const ws = makeWorkspace();
    rmSync(ws.memoryDir, { recursive: true });
    expect(() => appendRawEntry(ws, date, '## note\n- hello\n')).toThrow(MemoryDirMissing);
    expect(existsSync(ws.memoryDir)).toBe(false);
  });
});
