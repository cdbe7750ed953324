// The PostgreSQL tier against a real server: pushes (incremental, removals, rebuild, many
// workspaces at once), searches (the same behaviours as the local index, the same hit shape,
// other workspaces only when named), and failures (a wrong password or a closed port: the local
// index and search go on, the message names the setting and hides the password). `.ci/run`
// starts PostgreSQL and sets HIPO_TEST_PG_URL; without it these tests are skipped, and say so.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type HipoConfig } from '../../src/config/config.js';
import { IndexKeeper } from '../../src/daemon/index-keeper.js';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import { pushIndex } from '../../src/index/pg/push.js';
import { migrate, PG_SCHEMA_VERSION } from '../../src/index/pg/schema.js';
import { signBits } from '../../src/index/pg/signs.js';
import { storeStatus } from '../../src/index/pg/status.js';
import { openPgStore, pgSettings, safeUrl } from '../../src/index/pg/store.js';
import { openIndex, type SearchIndex } from '../../src/index/search-index.js';
import { updateIndex } from '../../src/index/update.js';
import { search, type SearchResult } from '../../src/search/search.js';
import { connectMcp } from '../helpers/mcp.js';
import { MARCH, UNICODE_FORMS, unicodeFormsTree } from '../helpers/search.js';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

const URL_ = process.env.HIPO_TEST_PG_URL ?? '';
const why = URL_ ? '' : ' (skipped: no PostgreSQL server; set HIPO_TEST_PG_URL, as .ci/run does)';
const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });
const RUN = `t${process.pid}x${Date.now().toString(36)}`;

const opened: SearchIndex[] = [];
const names = new Set<string>();
afterAll(async () => {
  for (const i of opened.splice(0)) i.close();
  if (!URL_) return;
  const c = new pg.Client({ connectionString: URL_ });
  await c.connect();
  await c.query('DELETE FROM hipo_files WHERE workspace = ANY($1::text[])', [[...names]]);
  await c.end();
});

function workspace(files: Record<string, string>, name: string | null, store: 'sqlite' | 'postgres', url = URL_, reads: string[] = []) {
  const postgres = { url, ...(name ? { workspace: name } : {}), workspaces: reads };
  const ws = makeWorkspace(files, { timeZone: 'UTC', search: { store, postgres } });
  if (name) names.add(name);
  return ws;
}

function open(ws: TestWorkspace, env: NodeJS.ProcessEnv = {}): { index: SearchIndex; config: HipoConfig } {
  const { config } = loadConfig(ws.root);
  const index = openIndex(ws, config, { embedder: wink, env });
  opened.push(index);
  return { index, config };
}

async function indexed(files: Record<string, string>, store: 'sqlite' | 'postgres', name: string | null = null) {
  const ws = workspace(files, name ?? `${RUN}-${Math.random().toString(36).slice(2, 8)}`, store);
  const { index } = open(ws);
  const report = await updateIndex(index);
  return { ws, index, report };
}

const paths = (r: SearchResult): string[] => r.hits.map((h) => `${h.path}:${h.lines.start}`);

async function storeRows(workspace: string): Promise<{ files: number; chunks: number }> {
  const c = new pg.Client({ connectionString: URL_ });
  await c.connect();
  try {
    const r = await c.query(
      `SELECT (SELECT count(*) FROM hipo_files WHERE workspace = $1)::int AS files,
         (SELECT count(*) FROM hipo_chunks WHERE workspace = $1)::int AS chunks`,
      [workspace],
    );
    return r.rows[0];
  } finally {
    await c.end();
  }
}

function localRows(index: SearchIndex): { files: number; chunks: number } {
  return index.db.prepare('SELECT (SELECT count(*) FROM files) AS files, (SELECT count(*) FROM chunks) AS chunks').get() as {
    files: number;
    chunks: number;
  };
}

