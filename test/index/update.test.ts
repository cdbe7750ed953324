import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import { indexFile } from '../../src/index/search-index.js';
import { withIndex } from '../../src/index/maintain.js';
import { loadConfig } from '../../src/config/config.js';
import { updateIndex } from '../../src/index/update.js';
import { MemoryDirMissing } from '../../src/tree/scan.js';
import { search } from '../../src/search/search.js';
import { makeWorkspace } from '../helpers/workspace.js';
import { counting, indexOf } from '../helpers/search.js';

const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });

const RAW = `# 2026-03-15

## Auth refactor [project]
- decided to move sessions into redis
- the rate limiter stays in nginx for now

## Preferences [user]
- prefers pnpm over npm

## Garden
- planted eight tomato plants on the balcony
`;

const DAILY = `---
type: daily
status: fixed
period: 2026-03-15
---

# Daily Summary: 2026-03-15 (Sun)

## Key Decisions
- moved sessions into redis
`;

function tree(extra: Record<string, string> = {}) {
  return makeWorkspace(
    {
      'memory/2026-03-15.md': RAW,
      'memory/2026-03-16.md': '# 2026-03-16\n\n## Deploy [project]\n- shipped the billing webhook retry\n',
      'memory/daily/2026-03-15.md': DAILY,
      'memory/weekly/2026-W11.md':
        '---\ntype: weekly\nstatus: tentative\n---\n\n# 2026-W11\n\n## Topics\n- auth refactor [project]: redis, sessions\n',
      'memory/monthly/2026-03.md': '---\ntype: monthly\nstatus: tentative\n---\n\n# 2026-03\n\n## Highlights\n- auth moved to redis\n',
      'memory/ROOT.md': '# ROOT\n\n## Active Context\n- auth refactor\n',
      'memory/notes.md': '# Loose notes\nsome text about kubernetes\n',
      'knowledge/auth.md': '# Auth\n\n## Sessions\nSessions live in redis since March.\n',
      ...extra,
    },
    { timeZone: 'UTC', search: { include: ['knowledge'] } },
  );
}

