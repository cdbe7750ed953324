import { beforeEach, describe, expect, it } from 'vitest';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import type { SearchIndex } from '../../src/index/search-index.js';
import { updateIndex } from '../../src/index/update.js';
import type { SearchFilters } from '../../src/search/filters.js';
import type { SectionRef } from '../../src/search/hits.js';
import { search, type SearchResult } from '../../src/search/search.js';
import { makeWorkspace } from '../helpers/workspace.js';
import { indexOf, MARCH } from '../helpers/search.js';

const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });

const paths = (r: SearchResult): string[] => r.hits.map((h) => `${h.path}:${h.lines.start}`);

async function indexed(files: Record<string, string>): Promise<SearchIndex> {
  const ws = makeWorkspace(files);
  const index = indexOf(ws, { embedder: wink });
  await updateIndex(index);
  return index;
}

describe('keyword search (bm25)', () => {
  let index: SearchIndex;
  beforeEach(async () => {
    index = await indexed(MARCH);
  });

  it('answers a plain-English question although no passage holds every word (OR, not AND)', async () => {
    const r = await search(index, 'What did Alice find when she looked at the database migration last week?', { mode: 'bm25' });
    expect(paths(r)[0]).toBe('memory/2026-03-02.md:3');
  });

  it('matches other forms of a word (stemming) and shows the matching line', async () => {
    const r = await search(index, 'scratching', { mode: 'bm25', limit: 1, filters: { levels: ['raw'] } });
    expect(r.hits[0]).toMatchObject({ level: 'raw', heading: 'Pets [user]', type: 'user' });
    expect(r.hits[0]!.snippet).toEqual({ line: 3, text: '## Pets [user]\n- my cat scratches the sofa every night', matched: 1 });
  });

  it('searches for stop words when the query has nothing else', async () => {
    expect((await search(index, 'the', { mode: 'bm25' })).hits.length).toBeGreaterThan(0);
  });

  it('ranks a passage covering more of the query above one repeating a single word', async () => {
    const idx = await indexed({
      'memory/2026-04-01.md':
        '# 2026-04-01\n\n## One\n- token token token token token token\n\n## Two\n- the token bucket limits requests\n\n## Three\n- unrelated\n\n## Four\n- also unrelated\n',
    });
    expect(paths(await search(idx, 'token bucket', { mode: 'bm25' }))[0]).toBe('memory/2026-04-01.md:6');
  });

  it('weighs a word in a heading above the same word in passing', async () => {
    const idx = await indexed({
      'memory/2026-04-02.md':
        '# 2026-04-02\n\n## Notes\n- we talked about kafka once\n\n## Kafka\n- partitions grow with tenants\n\n## Other\n- nothing here\n',
    });
    expect(paths(await search(idx, 'kafka', { mode: 'bm25' }))[0]).toBe('memory/2026-04-02.md:6');
  });

  it('keeps a word that summaries repeat everywhere worth something (no IDF collapse)', async () => {
    const idx = await indexed({
      'memory/2026-05-04.md': '# 2026-05-04\n\n## Rate limiter [project]\n- the rate limiter drops bursts\n',
      'memory/daily/2026-05-04.md':
        '---\ntype: daily\nstatus: fixed\n---\n\n# Daily Summary\n\n## Topics\n- rate limiter [project]\n\n## Decisions\n- rate limiter drops bursts\n',
      'memory/weekly/2026-W19.md': '---\ntype: weekly\nstatus: tentative\n---\n\n# 2026-W19\n\n## Topics\n- rate limiter [project]\n',
      'memory/monthly/2026-05.md': '---\ntype: monthly\nstatus: tentative\n---\n\n# 2026-05\n\n## Topics\n- rate limiter [project]\n',
      'memory/ROOT.md': '# ROOT\n\n## Topics Index\n- rate limiter [project]\n',
    });
    // Every level on its own (summaries not folded into their sources), to see each one's score.
    const r = await search(idx, 'rate limiter', { mode: 'bm25', tree: { fold: false } });
    expect(r.hits.length).toBeGreaterThanOrEqual(5);
    // FTS5 alone gives such a word (in more than half the chunks) a weight of ~1e-6.
    expect(r.hits.every((h) => h.scores.bm25! > 0.5)).toBe(true);
    expect(paths(r)[0]).toBe('memory/2026-05-04.md:3');
    // Folded (the default), it is one fact, found where it was written.
    expect(paths(await search(idx, 'rate limiter', { mode: 'bm25' }))).toEqual(['memory/2026-05-04.md:3']);
  });

  it('honours "exact phrases" and -excluded words', async () => {
    expect(paths(await search(index, '"token bucket"', { mode: 'bm25' }))).toEqual(['memory/2026-03-20.md:3']);
    // Asked for nothing but a phrase, every result holds it, whichever list found it (word vectors
    // find neighbours of any wording); beside free words, the phrase ranks as one more term.
    for (const mode of ['hybrid', 'vector'] as const)
      expect(paths(await search(index, '"token bucket"', { mode }))).toEqual(['memory/2026-03-20.md:3']);
    const mixed = paths(await search(index, 'cat sofa "token bucket"', { mode: 'hybrid' }));
    expect(mixed).toContain('memory/2026-03-20.md:3');
    expect(mixed.length).toBeGreaterThan(1);
    // A whole request in quotes is a quotation: its words are searched, not the sentence verbatim.
    const request = '"What did Alice find when she looked at the database migration last week?"';
    expect(paths(await search(index, request, { mode: 'bm25' }))[0]).toBe('memory/2026-03-02.md:3');
    expect((await search(index, 'invoices', { mode: 'bm25' })).hits.length).toBe(2);
    expect((await search(index, 'invoices -cron', { mode: 'bm25' })).hits).toEqual([]);
    expect((await search(index, 'invoices -cron', { mode: 'hybrid' })).hits.filter((h) => h.snippet.text.includes('cron'))).toEqual([]);
  });

  it('leads from a summary-node hit to the raw sections of its day', async () => {
    const r = await search(index, 'invoices', { mode: 'bm25', filters: { levels: ['daily'] } });
    expect(r.hits[0]!.path).toBe('memory/daily/2026-03-09.md');
    expect(r.hits[0]!.sources.map((s) => `${s.path}:${s.lines.start}`)).toEqual(['memory/2026-03-09.md:6']);
  });

  it('returns nothing for an empty query, and copes with a huge one', async () => {
    expect((await search(index, '   ')).hits).toEqual([]);
    const huge = `${'lorem ipsum dolor sit amet '.repeat(4000)} postgres migration`;
    const r = await search(index, huge, { mode: 'hybrid' });
    expect(r.warnings).toEqual([]);
    expect(Array.isArray(r.hits)).toBe(true);
  });
});