/** Runs `fn` on a database of its own, dropped after. */
async function withDatabase(name: string, fn: (url: string) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: URL_ });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const u = new URL(URL_);
    u.pathname = `/${name}`;
    await fn(u.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

describe('store settings (no server needed)', () => {
  it('turns a vector into its sign bits', () => {
    expect(signBits(new Float32Array([0.5, -0.1, 0, 2]))).toBe('1001');
  });

  it('never shows the password and names the setting that is missing', () => {
    expect(safeUrl('postgres://team:s3cret@db.example:5432/hipo')).toBe('postgres://team:***@db.example:5432/hipo');
    const ws = makeWorkspace();
    const search = { ...loadConfig(ws.root).config.search, store: 'postgres' as const };
    expect(() => pgSettings(ws, search, {})).toThrow(/search\.postgres\.url.*HIPO_PG_URL/);
    const s = pgSettings(ws, search, { HIPO_PG_URL: 'postgres://a:b@h/d' })!;
    expect(s).toMatchObject({ setting: 'HIPO_PG_URL', reads: [s.workspace] });
  });

  it('rejects a bad store name or URL in the config, naming the file and the setting', () => {
    const bad = makeWorkspace({}, { search: { store: 'mysql' } });
    expect(() => loadConfig(bad.root)).toThrow(/hipo\.config\.json: "search\.store" must be "sqlite" or "postgres"/);
    const url = makeWorkspace({}, { search: { postgres: { url: 'http://x' } } });
    expect(() => loadConfig(url.root)).toThrow(/"search\.postgres\.url" must start with postgres:\/\//);
    const name = makeWorkspace({}, { search: { postgres: { workspaces: ['ok', 'no way'] } } });
    expect(() => loadConfig(name.root)).toThrow(/"search\.postgres\.workspaces".*"no way"/);
  });
});

describe.skipIf(!URL_)(`the PostgreSQL store${why}`, () => {
  it('creates its schema once when many workspaces start at the same moment', async () => {
    await withDatabase(`hipo_migrate_${process.pid}`, async (url) => {
      const stores = await Promise.all(
        Array.from({ length: 6 }, (_, i) => openPgStore({ url, setting: 'test', workspace: `w${i}`, reads: [`w${i}`] })),
      );
      const versions = await Promise.all(stores.map((s) => s.use(async (c) => (await c.query('SELECT version FROM hipo_schema')).rows)));
      for (const v of versions) expect(v).toEqual([{ version: PG_SCHEMA_VERSION }]);
      await Promise.all(stores.map((s) => s.close()));
    });
  });

  it('brings an older schema forward in place, computing the new columns from the rows it has', async () => {
    await withDatabase(`hipo_upgrade_${process.pid}`, async (url) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await migrate(c, 1);
        await c.query("INSERT INTO hipo_files VALUES ('w', 'memory/2026-03-09.md', 'raw', '2026-03-09', '2026-03-09', null, 'x', 1)");
        await c.query(
          `INSERT INTO hipo_chunks (workspace, path, section_line, line_start, line_end, heading_path, text, tsv, embedding, embedder)
           VALUES ('w', 'memory/2026-03-09.md', 3, 3, 4, '["Pets"]', 'my cat scratches the sofa',
             to_tsvector('english', 'my cat scratches the sofa'), '{0.6,-0.8,0}', 'e')`,
        );
        await migrate(c);
        const r = await c.query('SELECT lex::text, sig::text, (SELECT version FROM hipo_schema) AS v FROM hipo_chunks');
        expect(r.rows).toEqual([{ lex: "'cat' 'scratch' 'sofa'", sig: signBits(new Float32Array([0.6, -0.8, 0])), v: PG_SCHEMA_VERSION }]);
      } finally {
        await c.end();
      }
    });
  });

  it('folds the keyword rows an older hipo pushed in place, on first use: nothing is pushed again', async () => {
    await withDatabase(`hipo_fold_${process.pid}`, async (url) => {
      const ws = workspace(unicodeFormsTree('Ｒｅｄｉｓ７ Straße'), `${RUN}-fold`, 'postgres', url);
      const first = openIndex(ws, loadConfig(ws.root).config, { embedder: wink });
      await updateIndex(first);
      first.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const rows = 'SELECT path, heading_path, text, embedding, sig::text, embedder, lex::text FROM hipo_chunks ORDER BY id';
        const pushed = (await c.query(rows)).rows;
        // As schema 3 wrote them: the words of the heading and the text as written.
        await c.query(`UPDATE hipo_chunks SET tsv = v, lex = strip(v) FROM (
          SELECT id, setweight(to_tsvector('english',
              (SELECT coalesce(string_agg(h, ' '), '') FROM jsonb_array_elements_text(heading_path::jsonb) h)), 'A')
            || setweight(to_tsvector('english', text), 'B') AS v FROM hipo_chunks) o WHERE o.id = hipo_chunks.id`);
        await c.query('UPDATE hipo_schema SET version = 3');
        expect((await c.query(rows)).rows.map((r) => r.lex).join(' ')).toContain("'ｒｅｄｉｓ７'");
        const index = openIndex(ws, loadConfig(ws.root).config, { embedder: wink });
        try {
          const r = await search(index, 'redis7 strasse', { mode: 'bm25' });
          expect(r.hits.map((h) => [h.workspace, h.path])).toEqual([[`${RUN}-fold`, 'memory/2026-03-02.md']]);
          expect((await updateIndex(index)).store).toMatchObject({ pushed: 0, unchanged: 2, error: null });
        } finally {
          index.close();
        }
        expect((await c.query(rows)).rows).toEqual(pushed);
        expect((await c.query('SELECT version FROM hipo_schema')).rows).toEqual([{ version: PG_SCHEMA_VERSION }]);
      } finally {
        await c.end();
      }
    });
  });

  it('pushes what the local index holds, then only what changed, and removes what is gone', async () => {
    const name = `${RUN}-push`;
    const { ws, index, report } = await indexed(MARCH, 'postgres', name);
    expect(report.store).toMatchObject({ workspace: name, pushed: 4, removed: 0, unchanged: 0, error: null });
    expect(await storeRows(name)).toEqual(localRows(index));
    expect((await updateIndex(index)).store).toMatchObject({ pushed: 0, unchanged: 4 });
    ws.write('memory/2026-03-21.md', rawLog('2026-03-21', { 'kiln [project]': ['fired the celadon bowls at cone 10'] }));
    ws.write('memory/2026-03-02.md', rawLog('2026-03-02', { 'Migration review [project]': ['the index was added after all'] }));
    expect((await updateIndex(index)).store).toMatchObject({ pushed: 2, unchanged: 3 });
    rmSync(join(ws.root, 'memory/2026-03-20.md'));
    expect((await updateIndex(index)).store).toMatchObject({ pushed: 0, removed: 1 });
    expect(await storeRows(name)).toEqual(localRows(index));
    const hits = (await search(index, 'celadon kiln', { mode: 'bm25' })).hits;
    expect(hits[0]).toMatchObject({ workspace: name, path: 'memory/2026-03-21.md' });
    // One mode, one list: a hit's score is that list's own, as in the local index.
    expect(hits[0]!.score).toBe(hits[0]!.scores.bm25);
    expect((await search(index, 'lighthouse', { mode: 'bm25' })).hits).toEqual([]);
    // A rebuild reproduces the same rows from the tree.
    const rebuilt = await updateIndex(index, { rebuild: true });
    expect(rebuilt.store).toMatchObject({ pushed: 4, removed: 0 });
    expect(await storeRows(name)).toEqual(localRows(index));
  });

  it('loses no chunk when many workspaces index into it at once', async () => {
    const workspaces = Array.from({ length: 8 }, (_, i) => {
      const files: Record<string, string> = {};
      for (let d = 1; d <= 20; d++) {
        const day = `2026-05-${String(d).padStart(2, '0')}`;
        files[`memory/${day}.md`] = rawLog(day, { [`note ${i}-${d} [project]`]: [`workspace ${i} day ${d}: glaze batch ${i * 100 + d}`] });
      }
      return workspace(files, `${RUN}-many${i}`, 'postgres');
    });
    const indexes = workspaces.map((ws) => open(ws).index);
    const reports = await Promise.all(indexes.map((i) => updateIndex(i)));
    for (const r of reports) expect(r.store).toMatchObject({ pushed: 20, error: null });
    for (let i = 0; i < indexes.length; i++) expect(await storeRows(`${RUN}-many${i}`)).toEqual(localRows(indexes[i]!));
  });

  it('reads other workspaces only when they are named, and says which names it does not hold', async () => {
    const mine = `${RUN}-mine`;
    const theirs = `${RUN}-theirs`;
    const a = workspace(MARCH, mine, 'postgres');
    const b = workspace(
      { 'memory/2026-03-05.md': rawLog('2026-03-05', { 'Kiln [project]': ['the celadon glaze crawled again'] }) },
      theirs,
      'postgres',
    );
    const ia = open(a).index;
    const ib = open(b).index;
    await updateIndex(ia);
    await updateIndex(ib);
    expect((await search(ia, 'celadon glaze', { mode: 'bm25' })).hits).toEqual([]);
    const both = await search(ia, 'celadon glaze', { mode: 'bm25', workspaces: [mine, theirs, `${RUN}-nobody`] });
    expect(both.hits.map((h) => h.workspace)).toEqual([theirs]);
    expect(both.warnings).toEqual([`the store holds no workspace named "${RUN}-nobody"`]);
    // The configured list works the same way.
    const c = workspace({}, `${RUN}-reader`, 'postgres', URL_, [theirs]);
    const ic = open(c).index;
    await updateIndex(ic);
    expect((await search(ic, 'celadon', { mode: 'bm25' })).hits.map((h) => h.workspace)).toEqual([theirs]);
  });

  it('goes on without the server: the local index is updated and searched, the message hides the password', async () => {
    const ws = workspace(MARCH, `${RUN}-down`, 'postgres');
    const u = new URL(URL_);
    u.password = 'not-the-password';
    const { index } = open(ws, { HIPO_PG_URL: u.toString() });
    const report = await updateIndex(index);
    expect(report.added).toBe(4);
    expect(report.store?.error).toMatch(/HIPO_PG_URL.*password authentication failed/);
    expect(JSON.stringify(report)).not.toContain('not-the-password');
    const r = await search(index, 'cat sofa', { mode: 'bm25', filters: { levels: ['raw'] } });
    expect(r.hits[0]?.path).toBe('memory/2026-03-09.md');
    expect(r.hits[0]?.workspace).toBeUndefined();
    expect(r.warnings.join('\n')).toMatch(/searched this workspace's local index only/);
    expect(r.warnings.join('\n')).not.toContain('not-the-password');
    const closed = workspace(MARCH, `${RUN}-closed`, 'postgres', 'postgres://hipo:pw@127.0.0.1:1/none');
    const st = await storeStatus(closed, loadConfig(closed.root).config, {});
    expect(st).toMatchObject({ url: 'postgres://hipo:***@127.0.0.1:1/none', workspaces: [] });
    expect(st?.error).toMatch(/search\.postgres\.url.*ECONNREFUSED/);
  });

  it('serves the daemon: its index keeper pushes after an update and searches the store', async () => {
    const name = `${RUN}-daemon`;
    const ws = workspace(MARCH, name, 'postgres');
    const keeper = new IndexKeeper(ws, loadConfig(ws.root).config);
    const warnings: string[] = [];
    expect((await keeper.update((w) => warnings.push(w))).store).toMatchObject({ pushed: 4, error: null });
    const r = await keeper.search({ query: 'ramen', mode: 'bm25', update: true }, (w) => warnings.push(w));
    expect(r.hits[0]).toMatchObject({ workspace: name, path: 'memory/2026-03-02.md' });
    expect(warnings).toEqual([]);
    keeper.close();
  });

  it('answers MCP searches and recall from the store, with the workspace of each hit', async () => {
    const mine = `${RUN}-mcp`;
    const theirs = `${RUN}-mcp-team`;
    const b = workspace(
      { 'memory/2026-03-05.md': rawLog('2026-03-05', { 'Kiln [project]': ['the celadon glaze crawled again'] }) },
      theirs,
      'postgres',
    );
    await updateIndex(open(b).index);
    const a = workspace(MARCH, mine, 'postgres', URL_, [theirs]);
    const client = await connectMcp(['--dir', a.root, '--now', '2026-03-25']);
    try {
      const r = (await client.callTool({ name: 'search', arguments: { query: 'celadon glaze ramen', mode: 'bm25' } })) as {
        structuredContent: { hits: { workspace?: string; path: string }[]; warnings: string[] };
      };
      expect(new Set(r.structuredContent.hits.map((h) => h.workspace))).toEqual(new Set([mine, theirs]));
      const only = (await client.callTool({
        name: 'search',
        arguments: { query: 'celadon glaze ramen', mode: 'bm25', workspaces: [mine] },
      })) as {
        structuredContent: { hits: { workspace?: string }[] };
      };
      expect(only.structuredContent.hits.map((h) => h.workspace)).toEqual([mine]);
      const recall = (await client.callTool({
        name: 'recall',
        arguments: { question: 'what did Alice find in the postgres migration?' },
      })) as {
        content: { text: string }[];
      };
      expect(recall.content.map((c) => c.text).join('\n')).toContain('missing index');
      // An agent can see which workspaces it may name.
      const status = (await client.callTool({ name: 'status', arguments: {} })) as {
        structuredContent: { store: { workspace: string; reads: string[]; workspaces: { workspace: string }[] } };
        content: { text: string }[];
      };
      expect(status.structuredContent.store).toMatchObject({ workspace: mine, reads: [mine, theirs] });
      expect(status.structuredContent.store.workspaces.map((w) => w.workspace)).toEqual(expect.arrayContaining([mine, theirs]));
      expect(status.content[0]!.text).not.toContain(new URL(URL_).password || 'no password in the URL');
    } finally {
      await client.close();
    }
  });

  it('pushes only changed stamps: vectors that arrive later are pushed with their file', async () => {
    const name = `${RUN}-vectors`;
    const ws = workspace(MARCH, name, 'postgres');
    const { index } = open(ws);
    await updateIndex(index, { skipEmbedding: true });
    const store = await index.pg!.store();
    const count = () =>
      store.use(async (c) => (await c.query('SELECT count(embedding)::int AS n FROM hipo_chunks WHERE workspace = $1', [name])).rows[0].n);
    expect(await count()).toBe(0);
    await updateIndex(index);
    expect(await count()).toBe(localRows(index).chunks);
    expect((await pushIndex(store, index.db)).pushed).toBe(0);
  });
});

