// Extra queries fused with the query: a request rarely names the fact it depends on, so the
// caller (an agent, or the model through search/expand.ts) may add the words the fact would use.
import { beforeEach, describe, expect, it } from 'vitest';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import type { SearchIndex } from '../../src/index/search-index.js';
import { updateIndex } from '../../src/index/update.js';
import { search, type SearchResult } from '../../src/search/search.js';
import { rephrasings } from '../../src/search/extra-queries.js';
import { makeWorkspace } from '../helpers/workspace.js';
import { indexOf } from '../helpers/search.js';

const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });
const headings = (r: SearchResult): string[] => r.hits.map((h) => h.heading);

// The request below shares no word with the Pets entry it depends on.
const REQUEST = 'recommend a vacuum cleaner for a house with lots of long shedding hair on the carpet';
const TREE = {
  'memory/2026-05-04.md':
    '# 2026-05-04\n\n## Pets [user]\n- my golden retriever Biscuit turned three\n\n## Cleaning\n- the carpet vacuum cleaner broke, long hair jammed the brush\n',
  'memory/2026-05-11.md':
    '# 2026-05-11\n\n## Groceries\n- bought rice and long beans\n\n## Old pets\n- my golden retriever puppy pictures from the breeder\n',
  'memory/2026-05-18.md': '# 2026-05-18\n\n## Work [project]\n- deployed the billing service\n',
};

describe('extra queries (also)', () => {
  let index: SearchIndex;
  beforeEach(async () => {
    const ws = makeWorkspace(TREE);
    index = indexOf(ws, { embedder: wink });
    await updateIndex(index);
  });

  it('finds the fact a request depends on when an extra query names it', async () => {
    const plain = await search(index, REQUEST, { mode: 'bm25', filters: { levels: ['raw'] } });
    expect(headings(plain)).not.toContain('Pets [user]');
    const r = await search(index, REQUEST, {
      mode: 'bm25',
      filters: { levels: ['raw'] },
      also: [{ kind: 'lex', text: 'dog breed golden retriever' }],
    });
    expect(headings(r)).toContain('Pets [user]');
    expect(r.also).toEqual([{ kind: 'lex', text: 'dog breed golden retriever' }]);
  });

  it("weighs the query's own ranking double against a model's extra query", async () => {
    const r = await search(index, 'vacuum cleaner', {
      mode: 'bm25',
      filters: { levels: ['raw'] },
      also: [{ kind: 'lex', text: 'golden retriever' }],
    });
    // Both lists' first places: the query's (Cleaning) scores 2/(k+1), the extra's 1/(k+1).
    expect(headings(r).slice(0, 2)).toEqual(['Cleaning', 'Pets [user]']);
    expect(r.hits[0]!.score).toBeCloseTo(2 * r.hits[1]!.score, 6);
  });

  it("weighs an agent's rephrasing as much as the query", async () => {
    const r = await search(index, 'vacuum cleaner', {
      mode: 'bm25',
      filters: { levels: ['raw'] },
      also: rephrasings(['golden retriever']),
    });
    expect(r.hits[0]!.score).toBeCloseTo(r.hits[1]!.score, 6);
  });

  it("shows an extra query's words in the snippet of a hit that only it found", async () => {
    const r = await search(index, REQUEST, { mode: 'bm25', filters: { levels: ['raw'] }, also: [{ kind: 'lex', text: 'retriever' }] });
    const pets = r.hits.find((h) => h.heading === 'Pets [user]')!;
    expect(pets.snippet.text).toContain('golden retriever Biscuit');
    expect(pets.scores.bm25).toBeNull(); // the query itself did not match it
  });

  it('keeps the filters and the -excluded words of the query for extra queries', async () => {
    const r = await search(index, 'vacuum -puppy', {
      mode: 'bm25',
      also: [{ kind: 'lex', text: 'golden retriever' }],
      filters: { levels: ['raw'], until: '2026-05-10' },
    });
    expect(headings(r)).toContain('Pets [user]');
    expect(headings(r)).not.toContain('Old pets'); // after --until, and holds -puppy
    const ex = await search(index, 'vacuum -puppy', {
      mode: 'bm25',
      also: [{ kind: 'lex', text: 'golden retriever' }],
      filters: { levels: ['raw'] },
    });
    expect(headings(ex)).not.toContain('Old pets');
  });

  it('ranks a sentence (vec) by vectors in hybrid mode and by keywords in bm25 mode', async () => {
    const also = [{ kind: 'vec' as const, text: 'my dog' }];
    const hybrid = await search(index, 'billing', { mode: 'hybrid', filters: { levels: ['raw'] }, also });
    expect(hybrid.mode).toBe('hybrid');
    expect(headings(hybrid)).toContain('Pets [user]'); // "dog" is near "retriever" in meaning only
    const bm25 = await search(index, 'billing', { mode: 'bm25', filters: { levels: ['raw'] }, also });
    expect(headings(bm25)).toEqual(['Work [project]']); // no raw entry has the word "dog"
  });

  it('ignores empty extra queries and runs at most eight', async () => {
    const also = [
      { kind: 'lex' as const, text: '  ' },
      ...Array.from({ length: 12 }, (_, i) => ({ kind: 'lex' as const, text: `word${i}` })),
    ];
    const r = await search(index, 'billing', { mode: 'bm25', also });
    expect(r.also.map((x) => x.text)).toEqual(Array.from({ length: 8 }, (_, i) => `word${i}`));
    expect(headings(r)[0]).toBe('Work [project]');
  });

  it('ranks exactly as before when there are no extra queries', async () => {
    const ranking = (r: SearchResult) => r.hits.map((h) => [h.path, h.lines.start, h.score.toFixed(9)]);
    const a = await search(index, REQUEST, { mode: 'hybrid' });
    const b = await search(index, REQUEST, { mode: 'hybrid', also: [] });
    expect(ranking(b)).toEqual(ranking(a));
  });
});