describe('filters', () => {
  let index: SearchIndex;
  beforeEach(async () => {
    index = await indexed(MARCH);
  });

  it('by level', async () => {
    const r = await search(index, 'cat sofa', { mode: 'hybrid', filters: { levels: ['raw'] } });
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits.every((h) => h.level === 'raw')).toBe(true);
    const d = await search(index, 'cat sofa', { mode: 'vector', filters: { levels: ['daily'] } });
    expect(d.hits.length).toBeGreaterThan(0);
    expect(d.hits.every((h) => h.level === 'daily')).toBe(true);
  });

  it('by date range, in every mode', async () => {
    for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
      const r = await search(index, 'migration invoices cat rate limiter', {
        mode,
        filters: { since: '2026-03-05' as never, until: '2026-03-15' as never },
      });
      expect(r.hits.length).toBeGreaterThan(0);
      expect(r.hits.every((h) => h.period!.start >= '2026-03-05' && h.period!.end <= '2026-03-15')).toBe(true);
    }
  });

  it("by date range, for a summary hit's sources too: a week across the year end has days on both sides", async () => {
    const idx = await indexed({
      'memory/2026-12-29.md': '# 2026-12-29\n\n## Ledger export [project]\n- ledger export moved to typst\n',
      'memory/2027-01-02.md':
        '# 2027-01-02\n\n## Ledger export [project]\n- ledger export runs nightly\n\n' +
        '## Ledger docs [reference]\n- ledger export docs: wiki\n',
      'memory/weekly/2026-W53.md':
        '---\ntype: weekly\nstatus: tentative\n---\n\n# Weekly: 2026-W53\n\n## Ledger export [project]\n- ledger export: typst, nightly\n',
    });
    const at = (s: SectionRef) => `${s.path}:${s.lines.start}`;
    const sources = async (filters: SearchFilters) =>
      (await search(idx, 'ledger export', { mode: 'bm25', filters: { levels: ['weekly'], ...filters } })).hits.flatMap((h) =>
        h.sources.map(at),
      );
    expect((await sources({})).sort()).toEqual(['memory/2026-12-29.md:3', 'memory/2027-01-02.md:3', 'memory/2027-01-02.md:6']);
    expect((await sources({ since: '2027-01-01' as never })).sort()).toEqual(['memory/2027-01-02.md:3', 'memory/2027-01-02.md:6']);
    expect(await sources({ until: '2026-12-31' as never })).toEqual(['memory/2026-12-29.md:3']);
    expect((await sources({ types: ['project'] })).sort()).toEqual(['memory/2026-12-29.md:3', 'memory/2027-01-02.md:3']);
  });

  it('by memory type', async () => {
    const r = await search(index, 'cat sofa invoices', { mode: 'hybrid', filters: { types: ['user'] } });
    expect(r.hits.map((h) => h.type)).toEqual(r.hits.map(() => 'user'));
    expect(r.hits.map((h) => h.path).sort()).toEqual(['memory/2026-03-09.md', 'memory/daily/2026-03-09.md']);
  });
});