// The same behaviours, asked of both stores: what a user sees must not depend on where the index is.
describe.each(URL_ ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const))(`search behaviours, %s store${why}`, (store) => {
  it('answers a plain-English question although no passage holds every word (OR, not AND)', async () => {
    const { index } = await indexed(MARCH, store);
    const r = await search(index, 'What did Alice find when she looked at the database migration last week?', { mode: 'bm25' });
    expect(paths(r)[0]).toBe('memory/2026-03-02.md:3');
  });

  it('matches other forms of a word and shows the matching line', async () => {
    const { index } = await indexed(MARCH, store);
    const r = await search(index, 'scratching', { mode: 'bm25', limit: 1, filters: { levels: ['raw'] } });
    expect(r.hits[0]).toMatchObject({ level: 'raw', heading: 'Pets [user]', type: 'user' });
    expect(r.hits[0]!.snippet).toEqual({ line: 3, text: '## Pets [user]\n- my cat scratches the sofa every night', matched: 1 });
  });

  it('applies level, date and type filters and -excluded words', async () => {
    const { index } = await indexed(MARCH, store);
    const all = await search(index, 'cat sofa invoices cron', { mode: 'bm25' });
    expect(new Set(all.hits.map((h) => h.level))).toEqual(new Set(['raw', 'daily']));
    const daily = await search(index, 'cat sofa', { mode: 'bm25', filters: { levels: ['daily'] } });
    expect(daily.hits.map((h) => h.level)).toEqual(['daily']);
    const late = await search(index, 'novel ramen', { mode: 'bm25', filters: { since: '2026-03-10' } });
    expect(paths(late)).toEqual(['memory/2026-03-20.md:6']);
    const typed = await search(index, 'cat invoices', { mode: 'bm25', filters: { types: ['user'] } });
    expect(new Set(typed.hits.map((h) => h.type))).toEqual(new Set(['user']));
    const excluded = await search(index, 'cron -invoices', { mode: 'bm25' });
    expect(excluded.hits).toEqual([]);
  });

  it('honours "exact phrases"; a query of stop words only finds them in the local index', async () => {
    const { index } = await indexed(MARCH, store);
    // PostgreSQL's english configuration leaves stop words out of the index (docs/search.md).
    expect((await search(index, 'the', { mode: 'bm25' })).hits.length > 0).toBe(store === 'sqlite');
    expect(paths(await search(index, '"token bucket"', { mode: 'bm25' }))).toEqual(['memory/2026-03-20.md:3']);
    expect((await search(index, '"bucket token"', { mode: 'bm25' })).hits).toEqual([]);
  });

  it('weighs a word in a heading above the same word in passing', async () => {
    const { index } = await indexed(
      {
        'memory/2026-04-01.md': rawLog('2026-04-01', {
          'Notes [project]': ['the kiln schedule moved to thursday and the glaze order is late'],
          'Kiln [project]': ['new shelves arrived and were installed on monday'],
        }),
      },
      store,
    );
    expect(paths(await search(index, 'kiln', { mode: 'bm25' }))[0]).toBe('memory/2026-04-01.md:6');
  });

  // What search-fold.ts folds (unicode-forms.test.ts tries each way on the local index alone).
  for (const [what, written, typed] of UNICODE_FORMS) {
    it(`finds ${what} whichever of the two the text and the query hold, and shows its line`, async () => {
      for (const [inText, inQuery] of [
        [written, typed],
        [typed, written],
      ]) {
        const { index } = await indexed(unicodeFormsTree(inText), store);
        const r = await search(index, inQuery, { mode: 'bm25' });
        expect(
          r.hits.map((h) => [h.path, (h.snippet?.matched ?? 0) > 0]),
          `${inText} found by ${inQuery}`,
        ).toEqual([['memory/2026-03-02.md', true]]);
      }
    });
  }

  it('returns nothing for an empty query, and copes with a huge one', async () => {
    const { index } = await indexed(MARCH, store);
    expect((await search(index, '   ')).hits).toEqual([]);
    // Past its first 4,000 characters a query is not read.
    const r = await search(index, `postgres migration ${'lorem ipsum dolor sit amet '.repeat(4000)}`, { mode: 'hybrid' });
    expect(r.warnings).toEqual([]);
    expect(paths(r)[0]).toBe('memory/2026-03-02.md:3');
  });

  it('returns the same hit shape, with vectors in hybrid mode', async () => {
    const { index } = await indexed(MARCH, store);
    const r = await search(index, 'where did the cat scratch', { mode: 'hybrid', limit: 3 });
    expect(r.mode).toBe('hybrid');
    const h = r.hits[0]!;
    expect(
      Object.keys(h)
        .filter((k) => k !== 'workspace')
        .sort(),
    ).toEqual(
      [
        'alsoIn',
        'heading',
        'headingPath',
        'level',
        'lines',
        'path',
        'period',
        'score',
        'scores',
        'snippet',
        'sources',
        'status',
        'type',
      ].sort(),
    );
    expect(r.hits.some((x) => x.scores.vector !== null && x.scores.vector > 0.2)).toBe(true);
    const v = await search(index, 'feline furniture damage', { mode: 'vector', limit: 2 });
    expect(v.hits.length).toBeGreaterThan(0);
    expect(v.hits.every((x) => x.scores.bm25 === null)).toBe(true);
  });
});