describe('building the index', () => {
  it('indexes raw logs, every node level, ROOT and configured folders, with level, period and status', async () => {
    const ws = tree();
    const index = indexOf(ws, { embedder: wink });
    const r = await updateIndex(index);
    expect(r).toMatchObject({ files: 8, added: 8, changed: 0, removed: 0, pendingEmbeddings: 0, warnings: [] });
    const files = index.db.prepare('SELECT path, level, period_start, period_end, status FROM files ORDER BY path').all();
    expect(files).toEqual([
      { path: 'knowledge/auth.md', level: 'other', period_start: null, period_end: null, status: null },
      { path: 'memory/2026-03-15.md', level: 'raw', period_start: '2026-03-15', period_end: '2026-03-15', status: null },
      { path: 'memory/2026-03-16.md', level: 'raw', period_start: '2026-03-16', period_end: '2026-03-16', status: null },
      { path: 'memory/ROOT.md', level: 'root', period_start: null, period_end: null, status: null },
      { path: 'memory/daily/2026-03-15.md', level: 'daily', period_start: '2026-03-15', period_end: '2026-03-15', status: 'fixed' },
      { path: 'memory/monthly/2026-03.md', level: 'monthly', period_start: '2026-03-01', period_end: '2026-03-31', status: 'tentative' },
      { path: 'memory/notes.md', level: 'other', period_start: null, period_end: null, status: null },
      { path: 'memory/weekly/2026-W11.md', level: 'weekly', period_start: '2026-03-09', period_end: '2026-03-15', status: 'tentative' },
    ]);
    const chunks = index.db
      .prepare(
        "SELECT c.heading_path, c.type, c.line_start, c.line_end FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = 'memory/2026-03-15.md' ORDER BY c.line_start",
      )
      .all();
    expect(chunks).toEqual([
      { heading_path: '["2026-03-15","Auth refactor [project]"]', type: 'project', line_start: 3, line_end: 5 },
      { heading_path: '["2026-03-15","Preferences [user]"]', type: 'user', line_start: 7, line_end: 8 },
      { heading_path: '["2026-03-15","Garden"]', type: null, line_start: 10, line_end: 11 },
    ]);
    // Summary-node chunks get negative ids, source chunks positive ones.
    const signs = index.db
      .prepare(
        'SELECT f.level, min(c.id) AS lo, max(c.id) AS hi FROM chunks c JOIN files f ON f.id = c.file_id GROUP BY f.level ORDER BY f.level',
      )
      .all() as { level: string; lo: number; hi: number }[];
    for (const s of signs) {
      if (['daily', 'weekly', 'monthly', 'root'].includes(s.level)) expect(s.hi).toBeLessThan(0);
      else expect(s.lo).toBeGreaterThan(0);
    }
    expect(index.db.prepare('SELECT count(*) AS n FROM chunk_vec').get()).toEqual({ n: r.chunksAdded });
  });

  it('keeps secrets out of the index, and the lines after a multi-line secret where they are', async () => {
    const ws = tree({
      'memory/2026-03-17.md': [
        '# 2026-03-17',
        '',
        '## Server access [reference]',
        'db password: hunter2hunter2',
        'key:',
        '-----BEGIN OPENSSH PRIVATE KEY-----',
        'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
        'QyNTUxOQAAACBGmT0WAlvrmmHvm3OXxPSTuGpKNAhB3Fl4qUmuZAHfbQAAAJgAWbuWAFm7',
        '-----END OPENSSH PRIVATE KEY-----',
        '',
        '## After the key',
        'the deploy host is build-01',
      ].join('\n'),
    });
    const index = indexOf(ws, { embedder: null });
    const r = await updateIndex(index);
    expect(r.redacted).toBe(2);
    index.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(indexFile(ws)).toString('latin1');
    expect(bytes).not.toContain('hunter2hunter2');
    expect(bytes).not.toContain('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ');
    const res = await search(index, 'deploy host', { mode: 'bm25' });
    expect(res.hits[0]).toMatchObject({ path: 'memory/2026-03-17.md', lines: { start: 11, end: 12 } });
  });
});