describe('vector and hybrid search', () => {
  let index: SearchIndex;
  beforeEach(async () => {
    index = await indexed(MARCH);
  });

  it('finds a passage by meaning when no word is shared', async () => {
    const q = 'kitten damages furniture';
    expect((await search(index, q, { mode: 'bm25' })).hits).toEqual([]);
    const r = await search(index, q, { mode: 'vector', limit: 2 });
    expect(r.hits.map((h) => h.heading)).toContain('Pets [user]');
    expect(r.hits[0]!.scores.vector).toBeGreaterThan(0.3);
  });

  it('drops nearest neighbours that are not near (search.minSimilarity)', async () => {
    const r = await search(index, 'zeppelin', { mode: 'hybrid' });
    expect(r.hits).toEqual([]);
    expect(index.settings.minSimilarity).toBe(0.2);
  });

  it('finds nothing, with a reason, when no word of a vector query is known to the embedder', async () => {
    const r = await search(index, 'zzqxv qqvvz', { mode: 'vector' });
    expect(r.hits).toEqual([]);
    expect(r.warnings).toContain('the query has no word the embedder knows');
    // In hybrid mode the keyword results stand alone, and it says so.
    const h = await search(index, 'zzqxv qqvvz', { mode: 'hybrid' });
    expect(h.mode).toBe('bm25');
    expect(h.warnings).toContain('the query has no word the embedder knows; keyword results only');
  });

  it("weighs the vector list by the embedder's own weight unless the config sets one", () => {
    expect(index.settings.hybrid).toEqual({ k: 10, bm25Weight: 1, vectorWeight: 0.2 });
    const ws = makeWorkspace({}, { timeZone: 'UTC', search: { hybrid: { vectorWeight: 0.7 } } });
    expect(indexOf(ws, { embedder: wink }).settings.hybrid.vectorWeight).toBe(0.7);
  });

  it('fuses both lists in hybrid mode', async () => {
    const r = await search(index, 'kitten damages furniture invoices', { mode: 'hybrid', limit: 5 });
    expect(r.mode).toBe('hybrid');
    const headings = r.hits.map((h) => h.heading);
    expect(headings).toContain('Pets [user]');
    expect(headings).toContain('Billing [project]');
  });

  it('says so and falls back to keywords when there is no embedder', async () => {
    const ws = makeWorkspace(MARCH, { timeZone: 'UTC', search: { embedder: 'none' } });
    const idx = indexOf(ws);
    await updateIndex(idx);
    const r = await search(idx, 'cron', { mode: 'hybrid' });
    expect(r.mode).toBe('bm25');
    expect(r.warnings[0]).toMatch(/no embedder is configured.*keyword results only/);
    expect(r.hits.length).toBeGreaterThan(0);
    const v = await search(idx, 'cron', { mode: 'vector' });
    expect(v.hits).toEqual([]);
    expect(v.warnings[0]).toMatch(/no embedder is configured/);
  });
});

