// One result per fact: summary nodes fold into the raw sections their lines come from, vote for
// them (a fact found only in a summary still ranks, a fact repeated at every level does not
// count more), and topic lines lead to the sections of their topic.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/cycle/compaction.js';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import type { SearchIndex } from '../../src/index/search-index.js';
import { updateIndex } from '../../src/index/update.js';
import { search, type SearchHit } from '../../src/search/search.js';
import { corpusQueries, generateCorpus } from '../../bench/lib/corpus.js';
import { shownTwice } from '../helpers/duplicates.js';
import { indexOf } from '../helpers/search.js';
import { configOf, makeWorkspace, REPO, runCli, type TestWorkspace } from '../helpers/workspace.js';

const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });
const at = (h: Pick<SearchHit, 'path' | 'lines'>): string => `${h.path}:${h.lines.start}`;
const lineOf = (ws: TestWorkspace, path: string, n: number): string => ws.read(path).split('\n')[n - 1]!;

async function indexed(ws: TestWorkspace): Promise<SearchIndex> {
  const index = indexOf(ws, { embedder: wink });
  await updateIndex(index);
  return index;
}

/** Questions a person would ask of the bundled example memory. */
const EXAMPLE_QUERIES = [
  'why did we move search to postgres',
  'German stemming for the catalog',
  'Elasticsearch fallback',
  'invoice export CSV',
  'dentist appointment',
  'no mocks in integration tests',
  'what broke in the webhooks incident',
  'PDF batch job for invoices',
  'who is Carol',
  'synonyms hoodie sweatshirt',
];

/** The bundled example memory, compacted as `hipo compact --catch-up` would, and indexed. */
async function example(): Promise<{ ws: TestWorkspace; index: SearchIndex }> {
  const ws = makeWorkspace({});
  cpSync(join(REPO, 'memory'), ws.memoryDir, { recursive: true });
  await compact(ws, configOf(ws), { catchUp: true, now: '2026-12-15' });
  return { ws, index: await indexed(ws) };
}

describe('the bundled example, compacted', () => {
  it('shows a fact once, where it was written, with the summary lines that repeat it', async () => {
    const { ws, index } = await example();
    const r = await search(index, 'why did we move search to postgres', { mode: 'hybrid' });
    const top = r.hits[0]!;
    expect(at(top)).toBe('memory/2026-11-02.md:3');
    expect(top.level).toBe('raw');
    expect(top.alsoIn.map((a) => a.level)).toEqual(['daily', 'weekly', 'monthly']);
    // Each place named repeats the raw log's lines, word for word.
    const raw = ws.read('memory/2026-11-02.md');
    for (const a of top.alsoIn) {
      for (let n = a.lines.start; n <= a.lines.end; n++)
        expect(raw).toContain(lineOf(ws, a.path, n).replace(/^- (?:\d{2}-\d{2} · )?/, '- '));
    }
    // Ten results are ten different sections.
    expect(new Set(r.hits.map(at)).size).toBe(r.hits.length);
    // Asked for a summary level, the summaries are the results.
    const weekly = await search(index, 'why did we move search to postgres', { mode: 'bm25', filters: { levels: ['weekly'] } });
    expect(weekly.hits.length).toBeGreaterThan(0);
    expect(weekly.hits.every((h) => h.level === 'weekly')).toBe(true);
    expect(weekly.hits[0]!.snippet.text).toContain('move to Postgres full-text search');
  }, 60_000);

  it('never shows the same raw section twice in the first ten, in any mode', async () => {
    const { ws, index } = await example();
    for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
      for (const q of EXAMPLE_QUERIES) {
        const r = await search(index, q, { mode, limit: 10 });
        expect(shownTwice(ws.root, 'memory', r.hits), `${mode}: ${q}`).toEqual([]);
      }
    }
    // The check sees copies when they are there: unfolded, the daily, weekly and monthly copies show.
    const unfolded = await search(index, EXAMPLE_QUERIES[0]!, { mode: 'hybrid', tree: { fold: false } });
    expect(shownTwice(ws.root, 'memory', unfolded.hits)).toContain('memory/2026-11-02.md:3');
  }, 60_000);

  it('lists where else a fact appears in --json, and in the terminal', async () => {
    const { ws } = await example();
    const j = JSON.parse(
      runCli(['search', 'German stemming for the catalog', '--json', '--mode', 'bm25', '-n', '3', '--dir', ws.root]).stdout,
    ) as { hits: SearchHit[] };
    expect(at(j.hits[0]!)).toBe('memory/2026-11-04.md:3');
    // The three lines of the entry, copied into each level, and each level's topic line that
    // names the section's words.
    expect(j.hits[0]!.alsoIn.map((a) => `${a.path}:${a.lines.start}-${a.lines.end}`)).toEqual([
      'memory/daily/2026-11-04.md:15-15',
      'memory/daily/2026-11-04.md:21-23',
      'memory/weekly/2026-W45.md:37-37',
      'memory/weekly/2026-W45.md:75-77',
      'memory/monthly/2026-11.md:50-50',
      'memory/monthly/2026-11.md:96-98',
    ]);
    expect(j.hits[0]!.sources).toEqual([]);
    const text = runCli(['search', 'German stemming for the catalog', '--mode', 'bm25', '-n', '1', '--no-update', '--dir', ws.root]).stdout;
    // One entry per file, its ranges together.
    expect(text).toContain(
      '    also in memory/daily/2026-11-04.md:15,21-23 · memory/weekly/2026-W45.md:37,75-77 · memory/monthly/2026-11.md:50,96-98\n',
    );
  }, 60_000);
});