describe('incremental updates', () => {
  it('reads only changed files and embeds only new chunks', async () => {
    const ws = tree();
    const embedder = counting(wink);
    let index = indexOf(ws, { embedder });
    const first = await updateIndex(index);
    // Every chunk, plus the probe that tells a new embedder's dimensions.
    expect(embedder.texts).toHaveLength(first.chunksAdded + 1);
    index.close();

    writeFileSync(join(ws.memoryDir, '2026-03-15.md'), RAW.replace('eight tomato plants', 'eight tomato plants and basil'));
    embedder.texts.length = 0;
    index = indexOf(ws, { embedder });
    const second = await updateIndex(index);
    expect(second).toMatchObject({
      changed: 1,
      added: 0,
      removed: 0,
      unchanged: 7,
      chunksAdded: 1,
      chunksRemoved: 1,
      chunksKept: 2,
      embedded: 1,
    });
    expect(embedder.texts).toHaveLength(1);
    expect(embedder.texts[0]).toContain('basil');

    embedder.texts.length = 0;
    const third = await updateIndex(index);
    expect(third).toMatchObject({ changed: 0, unchanged: 8, chunksAdded: 0, embedded: 0 });
    expect(embedder.texts).toHaveLength(0);
  });

  it('with the changed memory files named, looks at those alone (and all configured folders); a new index, at all', async () => {
    const ws = tree();
    const fresh = await updateIndex(indexOf(ws, { embedder: null }), { memoryFiles: [] });
    expect(fresh).toMatchObject({ added: 8, files: 8 });
    const index = indexOf(ws, { embedder: null });
    writeFileSync(join(ws.memoryDir, '2026-03-15.md'), RAW.replace('eight tomato plants', 'eight tomato plants and basil'));
    writeFileSync(join(ws.memoryDir, 'notes.md'), '# Loose notes\nsome text about terraform\n');
    rmSync(join(ws.memoryDir, '2026-03-16.md'));
    writeFileSync(join(ws.root, 'knowledge', 'auth.md'), '# Auth\n\n## Sessions\nSessions live in postgres now.\n');
    const r = await updateIndex(index, { memoryFiles: ['2026-03-15.md', '2026-03-16.md', '.drafts/x.md'] });
    // The named raw log changed, the named one that is gone went, the configured folder was walked.
    expect(r).toMatchObject({ files: 2, changed: 2, removed: 1, added: 0 });
    const paths = async (q: string) => (await search(index, q, { mode: 'bm25' })).hits.map((h) => h.path);
    expect(await paths('basil')).toEqual(['memory/2026-03-15.md']);
    expect(await paths('billing webhook')).toEqual([]);
    expect(await paths('postgres')).toEqual(['knowledge/auth.md']);
    // notes.md was not named: the index keeps what it had until an update looks at every file.
    expect(await paths('terraform')).toEqual([]);
    expect(await updateIndex(index)).toMatchObject({ changed: 1, files: 7 });
    expect(await paths('terraform')).toEqual(['memory/notes.md']);
  });

  it("keeps a resident process's in-memory vectors in step with its own updates: as a fresh handle finds", async () => {
    const ws = tree();
    const index = indexOf(ws, { embedder: wink });
    await updateIndex(index);
    const queries = ['where do sessions live', 'tomato balcony', 'billing webhook retry', 'basil and mint seedlings', 'kubernetes'];
    const ranked = async (i: typeof index) => {
      const out: string[][] = [];
      for (const q of queries) out.push((await search(i, q, { mode: 'vector', limit: 5 })).hits.map((h) => `${h.path}:${h.score}`));
      return out;
    };
    // From the second query on, the process searches its in-memory copy of the vectors.
    await ranked(index);
    await ranked(index);
    writeFileSync(join(ws.memoryDir, '2026-03-15.md'), `${RAW}\n## Seedlings\n- sowed basil and mint seedlings indoors\n`);
    rmSync(join(ws.memoryDir, '2026-03-16.md'));
    expect(await updateIndex(index)).toMatchObject({ removed: 1, embedded: 1 });
    expect(index.vectorChanges).not.toBe('all');
    const patched = await ranked(index);
    expect(index.vectorChanges).toEqual(new Set());
    const fresh = indexOf(ws, { embedder: wink });
    expect(patched).toEqual(await ranked(fresh));
    expect(patched.flat().some((h) => h.startsWith('memory/2026-03-16.md'))).toBe(false);
    expect(patched[3]![0]).toMatch(/^memory\/2026-03-15\.md:/);
    fresh.close();
    // Rows freed by the removal are taken again, and more new chunks than the copy has room for
    // make it grow: still as a fresh handle finds.
    const many = Array.from({ length: 300 }, (_, i) => `## crop ${i}\n- planted ${i % 2 ? 'kale' : 'sorrel'} row ${i}\n`);
    writeFileSync(join(ws.memoryDir, '2026-03-17.md'), `# 2026-03-17\n\n${many.join('\n')}`);
    expect(await updateIndex(index)).toMatchObject({ embedded: 300 });
    const grown = await ranked(index);
    const again = indexOf(ws, { embedder: wink });
    expect(grown).toEqual(await ranked(again));
    again.close();
  });

  it('moves chunks whose text moved without tokenizing or embedding them again', async () => {
    const ws = tree();
    const embedder = counting(wink);
    const index = indexOf(ws, { embedder });
    await updateIndex(index);
    embedder.texts.length = 0;
    writeFileSync(join(ws.memoryDir, '2026-03-15.md'), RAW.replace('# 2026-03-15\n', '# 2026-03-15\n\nA line added at the top.\n'));
    const r = await updateIndex(index);
    expect(r).toMatchObject({ chunksAdded: 1, chunksKept: 3, chunksRemoved: 0 });
    expect(embedder.texts).toEqual(['2026-03-15\n# 2026-03-15\n\nA line added at the top.']);
    const res = await search(index, 'tomato', { mode: 'bm25' });
    expect(res.hits[0]!.lines).toEqual({ start: 12, end: 13 });
  });

  it('drops a deleted file', async () => {
    const ws = tree();
    const index = indexOf(ws, { embedder: wink });
    await updateIndex(index);
    rmSync(join(ws.memoryDir, '2026-03-16.md'));
    const r = await updateIndex(index);
    expect(r).toMatchObject({ removed: 1, chunksRemoved: 1 });
    expect((await search(index, 'billing webhook', { mode: 'hybrid' })).hits.filter((h) => h.path === 'memory/2026-03-16.md')).toEqual([]);
    expect(index.db.prepare('SELECT count(*) AS n FROM chunk_vec').get()).toEqual(
      index.db.prepare('SELECT count(*) AS n FROM chunks').get(),
    );
  });

  it('refuses to update while the memory folder is gone, rather than drop every file (to embed them all again later)', async () => {
    const ws = tree();
    const index = indexOf(ws, { embedder: wink });
    const built = await updateIndex(index);
    renameSync(ws.memoryDir, `${ws.memoryDir}.away`);
    await expect(updateIndex(index)).rejects.toThrow(MemoryDirMissing);
    // A resident process names the files its watcher saw go: the same.
    await expect(updateIndex(index, { memoryFiles: ['2026-03-15.md', 'ROOT.md'] })).rejects.toThrow(MemoryDirMissing);
    expect(index.db.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: built.files });
    renameSync(`${ws.memoryDir}.away`, ws.memoryDir);
    expect(await updateIndex(index)).toMatchObject({ removed: 0, embedded: 0 });
  });

  it('follows a renamed file without embedding it again', async () => {
    const ws = tree();
    const embedder = counting(wink);
    const index = indexOf(ws, { embedder });
    await updateIndex(index);
    embedder.texts.length = 0;
    renameSync(join(ws.root, 'knowledge', 'auth.md'), join(ws.root, 'knowledge', 'sessions.md'));
    const r = await updateIndex(index);
    expect(r).toMatchObject({ added: 1, removed: 1, chunksAdded: 1, chunksRemoved: 1, embedded: 1, pendingEmbeddings: 0 });
    expect(embedder.texts).toEqual([]);
    const res = await search(index, 'where do sessions live', { mode: 'vector', filters: { levels: ['other'] } });
    expect(res.hits.map((h) => h.path)).toContain('knowledge/sessions.md');
    expect(res.hits.map((h) => h.path)).not.toContain('knowledge/auth.md');
  });

  it('embeds everything again when the embedder changes, instead of mixing vectors', async () => {
    const ws = tree();
    const index = indexOf(ws, { embedder: wink });
    const first = await updateIndex(index);
    index.close();
    const other = { ...counting(wink), id: 'another-model' };
    const again = indexOf(ws, { embedder: other });
    const r = await updateIndex(again);
    expect(r.warnings).toEqual(['embedder changed to another-model: every chunk is embedded again']);
    expect(r.embedded).toBe(first.chunksAdded);
    expect(other.texts.length).toBeGreaterThanOrEqual(first.chunksAdded);
    expect(again.db.prepare("SELECT value FROM meta WHERE key = 'embedder_id'").get()).toEqual({ value: 'another-model' });
  });

  it('gives the same results after a rebuild', async () => {
    const ws = tree();
    const index = indexOf(ws, { embedder: wink });
    await updateIndex(index);
    const queries = ['redis sessions', 'what did I plant', 'billing', 'pnpm'];
    const before = await Promise.all(queries.map((q) => search(index, q, { mode: 'hybrid' })));
    await updateIndex(index, { rebuild: true });
    const after = await Promise.all(queries.map((q) => search(index, q, { mode: 'hybrid' })));
    const strip = (rs: typeof before) =>
      rs.map((r) => r.hits.map(({ path, lines, score, scores, snippet, sources }) => ({ path, lines, score, scores, snippet, sources })));
    expect(strip(after)).toEqual(strip(before));
    expect(before.every((r) => r.hits.length > 0)).toBe(true);
  });
});