describe('Korean, Japanese and Chinese', () => {
  let index: SearchIndex;
  beforeEach(async () => {
    index = await indexed({
      'memory/2026-06-01.md': [
        '# 2026-06-01',
        '',
        '## 회의 [project]',
        '- 오늘 회의에서 데이터베이스 이전을 결정했다',
        '',
        '## 打ち合わせ [project]',
        '- 来週の打ち合わせで認証の設計を見直す',
        '',
        '## 会议 [project]',
        '- 我们决定把缓存迁移到新的服务器',
        '',
        '## English',
        '- lunch with the team',
      ].join('\n'),
    });
  });

  it('finds a Korean word inside a longer word with a particle', async () => {
    const r = await search(index, '데이터베이스 결정', { mode: 'bm25' });
    expect(r.hits[0]!.heading).toBe('회의 [project]');
    expect(r.hits[0]!.snippet.text).toContain('데이터베이스');
  });

  it('finds Japanese words in unspaced text', async () => {
    expect((await search(index, '認証の設計', { mode: 'bm25' })).hits[0]!.heading).toBe('打ち合わせ [project]');
  });

  it('finds Chinese words in unspaced text, and single characters', async () => {
    expect((await search(index, '缓存迁移', { mode: 'bm25' })).hits[0]!.heading).toBe('会议 [project]');
    expect((await search(index, '缓', { mode: 'bm25' })).hits[0]!.heading).toBe('会议 [project]');
  });

  it('does the same in hybrid mode (vectors know no CJK words, keywords carry it)', async () => {
    expect((await search(index, '회의', { mode: 'hybrid' })).hits[0]!.heading).toBe('회의 [project]');
  });
});

describe('result count', () => {
  it('does not change the order: the first n hits of -n 10 are those of -n 40', async () => {
    // Long sections cut into several parts, every part matching: a section's score adds its
    // other parts' to its best one, so the ranking must not depend on how many were asked for.
    const files: Record<string, string> = {};
    for (let d = 1; d <= 28; d++) {
      const date = `2026-02-${String(d).padStart(2, '0')}`;
      const sections = [1, 2, 3].map((s) => {
        const parts = Array.from(
          { length: 2 + ((d * s) % 5) },
          (_, p) =>
            `- deploy note ${d}.${s}.${p}: ${'the rollout of the deploy pipeline went fine, '.repeat(6 + ((d + p) % 9))}${'deploy '.repeat((d * s + p) % 4)}`,
        );
        return `## Deploys ${s}\n${parts.join('\n')}`;
      });
      files[`memory/${date}.md`] = `# ${date}\n\n${sections.join('\n\n')}\n`;
    }
    const ws = makeWorkspace(files, { timeZone: 'UTC', search: { chunkChars: 400 } });
    const idx = indexOf(ws, { embedder: wink });
    await updateIndex(idx);
    for (const mode of ['bm25', 'hybrid'] as const) {
      const order = async (limit: number) =>
        (await search(idx, 'deploy pipeline rollout', { mode, limit, sources: 0 })).hits.map((h) => `${h.path}:${h.heading}`);
      const forty = await order(40);
      expect(forty).toHaveLength(40);
      expect(await order(10)).toEqual(forty.slice(0, 10));
      expect(await order(3)).toEqual(forty.slice(0, 3));
    }
  });
});
