// Keyword search finds a word whatever Unicode form it was written in: full-width Latin (common in
// Japanese text), decomposed letters (NFD, pasted from macOS file names), Russian ё for е and
// German ß for ss; the query and the indexed text are folded alike, the text shown is the file's.
import { describe, expect, it } from 'vitest';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import type { SearchIndex } from '../../src/index/search-index.js';
import { updateIndex } from '../../src/index/update.js';
import { search } from '../../src/search/search.js';
import { indexOf, UNICODE_FORMS, unicodeFormsTree } from '../helpers/search.js';
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });

async function found(index: SearchIndex, query: string): Promise<string[]> {
  const r = await search(index, query, { mode: 'bm25' });
  // The path, and whether its snippet shows the matching line (not only the heading).
  return r.hits.map((h) => `${h.path}${h.snippet && h.snippet.matched > 0 ? ' (line shown)' : ''}`);
}

async function indexed(word: string): Promise<{ ws: TestWorkspace; index: SearchIndex }> {
  const ws = makeWorkspace(unicodeFormsTree(word));
  const index = indexOf(ws, { embedder: wink });
  await updateIndex(index);
  return { ws, index };
}

describe('keyword search across Unicode forms', () => {
  for (const [what, written, typed] of UNICODE_FORMS) {
    for (const [inText, inQuery, way] of [
      [written, typed, 'as written'],
      [typed, written, 'when the query is so written'],
    ] as const) {
      it(`finds ${what}, ${way}`, async () => {
        const { index } = await indexed(inText);
        expect(await found(index, inQuery)).toEqual(['memory/2026-03-02.md (line shown)']);
      });
    }
  }

  it('shows the text as written in the file', async () => {
    const { index } = await indexed('Ｒｅｄｉｓ');
    const r = await search(index, 'redis', { mode: 'bm25' });
    expect(r.hits[0]!.snippet?.text).toContain('- the Ｒｅｄｉｓ thing came up again today');
  });

  it('ranks an English query as before', async () => {
    const { index } = await indexed('deployment');
    const r = await search(index, 'apples market', { mode: 'bm25' });
    expect(r.hits.map((h) => h.path)).toEqual(['memory/2026-03-01.md']);
  });
});