describe('where the index is made', () => {
  it('makes its .hipo/ folder, but never the workspace folder, gone or moved away', () => {
    const ws = tree();
    const index = indexOf(ws, { embedder: null });
    expect(existsSync(indexFile(ws))).toBe(true);
    index.close();
    // The workspace removed (or moved) under a compaction that goes on to index it: nothing
    // is made where it was.
    rmSync(ws.root, { recursive: true, force: true });
    expect(() => indexOf(ws, { embedder: null })).toThrow(/ENOENT/);
    expect(existsSync(ws.root)).toBe(false);
  });
});

describe('a damaged or foreign index file', () => {
  it('is rebuilt, with a warning', async () => {
    const ws = tree();
    ws.write('.hipo/index.db', 'this is not a database, just garbage bytes '.repeat(200));
    const index = indexOf(ws, { embedder: null });
    expect(index.warnings).toHaveLength(1);
    expect(index.warnings[0]).toMatch(/index\.db: rebuilding the search index because it is damaged/);
    await updateIndex(index);
    expect((await search(index, 'tomato', { mode: 'bm25' })).hits[0]?.path).toBe('memory/2026-03-15.md');
  });

  it('replaces a SQLite file that is not a hipo index', async () => {
    const ws = tree();
    ws.write('.hipo/placeholder', '');
    const other = new Database(join(ws.stateDir, 'index.db'));
    other.exec('CREATE TABLE notes (x TEXT)');
    other.close();
    const index = indexOf(ws, { embedder: null });
    expect(index.warnings[0]).toMatch(/because it is not a hipo index/);
    await updateIndex(index);
    expect((await search(index, 'redis', { mode: 'bm25' })).hits.length).toBeGreaterThan(0);
  });
});

