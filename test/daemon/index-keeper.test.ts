// The daemon's index goes through the same rebuild loop as the commands (index/maintain.ts): a
// file damaged under the index the daemon holds is deleted and rebuilt once, with a warning,
// and the index it keeps open afterwards answers searches; a search waiting for its model holds
// no other search or update.
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultConfig, loadConfig } from '../../src/config/config.js';
import { IndexKeeper } from '../../src/daemon/index-keeper.js';
import { indexFile } from '../../src/index/location.js';
import { completion, startFakeLlm } from '../helpers/llm-server.js';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

/** `work`, or a rejection after `ms`: what was still waiting then says so instead of hanging the test. */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Overwrites every page after the first with garbage: SQLite finds out only when it reads one. */
function damagePages(file: string): void {
  const size = statSync(file).size;
  const fd = openSync(file, 'r+');
  try {
    const junk = Buffer.alloc(size - 4096, 0xa5);
    writeSync(fd, junk, 0, junk.length, 4096);
  } finally {
    closeSync(fd);
  }
}

describe('the daemon index keeper', () => {
  it('rebuilds a file damaged under the index it holds, with a warning, and keeps answering', async () => {
    const ws = makeWorkspace();
    ws.write('memory/2026-06-01.md', rawLog('2026-06-01', { 'kiln firing [project]': ['loaded the kiln with celadon bowls'] }));
    const warnings: string[] = [];
    const keeper = new IndexKeeper(ws, defaultConfig());
    expect((await keeper.update((w) => warnings.push(w))).added).toBe(1);
    expect(warnings).toEqual([]);
    // The keeper holds the index open; the file is damaged under it (a disk fault, a bad copy).
    const held = (keeper as unknown as { index: { db: { pragma(s: string): unknown } } }).index;
    // Everything into the main file, and the connection's page cache dropped, so that the next
    // read goes to the damaged pages.
    held.db.pragma('wal_checkpoint(TRUNCATE)');
    held.db.pragma('shrink_memory');
    damagePages(indexFile(ws));
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'glaze test [project]': ['tried a tenmoku glaze'] }));
    const report = await keeper.update((w) => warnings.push(w));
    expect(warnings).toEqual([expect.stringMatching(/index\.db: rebuilding the search index because it is damaged/)]);
    // Rebuilt from the tree: both days, from scratch.
    expect(report.added).toBe(2);
    const found = await keeper.search({ query: 'tenmoku', mode: 'bm25', update: true }, (w) => warnings.push(w));
    expect(found.hits.map((h) => h.path)).toEqual(['memory/2026-06-02.md']);
    keeper.close();
  });

  it("keeps only daemon.indexCacheMB of the index's pages in memory", async () => {
    // SQLite's page cache (16 MB per connection as built) was the largest part of what a
    // resident daemon's footprint grows by after its first changes on a long history.
    const ws = makeWorkspace();
    ws.write('memory/2026-06-01.md', rawLog('2026-06-01', { 'kiln firing [project]': ['loaded the kiln with celadon bowls'] }));
    const config = defaultConfig();
    config.daemon.indexCacheMB = 3;
    const keeper = new IndexKeeper(ws, config);
    const cacheSize = (): unknown =>
      (keeper as unknown as { index: { db: { pragma(s: string, o: object): unknown } } }).index.db.pragma('cache_size', { simple: true });
    await keeper.update(() => undefined);
    expect(cacheSize()).toBe(-3072);
    keeper.close();
    // The default, on an index opened for a search.
    const byDefault = new IndexKeeper(ws, defaultConfig());
    await byDefault.search({ query: 'celadon', mode: 'bm25', update: false }, () => undefined);
    expect(
      (byDefault as unknown as { index: { db: { pragma(s: string, o: object): unknown } } }).index.db.pragma('cache_size', {
        simple: true,
      }),
    ).toBe(-2048);
    byDefault.close();
  });

  it("updates and answers other searches while a search's query expansion waits for the model", async () => {
    // The model answers only when the test says; the request's arrival is the server's own signal.
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const llm = await startFakeLlm(async () => {
      arrived();
      await held;
      return completion('lex: tenmoku glaze');
    });
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': rawLog('2026-06-01', { 'kiln firing [project]': ['loaded the kiln with celadon bowls'] }) },
      // A limit far beyond the test's: the expansion ends only when the model answers.
      { timeZone: 'UTC', llm: { baseUrl: llm.url, model: 'test-model' }, search: { expand: { timeoutMs: 600_000 } } },
    );
    const warnings: string[] = [];
    const warn = (w: string): number => warnings.push(w);
    const keeper = new IndexKeeper(ws, loadConfig(ws.root).config);
    await keeper.update(warn);
    let expandedDone = false;
    const expanded = keeper.search({ query: 'kiln', mode: 'bm25', expand: true, update: false }, warn).finally(() => {
      expandedDone = true;
    });
    await asked;
    // Meanwhile the daemon takes a change in, and another search reads it.
    ws.write('memory/2026-06-02.md', rawLog('2026-06-02', { 'glaze test [project]': ['tried a tenmoku glaze'] }));
    expect((await within(keeper.update(warn), 15_000, 'the update')).added).toBe(1);
    const plain = await within(keeper.search({ query: 'tenmoku', mode: 'bm25', update: false }, warn), 15_000, 'the plain search');
    expect(plain.hits.map((h) => h.path)).toEqual(['memory/2026-06-02.md']);
    expect(plain.expansion).toBeNull();
    expect(expandedDone).toBe(false);
    // The model answers: the expanded search reads the index as it is now, with the model's query.
    answer();
    const x = await expanded;
    expect(x.expansion).toEqual({ model: 'test-model', cached: false });
    expect(x.hits.map((h) => h.path).sort()).toEqual(['memory/2026-06-01.md', 'memory/2026-06-02.md']);
    expect(llm.requests).toHaveLength(1);
    expect(warnings).toEqual([]);
    keeper.close();
  });
});
