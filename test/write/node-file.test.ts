// A node's `body-hash` tells a hand edit from the body hipo wrote. Line endings (a Windows
// checkout's CRLF), spaces at the ends of lines and blank lines at the end are no edit; nodes an
// older hipo wrote (the hash of the raw body) still verify, with their hash as recorded.
import { describe, expect, it } from 'vitest';
import type { LocalDate } from '../../src/time/calendar.js';
import { renderFrontmatter, splitFrontmatter } from '../../src/tree/frontmatter.js';
import { contentHash } from '../../src/tree/hash.js';
import type { Period } from '../../src/tree/layout.js';
import { readNode } from '../../src/tree/read.js';
import { isHandEdited, type NodeInfo } from '../../src/tree/snapshot.js';
import { renderNodeFile, withPersonsKeys } from '../../src/write/node-file.js';

const day: Period = { level: 'daily', date: '2026-03-16' as LocalDate };
const stamp = { size: 0, mtimeMs: 0 };
const read = (text: string): NodeInfo => readNode(day, 'daily/2026-03-16.md', Buffer.from(text, 'utf8'), stamp);

// A copied raw log keeps a Markdown hard break (two spaces) at the end of a line, the last one too.
const body = '# 2026-03-16\n\n## billing [project]\n- moved invoices  \n- to the new queue\n\n## Topics\n- billing [project]  ';

function written(): string {
  return renderNodeFile({
    period: day,
    status: 'tentative',
    sourceFiles: ['memory/2026-03-16.md'],
    topics: [],
    summarizer: 'copy',
    sourceHash: 'abc',
    body,
  }).text;
}

/** The same node as a version of hipo that hashed the body's raw bytes wrote it. */
function writtenBefore(): string {
  const doc = splitFrontmatter(written());
  return renderFrontmatter({ ...doc.data!, 'body-hash': contentHash(doc.body) }) + doc.body;
}

const crlf = (t: string) => t.replace(/\n/g, '\r\n');
const trimmedLines = (t: string) => t.replace(/[ \t]+$/gm, '');

describe('body-hash', () => {
  for (const [name, make] of [
    ['written now', written],
    ['written by an older hipo', writtenBefore],
  ] as const) {
    it(`a node ${name}: unedited, its hash is the one recorded`, () => {
      const info = read(make());
      expect(isHandEdited(info)).toBe(false);
      expect(info.bodyHash).toBe(info.recordedBodyHash);
    });

    it(`a node ${name}: CRLF, blank lines or spaces added at the end are no hand edit`, () => {
      const recorded = read(make()).recordedBodyHash;
      for (const text of [crlf(make()), `${make()}\n`, `${make()}\n\n  \n`, `${crlf(make())}\r\n`]) {
        const info = read(text);
        expect(isHandEdited(info), JSON.stringify(text.slice(-30))).toBe(false);
        // Its parents see the same child: their source hashes do not move.
        expect(info.bodyHash).toBe(recorded);
      }
    });

    it(`a node ${name}: a changed, added or removed word is a hand edit`, () => {
      for (const text of [make().replace('to the new queue', 'to the old queue'), `${make()}- mine\n`, make().replace('moved ', '')])
        expect(isHandEdited(read(text))).toBe(true);
    });
  }

  it('a node written now: spaces trimmed from the ends of its lines (an editor on save) are no hand edit', () => {
    expect(isHandEdited(read(trimmedLines(written())))).toBe(false);
    expect(isHandEdited(read(crlf(trimmedLines(written()))))).toBe(false);
  });

  it('is, for a body with nothing to normalise, the hash of its bytes, as before', () => {
    const plain = renderNodeFile({
      period: day,
      status: 'tentative',
      sourceFiles: [],
      topics: [],
      summarizer: 'copy',
      sourceHash: 'abc',
      body: '# 2026-03-16\n\n- moved invoices\n',
    });
    expect(plain.bodyHash).toBe(contentHash('\n# 2026-03-16\n\n- moved invoices\n'));
  });
});

describe("a person's frontmatter keys", () => {
  it("follow hipo's in the new version, and a key the new version writes is never written twice", () => {
    const old = '---\ntype: daily\nreviewed-by: hipo-next\ntags: [important]\nbody-hash: abc\n---\n\nold body\n';
    // `reviewed-by` stands for a key a later hipo writes without this one listing it as its own.
    const next = '---\ntype: daily\nstatus: fixed\nreviewed-by: hipo\nbody-hash: def\n---\n\nnew body\n';
    const out = withPersonsKeys(old, next);
    expect(out.match(/^reviewed-by:/gm)).toHaveLength(1);
    expect(splitFrontmatter(out).data).toEqual({
      type: 'daily',
      status: 'fixed',
      'reviewed-by': 'hipo',
      'body-hash': 'def',
      tags: ['important'],
    });
    expect(splitFrontmatter(out).body).toBe('\nnew body\n');
    // A file hipo did not write (no body-hash) gives nothing: it is kept whole under edits/.
    expect(withPersonsKeys('---\ntags: [x]\n---\n\nmine\n', next)).toBe(next);
  });
});