describe('an index from an earlier hipo', () => {
  /**
   * Makes the workspace's index look as schema `version` left it (2: no topic index on links; 3:
   * one without days; 4: no note of what the links wait for).
   */
  const asVersion = (file: string, version: number): void => {
    const db = new Database(file);
    db.exec('DROP TABLE links_due');
    if (version < 4) db.exec('DROP INDEX IF EXISTS chunk_links_topic_day');
    if (version === 3) db.exec('CREATE INDEX chunk_links_topic ON chunk_links (topic, kind)');
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
    db.close();
  };
  const indexes = (file: string): string[] => {
    const db = new Database(file, { readonly: true });
    const names = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'chunk_links'").all() as { name: string }[]
    ).map((r) => r.name);
    db.close();
    return names.sort();
  };

  it.each([2, 3])('from schema %i is brought forward in place: nothing rebuilt, the topic index by day added', async (version) => {
    const ws = tree();
    const first = indexOf(ws, { embedder: null });
    await updateIndex(first);
    const chunks = (first.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    first.close();
    asVersion(indexFile(ws), version);
    expect(indexes(indexFile(ws))).not.toContain('chunk_links_topic_day');

    const index = indexOf(ws, { embedder: null });
    expect(index.warnings).toEqual([]);
    expect(index.created).toBe(false);
    expect((index.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n).toBe(chunks);
    expect((index.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string }).value).toBe('7');
    expect((await updateIndex(index)).added).toBe(0);
    index.close();
    expect(indexes(indexFile(ws))).toContain('chunk_links_topic_day');
    expect(indexes(indexFile(ws))).not.toContain('chunk_links_topic');
  });

  it('from schema 4 gets its summaries linked again, once: a build killed before their links is finished', async () => {
    const ws = tree();
    const first = indexOf(ws, { embedder: null });
    await updateIndex(first);
    const links = (db: Database.Database): unknown[] =>
      db.prepare('SELECT chunk_id, line_offset, day, topic, kind, source_id FROM chunk_links ORDER BY rowid').all();
    const clean = links(first.db);
    expect(clean.length).toBeGreaterThan(0);
    // What schema 4 left when killed after the files were written: stamped, never linked.
    first.db.exec('DELETE FROM chunk_links');
    first.close();
    asVersion(indexFile(ws), 4);

    const index = indexOf(ws, { embedder: null });
    expect(index.warnings).toEqual([]);
    expect(index.created).toBe(false);
    // Every file is read again for its folded full-text rows (schema 6), no chunk is new.
    expect(await updateIndex(index)).toMatchObject({ changed: 8, chunksAdded: 0 });
    expect(links(index.db)).toEqual(clean);
    expect(index.db.prepare('SELECT count(*) AS n FROM links_due').get()).toEqual({ n: 0 });
  });

  it('from schema 6 links ROOT again, once: its profile lines fold into the sections they quote', async () => {
    const profile = '## Profile\n### Deploys\n- shipped the billing webhook retry ([03-16](daily/2026-03-16.md))\n';
    const ws = tree({ 'memory/ROOT.md': `# ROOT\n\n${profile}\n## Active Context\n- auth refactor\n` });
    const first = indexOf(ws, { embedder: null });
    await updateIndex(first);
    const rootLinks = (db: Database.Database): unknown[] =>
      db
        .prepare(
          `SELECT l.line_offset, l.day, l.source_id FROM chunk_links l JOIN chunks c ON c.id = l.chunk_id
           JOIN files f ON f.id = c.file_id WHERE f.level = 'root' AND l.kind = 0`,
        )
        .all();
    const clean = rootLinks(first.db);
    expect(clean).toContainEqual(expect.objectContaining({ day: '2026-03-16' }));
    // What schema 6 made of the same ROOT: its profile line linked to nothing.
    first.db.exec(
      "DELETE FROM chunk_links WHERE chunk_id IN (SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.level = 'root')",
    );
    first.db.prepare("UPDATE meta SET value = '6' WHERE key = 'schema_version'").run();
    first.close();

    const index = indexOf(ws, { embedder: null });
    expect(index).toMatchObject({ warnings: [], created: false });
    expect(await updateIndex(index)).toMatchObject({ changed: 0, chunksAdded: 0 });
    expect(rootLinks(index.db)).toEqual(clean);
    expect(index.db.prepare('SELECT count(*) AS n FROM links_due').get()).toEqual({ n: 0 });
    index.close();
  });

  /** A tree indexed as schema 5 left it: one row's text unfolded (the others do not differ). */
  const atSchema5 = async () => {
    const ws = tree({ 'memory/2026-03-17.md': '# 2026-03-17\n\n## Trip [project]\n- booked a room on the Hauptstraße\n' });
    const embedder = counting(new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] }));
    const first = indexOf(ws, { embedder });
    await updateIndex(first);
    const clean = rows(first.db);
    const id = (first.db.prepare("SELECT id FROM chunks WHERE text LIKE '%Hauptstraße%'").get() as { id: number }).id;
    first.db.prepare('DELETE FROM chunks_fts WHERE rowid = ?').run(id);
    first.db
      .prepare("INSERT INTO chunks_fts (rowid, heading, body, facts, cjk) VALUES (?, 'Trip', 'a room on the Hauptstraße', '', '')")
      .run(id);
    first.db.prepare("UPDATE meta SET value = '5' WHERE key = 'schema_version'").run();
    expect((await search(first, 'hauptstrasse', { mode: 'bm25' })).hits).toEqual([]);
    first.close();
    return { ws, embedder, clean, embedded: embedder.texts.length };
  };
  const rows = (db: Database.Database): unknown[] => [
    db.prepare('SELECT id, file_id, hash, embedded FROM chunks ORDER BY id').all(),
    db.prepare('SELECT * FROM chunk_links ORDER BY rowid').all(),
  ];

  it('from schema 5 writes its full-text rows again, folded: chunks, vectors and links kept', async () => {
    const { ws, embedder, clean, embedded } = await atSchema5();
    const index = indexOf(ws, { embedder });
    expect(index).toMatchObject({ warnings: [], created: false });
    // The daemon's update of the memory files it saw change (none) still reads every file.
    expect(await updateIndex(index, { memoryFiles: [] })).toMatchObject({ changed: 9, chunksAdded: 0, chunksRemoved: 0, embedded: 0 });
    expect(embedder.texts.length).toBe(embedded);
    expect(rows(index.db)).toEqual(clean);
    expect(index.db.prepare('SELECT count(*) AS n FROM links_due').get()).toEqual({ n: 0 });
    expect((await search(index, 'hauptstrasse', { mode: 'bm25' })).hits[0]?.path).toBe('memory/2026-03-17.md');
    expect((await search(index, 'tomato', { mode: 'bm25' })).hits[0]?.path).toBe('memory/2026-03-15.md');
    expect(await updateIndex(index)).toMatchObject({ changed: 0 });
    index.close();
  });

  it('from schema 5 is brought up to date even by a search that skips the update', async () => {
    const { ws, embedder } = await atSchema5();
    const { config } = loadConfig(ws.root);
    const { result } = await withIndex(ws, config, { update: false, embedder }, (index) => search(index, 'hauptstrasse', { mode: 'bm25' }));
    expect(result.hits[0]?.path).toBe('memory/2026-03-17.md');
  });

  it('with no way forward in place is rebuilt, with a warning', async () => {
    const ws = tree();
    const first = indexOf(ws, { embedder: null });
    await updateIndex(first);
    first.close();
    asVersion(indexFile(ws), 1);
    const index = indexOf(ws, { embedder: null });
    expect(index.warnings).toEqual([
      expect.stringMatching(/rebuilding the search index because it has schema version 1, this hipo uses 7/),
    ]);
    expect(index.created).toBe(true);
    await updateIndex(index);
    expect((await search(index, 'tomato', { mode: 'bm25' })).hits[0]?.path).toBe('memory/2026-03-15.md');
    index.close();
  });
});