describe('a generated tree, compacted', () => {
  it('never shows the same raw section twice in the first ten', async () => {
    const ws = makeWorkspace({});
    generateCorpus(ws.memoryDir, { start: '2016-01-04', days: 45, seed: 7 });
    await compact(ws, configOf(ws), { catchUp: true, now: '2016-03-01' });
    const index = await indexed(ws);
    let summaries = 0;
    for (const q of corpusQueries()) {
      const r = await search(index, q, { mode: 'hybrid', limit: 10 });
      expect(shownTwice(ws.root, 'memory', r.hits), q).toEqual([]);
      summaries += r.hits.filter((h) => h.alsoIn.length > 0).length;
    }
    // The tree was there to fold: most hits are repeated by a summary.
    expect(summaries).toBeGreaterThan(300);
  }, 120_000);
});

const DAY =
  '# 2026-03-02\n\n## billing [project]\n- invoices are generated by a nightly cron job\n\n## lunch spots [user]\n- tried the new place downtown with the team\n\n## deploys [project]\n- the friday deploy of the invoice service broke the nightly job\n';
const node = (type: string, body: string): string => `---\ntype: ${type}\nstatus: fixed\n---\n\n${body}`;

describe('votes and leads', () => {
  it('ranks a raw section by what its summary says, even in other words', async () => {
    const ws = makeWorkspace({
      'memory/2026-03-02.md': DAY,
      'memory/daily/2026-03-02.md': node(
        'daily',
        '# Daily Summary: 2026-03-02\n\n## Highlights\n- billing: PDF rendering happens asynchronously now\n',
      ),
    });
    const index = await indexed(ws);
    const r = await search(index, 'asynchronously', { mode: 'bm25' });
    expect(r.hits.map(at)).toEqual(['memory/2026-03-02.md:3']);
    expect(r.hits[0]!.alsoIn.map(at)).toEqual(['memory/daily/2026-03-02.md:9']);
    expect(r.hits[0]!.scores.bm25).toBeNull();
    // Asked for daily nodes only, the summary is the result.
    expect((await search(index, 'asynchronously', { mode: 'bm25', filters: { levels: ['daily'] } })).hits.map(at)).toEqual([
      'memory/daily/2026-03-02.md:8',
    ]);
  });

  it('does not let a fact repeated at every level outrank a better match', async () => {
    const copy = '- the friday deploy of the invoice service broke the nightly job';
    const ws = makeWorkspace({
      'memory/2026-03-02.md': DAY,
      'memory/2026-03-03.md':
        '# 2026-03-03\n\n## billing [project]\n- invoices for march are generated by the nightly cron job on the first\n',
      'memory/daily/2026-03-02.md': node('daily', `# 2026-03-02\n\n## Highlights\n${copy}\n`),
      'memory/weekly/2026-W10.md': node('weekly', `# Weekly: 2026-W10\n\n## Highlights\n- 03-02 · deploys: ${copy.slice(2)}\n`),
      'memory/monthly/2026-03.md': node('monthly', `# Monthly: 2026-03\n\n## Highlights\n- 03-02 · deploys: ${copy.slice(2)}\n`),
    });
    const index = await indexed(ws);
    const r = await search(index, 'nightly invoices cron', { mode: 'bm25' });
    // Both billing sections say more about it than the deploy note, however often it is repeated.
    expect(r.hits.map(at).slice(0, 3).sort()).toEqual(['memory/2026-03-02.md:3', 'memory/2026-03-02.md:9', 'memory/2026-03-03.md:3']);
    expect(at(r.hits[2]!)).toBe('memory/2026-03-02.md:9');
    expect(r.hits[2]!.alsoIn.map((a) => a.level)).toEqual(['daily', 'weekly', 'monthly']);
    // Without folding, the copies would take three of the first five places.
    const unfolded = await search(index, 'nightly invoices cron', { mode: 'bm25', tree: { fold: false } });
    expect(unfolded.hits.filter((h) => h.level !== 'raw').length).toBe(3);
  });

  it("folds ROOT's profile and rules lines into the section they quote, by the day they link to", async () => {
    const ws = makeWorkspace({
      'memory/2026-03-02.md': DAY,
      'memory/2026-03-05.md': '# 2026-03-05\n\n## lunch spots [user]\n- the ramen bar on Kastanienallee is closed on mondays\n',
      'memory/ROOT.md': node(
        'root',
        '## Profile\n### Places\n- tried the new place downtown with the team ([03-02](daily/2026-03-02.md))\n\n' +
          '## Rules\n- the friday deploy of the invoice service broke the nightly job ([03-02](daily/2026-03-02.md))\n',
      ),
    });
    const index = await indexed(ws);
    const r = await search(index, 'new place downtown', { mode: 'bm25' });
    expect(r.hits.map(at)).toEqual(['memory/2026-03-02.md:6']);
    expect(r.hits[0]!.alsoIn.map(at)).toEqual(['memory/ROOT.md:8']);
    const rule = await search(index, 'friday deploy broke', { mode: 'bm25' });
    expect(rule.hits.map(at)).toEqual(['memory/2026-03-02.md:9']);
    expect(rule.hits[0]!.alsoIn.map(at)).toEqual(['memory/ROOT.md:11']);
  });

  it('leads from a ROOT topic line to the section of its topic', async () => {
    const ws = makeWorkspace({
      'memory/2026-03-02.md': DAY,
      'memory/daily/2026-03-02.md': node(
        'daily',
        '# 2026-03-02\n\n## User Facts\n- lunch spots: tried the new place downtown with the team\n',
      ),
      'memory/ROOT.md': node('root', '## Topics Index\n- lunch spots [user, 3d]: ramen, noodles → daily/2026-03-02.md\n'),
    });
    const index = await indexed(ws);
    // Only the topic line says "ramen"; it leads to the section it stands for.
    const r = await search(index, 'ramen', { mode: 'bm25' });
    expect(r.hits.map(at)).toEqual(['memory/2026-03-02.md:6']);
    expect(readFileSync(join(ws.root, 'memory/ROOT.md'), 'utf8')).toContain('ramen');
  });
});

