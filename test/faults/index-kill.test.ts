// An index build killed part-way (kill -9, a power cut) is finished by the next update: after a
// normal re-run the index holds exactly what an uninterrupted build does, the summaries' links
// to their raw sections included, so search ranks as it would have. The build is a real process
// killed inside a transaction (index-kill-driver.mjs): while files are written, while they are
// embedded, and while the summaries are linked.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/cycle/compaction.js';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import { indexFile } from '../../src/index/search-index.js';
import { search } from '../../src/search/search.js';
import { indexOf } from '../helpers/search.js';
import { configOf, makeWorkspace, REPO, runCli, type TestWorkspace } from '../helpers/workspace.js';

const DRIVER = join(import.meta.dirname, 'index-kill-driver.mjs');
const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });
const QUERIES = ['why did we move search to postgres', 'invoice export CSV', 'what broke in the webhooks incident', 'dentist appointment'];

interface Snapshot {
  files: unknown[];
  chunks: { id: number }[];
  links: unknown[];
  /** Each query's hits, as `path:first line`. */
  ranking: string[][];
}

/** What the index holds (but when each file was read) and what search makes of it. */
async function snapshot(ws: TestWorkspace): Promise<Snapshot> {
  const db = new Database(indexFile(ws), { readonly: true });
  const files = db.prepare('SELECT id, path, level, period_start, status, hash FROM files ORDER BY id').raw().all();
  const chunks = db
    .prepare('SELECT id, file_id, section_line, line_start, line_end, heading_path, hash, embedded FROM chunks ORDER BY id')
    .all() as { id: number }[];
  const links = db.prepare('SELECT chunk_id, line_offset, day, topic, kind, source_id FROM chunk_links ORDER BY rowid').raw().all();
  db.close();
  const index = indexOf(ws, { embedder: wink });
  const ranking: string[][] = [];
  for (const q of QUERIES) ranking.push((await search(index, q, { mode: 'hybrid' })).hits.map((h) => `${h.path}:${h.lines.start}`));
  index.close();
  return { files, chunks, links, ranking };
}

function forget(ws: TestWorkspace): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(indexFile(ws) + suffix, { force: true });
}

/** Builds the index in a process that is SIGKILLed as the `at`-th row of `what` is written. */
function killedAt(ws: TestWorkspace, what: 'chunk' | 'vector' | 'link', at: number): void {
  const p = spawnSync(process.execPath, [DRIVER, ws.root, what, String(at)], { encoding: 'utf8', timeout: 60_000 });
  expect(p.signal, `${p.stdout}${p.stderr}`).toBe('SIGKILL');
}

/** `hipo index`, as a user runs it after the crash. */
function reindex(ws: TestWorkspace): void {
  const r = runCli(['index', '--dir', ws.root]);
  expect(r.code, r.stderr).toBe(0);
}

describe('faults: an index build killed part-way', () => {
  it('is finished by the next `hipo index` to exactly what an uninterrupted build holds', async () => {
    const ws = makeWorkspace({});
    cpSync(join(REPO, 'memory'), ws.memoryDir, { recursive: true });
    await compact(ws, configOf(ws), { catchUp: true, now: '2026-12-15' });
    reindex(ws);
    const clean = await snapshot(ws);
    const raw = clean.chunks.filter((c) => c.id > 0).length;
    const summary = clean.chunks.length - raw;
    expect(raw).toBeGreaterThan(20);
    expect(summary).toBeGreaterThan(20);
    expect(clean.links.length).toBeGreaterThan(100);
    // The first hit is the raw section the summaries fold into.
    expect(clean.ranking[0]![0]).toBe('memory/2026-11-02.md:3');

    const kills: ['chunk' | 'vector' | 'link', number][] = [
      ['chunk', Math.floor(raw / 2)], // among the raw logs
      ['chunk', raw + Math.floor(summary / 2)], // among the summary nodes
      ['vector', Math.floor(clean.chunks.length / 2)], // every file in, not yet linked
      ['link', Math.floor(clean.links.length / 2)], // half the summaries linked
    ];
    for (const [what, at] of kills) {
      forget(ws);
      killedAt(ws, what, at);
      expect((await snapshot(ws)).links.length, `killed at ${what} ${at}`).toBeLessThan(clean.links.length);
      reindex(ws);
      expect(await snapshot(ws), `killed at ${what} ${at}, then indexed again`).toEqual(clean);
    }
  }, 180_000);
});