describe('what gets listed', () => {
  it('follows links to files inside the folder walked, not out of it nor to folders (a link loop ends), and skips hidden folders', async () => {
    const { symlinkSync } = await import('node:fs');
    const ws = tree({
      'memory/.drafts/secret-plan.md': '# Plan\n\n## Draft\n- not for the index\n',
      'memory/archive/old-notes.md': '# Old\nsome text\n',
    });
    symlinkSync(ws.memoryDir, join(ws.memoryDir, 'loop'));
    symlinkSync(join(ws.memoryDir, 'archive', 'old-notes.md'), join(ws.memoryDir, 'notes-link.md'));
    symlinkSync(join(ws.root, 'knowledge', 'auth.md'), join(ws.memoryDir, 'auth-link.md'));
    const index = indexOf(ws, { embedder: null });
    const r = await updateIndex(index);
    const paths = (index.db.prepare('SELECT path FROM files ORDER BY path').all() as { path: string }[]).map((f) => f.path);
    expect(paths).toContain('memory/notes-link.md');
    expect(paths).toContain('knowledge/auth.md');
    expect(paths).not.toContain('memory/auth-link.md');
    expect(r.warnings).toContain('memory/auth-link.md: skipped: a link to outside memory');
    expect(paths.filter((p) => p.includes('loop') || p.includes('.drafts'))).toEqual([]);
    expect(r.files).toBe(10);
  });

  it('names a configured path that does not exist', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': RAW }, { timeZone: 'UTC', search: { include: ['notes'] } });
    const r = await updateIndex(indexOf(ws, { embedder: null }));
    expect(r.warnings).toEqual(['search.include "notes": does not exist']);
  });
});