describe('fact chunks (search.factChunks)', () => {
  // A long session where the user says one thing about themselves among many requests, and a
  // short one that shares a word with the question but says nothing of the kind.
  const filler = Array.from(
    { length: 60 },
    (_, i) => `Assistant: Step ${i + 1}: check the logs of service ${i} and compare the timings of run ${i}.`,
  ).join('\n');
  const files = {
    'memory/2026-03-02.md': `# 2026-03-02\n\n## Session 1\nUser: Help me plan the migration of the billing service.\n${filler}\nUser: By the way, my dog Biscuit is a golden retriever who sheds a lot.\n${filler}\n`,
    'memory/2026-03-03.md':
      '# 2026-03-03\n\n## Session 1\nUser: Which vacuum handles dog hair on carpets?\nAssistant: A vacuum with a tangle-free brush.\n',
  };

  it('point at the statement itself, once per session, and only when switched on', async () => {
    const query = 'golden retriever that sheds';
    const top = async (factChunks: boolean): Promise<SearchHit[]> => {
      const ws = makeWorkspace(files, { timeZone: 'UTC', search: { factChunks } });
      const index = await indexed(ws);
      const chunks = (index.db.prepare('SELECT COUNT(*) AS n FROM chunks').get() as { n: number }).n;
      const r = await search(index, query, { mode: 'bm25', limit: 10 });
      expect(shownTwice(ws.root, 'memory', r.hits)).toEqual([]);
      return Object.assign(r.hits, { chunks });
    };
    const off = await top(false);
    const on = await top(true);
    expect((on as unknown as { chunks: number }).chunks).toBeGreaterThan((off as unknown as { chunks: number }).chunks);
    // Without: the session's window around it; with: the statement's own line, once.
    expect(off[0]!.path).toBe('memory/2026-03-02.md');
    expect(off[0]!.lines.end - off[0]!.lines.start).toBeGreaterThan(5);
    expect(at(on[0]!)).toBe('memory/2026-03-02.md:65');
    expect(on[0]!.lines).toEqual({ start: 65, end: 65 });
    expect(on.filter((h) => h.path === 'memory/2026-03-02.md')).toHaveLength(1);
  }, 60_000);
});
