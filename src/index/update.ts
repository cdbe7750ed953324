// Bringing the index up to date with the files, incrementally:
//   - a file whose size and mtime match what was indexed is skipped without being read;
//   - a file that was read but hashes the same only gets its new stamp;
//   - a changed file is chunked again, and only chunks whose content hash is new are tokenized
//     and embedded (moved chunks just get their new line numbers);
//   - a new chunk with the same content as an embedded one (a renamed file) copies its vector;
//   - files that are gone leave the index.
// Each file is one transaction, so readers (a daemon's searches, another process) always see a
// whole file, and an interrupted update loses nothing but time. The summaries' links to raw
// sections are made last, from the whole index; what they wait for is noted in the file's
// transaction (links_due), so an update stopped before them leaves them to the next one.
import { fmString } from '../tree/frontmatter.js';
import { cappedNote, readCapped, type CappedRead } from '../tree/capped.js';
import { decodeText } from '../tree/text.js';
import { chunkDocument, chunkOptions, type ChunkDraft } from './chunk.js';
import { cjkIndexText } from './cjk.js';
import { clearIndex, FTS_DUE, stmt, type IndexDb } from './db.js';
import { EmbedderError, type Embedder } from './embed/embedder.js';
import { listIndexableFiles, type FileStamp, type IndexableFile } from './files.js';
import { linkSummaries, linksDue, SUMMARY_LEVELS } from './link-update.js';
import { redactKeepingLines } from '../redact/lines.js';
import { markRedactionDue, purgeDeleted, REDACTION_DUE } from './reredact.js';
import { searchFold } from '../text/search-fold.js';
import type { SearchIndex } from './search-index.js';
import { pushIndex, type PushReport } from './pg/push.js';
import { PgStoreError, safeUrl, type PgLink } from './pg/store.js';
import { deleteVector, insertVector, prepareVectorTable, readVector, storedEmbedder } from './vectors.js';

export interface UpdateProgress {
  phase: 'files' | 'embed';
  done: number;
  total: number;
}

export interface UpdateOptions {
  /** Empty the index first and index everything again. */
  rebuild?: boolean;
  /**
   * Memory-relative paths of the only memory files that may have changed since the last update
   * (a daemon knows them from its watcher and its own writes): the memory folder is not walked.
   * Ignored when the index is empty (new or rebuilt).
   */
  memoryFiles?: Iterable<string>;
  /** Skip embedding (the chunks stay waiting for the next update). */
  skipEmbedding?: boolean;
  onProgress?: (p: UpdateProgress) => void;
}

interface StoreReport extends Partial<PushReport> {
  /** The server, without its password, and this workspace's name in it. */
  url: string | null;
  workspace: string | null;
  /** Why the store was not brought up to date (the local index was). */
  error: string | null;
}

export interface UpdateReport {
  /** Files looked at: all the index covers, or those an update limited to `memoryFiles` listed. */
  files: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  chunksAdded: number;
  chunksRemoved: number;
  chunksKept: number;
  /** Chunks that got a vector in this update (computed or copied from an identical chunk). */
  embedded: number;
  /** Chunks still without a vector (embedder missing or failing). */
  pendingEmbeddings: number;
  /** Secrets replaced before indexing. */
  redacted: number;
  /** What was pushed to the shared store (`search.store` "postgres"); null without one. */
  store: StoreReport | null;
  warnings: string[];
  ms: number;
}

/**
 * A stamp is trusted when the file's mtime is older than the moment it was read: any later
 * write moves the mtime past it. With whole-second mtimes a write within the same second would
 * not, so there the margin is two seconds (the same rule as the tree's stamp cache).
 */
function stampTrusted(st: FileStamp, row: FileRow): boolean {
  if (row.size !== st.size || row.mtime_ms !== st.mtimeMs) return false;
  const margin = Number.isInteger(st.mtimeMs / 1000) ? 2000 : 0;
  return st.mtimeMs < row.indexed_at - margin;
}

interface FileRow {
  id: number;
  path: string;
  size: number;
  mtime_ms: number;
  hash: string;
  indexed_at: number;
}

/** Past this many, a resident process reloads its vectors rather than patch them. */
const MAX_VECTOR_CHANGES = 20_000;

/** Where an update says which stored vectors it changed (SearchIndex.vectorChanges). */
interface VectorChanges {
  note(chunkId: number): void;
  all(): void;
}

function vectorChangesOf(index: SearchIndex): VectorChanges {
  return {
    note: (id) => {
      if (index.vectorChanges === 'all') return;
      index.vectorChanges.add(id);
      if (index.vectorChanges.size > MAX_VECTOR_CHANGES) index.vectorChanges = 'all';
    },
    all: () => {
      index.vectorChanges = 'all';
    },
  };
}

export async function updateIndex(index: SearchIndex, opts: UpdateOptions = {}): Promise<UpdateReport> {
  const t0 = performance.now();
  const { db } = index;
  const report: UpdateReport = {
    files: 0,
    added: 0,
    changed: 0,
    removed: 0,
    unchanged: 0,
    chunksAdded: 0,
    chunksRemoved: 0,
    chunksKept: 0,
    embedded: 0,
    pendingEmbeddings: 0,
    redacted: 0,
    store: null,
    warnings: [],
    ms: 0,
  };
  const vectors = vectorChangesOf(index);
  if (opts.rebuild) {
    clearIndex(db);
    vectors.all();
  }
  // Once after the redaction rules changed: files whose chunks they would redact further are read again.
  markRedactionDue(db, index.redactor);
  const rows = new Map(
    (stmt(db, 'SELECT id, path, size, mtime_ms, hash, indexed_at FROM files').all() as FileRow[]).map((r) => [r.path, r]),
  );
  // Only some memory files: the rest of the memory folder is as the index has it (outside it,
  // everything is listed). An empty index has nothing to keep, and one whose files wait for their
  // full-text rows (FTS_DUE) or for the redaction rules in force (REDACTION_DUE) must read them
  // all: either lists every file.
  const redactionDue = [...rows.values()].some((r) => r.hash === REDACTION_DUE);
  const fullList = rows.size === 0 || redactionDue || [...rows.values()].some((r) => r.hash === FTS_DUE);
  const only = opts.memoryFiles && !fullList && index.ws.memoryName !== '.' ? [...opts.memoryFiles] : null;
  const listing = listIndexableFiles(index.ws, index.settings.include, only ?? undefined);
  const inMemory = `${index.ws.memoryName}/`;
  const given = new Set((only ?? []).map((rel) => inMemory + rel));
  const inScope = (path: string): boolean => !only || given.has(path) || !path.startsWith(inMemory);
  report.warnings.push(...listing.problems);
  report.files = listing.files.length;

  let done = 0;
  const total = listing.files.length;
  const progress = (): void => opts.onProgress?.({ phase: 'files', done, total });
  for (const f of listing.files) {
    done++;
    const row = rows.get(f.path);
    const st = f.stats;
    if (row && stampTrusted(st, row)) {
      report.unchanged++;
      if (done % 256 === 0) progress();
      continue;
    }
    const readAt = Date.now();
    let read: CappedRead;
    try {
      read = readCapped(f.abs, index.settings.maxFileBytes);
    } catch (err) {
      report.warnings.push(`${f.path}: skipped: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      continue;
    }
    if (read.truncated) report.warnings.push(`${f.path}: ${cappedNote(read, index.settings.maxFileBytes)}`);
    const { bytes, hash } = read;
    if (row && row.hash === hash) {
      stmt(db, 'UPDATE files SET size = ?, mtime_ms = ?, indexed_at = ? WHERE id = ?').run(st.size, st.mtimeMs, readAt, row.id);
      report.unchanged++;
      progress();
      continue;
    }
    const decoded = decodeText(bytes);
    if (!decoded.ok) {
      report.warnings.push(`${f.path}: not indexed: ${decoded.reason}`);
      if (row) removeFile(db, row.id, vectors);
      continue;
    }
    if (decoded.note) report.warnings.push(`${f.path}: ${decoded.note}`);
    const { text, redacted } = redactKeepingLines(index.redactor, decoded.text);
    report.redacted += redacted;
    const doc = chunkDocument(text, { ...chunkOptions(index.settings.chunkChars), factChunks: index.settings.factChunks });
    const rawStatus = SUMMARY_LEVELS.has(f.level) ? fmString(doc.frontmatter, 'status') : null;
    const status = rawStatus === 'tentative' || rawStatus === 'fixed' ? rawStatus : null;
    const r = writeFile(db, f, { size: st.size, mtimeMs: st.mtimeMs, readAt, hash, status }, doc.chunks, vectors);
    if (row) report.changed++;
    else report.added++;
    report.chunksAdded += r.added;
    report.chunksRemoved += r.removed;
    report.chunksKept += r.kept;
    progress();
  }
  progress();

  if (index.embedder && !opts.skipEmbedding) await embedPending(db, index.embedder, report, vectors, opts.onProgress);

  // Files that are gone leave last, so a renamed file's chunks could copy their vectors first.
  const listed = new Set(listing.files.map((f) => f.path));
  for (const [path, row] of rows) {
    if (listed.has(path) || !inScope(path)) continue;
    report.chunksRemoved += removeFile(db, row.id, vectors);
    report.removed++;
  }
  const purge = redactionDue ? purgeDeleted(db) : null;
  if (purge) report.warnings.push(purge);
  if (linkSummaries(db) > 0) index.generation++;
  report.pendingEmbeddings = (stmt(db, 'SELECT count(*) AS n FROM chunks WHERE embedded = 0').get() as { n: number }).n;
  if (report.added || report.changed || report.removed || report.embedded) index.generation++;
  if (index.pg) report.store = await pushToStore(index.pg, db, !!opts.rebuild, report.warnings);
  report.ms = Math.round(performance.now() - t0);
  return report;
}

interface FileFacts {
  size: number;
  mtimeMs: number;
  readAt: number;
  hash: string;
  status: string | null;
}

function headingText(path: readonly string[]): string {
  return path.join(' / ');
}

/** A chunk's full-text row: what FTS5 tokenizes is folded (searchFold), the stored text is not. */
function writeFtsRow(db: IndexDb, id: number, c: ChunkDraft): void {
  const heading = searchFold(headingText(c.headingPath));
  const body = searchFold(c.text);
  stmt(db, 'INSERT INTO chunks_fts (rowid, heading, body, facts, cjk) VALUES (?, ?, ?, ?, ?)').run(
    id,
    heading,
    body,
    searchFold(c.facts),
    cjkIndexText(`${heading}\n${body}`),
  );
}

/**
 * Replaces one file's chunks in a single transaction; chunks whose hash survives are kept (and
 * given their full-text row again when the file's hash is FTS_DUE).
 */
function writeFile(
  db: IndexDb,
  f: IndexableFile,
  facts: FileFacts,
  drafts: ChunkDraft[],
  vectors: VectorChanges,
): { added: number; removed: number; kept: number } {
  return db
    .transaction(() => {
      // Read the stored state inside the transaction: another process may have indexed it meanwhile.
      const existing = stmt(db, 'SELECT id, hash FROM files WHERE path = ?').get(f.path) as { id: number; hash: string } | undefined;
      const ftsDue = existing?.hash === FTS_DUE;
      let fileId: number;
      if (existing) {
        fileId = existing.id;
        stmt(
          db,
          'UPDATE files SET level = ?, period_start = ?, period_end = ?, status = ?, size = ?, mtime_ms = ?, hash = ?, indexed_at = ? WHERE id = ?',
        ).run(
          f.level,
          f.period?.start ?? null,
          f.period?.end ?? null,
          facts.status,
          facts.size,
          facts.mtimeMs,
          facts.hash,
          facts.readAt,
          fileId,
        );
      } else {
        fileId = Number(
          stmt(
            db,
            'INSERT INTO files (path, level, period_start, period_end, status, size, mtime_ms, hash, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          ).run(
            f.path,
            f.level,
            f.period?.start ?? null,
            f.period?.end ?? null,
            facts.status,
            facts.size,
            facts.mtimeMs,
            facts.hash,
            facts.readAt,
          ).lastInsertRowid,
        );
      }
      const old = new Map<string, number[]>();
      for (const c of stmt(db, 'SELECT id, hash FROM chunks WHERE file_id = ?').all(fileId) as { id: number; hash: string }[]) {
        const ids = old.get(c.hash);
        if (ids) ids.push(c.id);
        else old.set(c.hash, [c.id]);
      }
      const summary = SUMMARY_LEVELS.has(f.level);
      let nextId = summary
        ? Math.min(0, (stmt(db, 'SELECT min(id) AS v FROM chunks').get() as { v: number | null }).v ?? 0) - 1
        : Math.max(0, (stmt(db, 'SELECT max(id) AS v FROM chunks').get() as { v: number | null }).v ?? 0) + 1;
      let added = 0;
      let kept = 0;
      for (const c of drafts) {
        const reuse = old.get(c.hash)?.pop();
        if (reuse !== undefined) {
          stmt(db, 'UPDATE chunks SET section_line = ?, line_start = ?, line_end = ? WHERE id = ?').run(
            c.sectionLine,
            c.line,
            c.endLine,
            reuse,
          );
          if (ftsDue) writeFtsRow(db, reuse, c);
          kept++;
          continue;
        }
        const id = nextId;
        nextId += summary ? -1 : 1;
        stmt(
          db,
          'INSERT INTO chunks (id, file_id, section_line, line_start, line_end, heading_path, type, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        ).run(id, fileId, c.sectionLine, c.line, c.endLine, JSON.stringify(c.headingPath), c.type, c.hash, c.text);
        writeFtsRow(db, id, c);
        added++;
      }
      let removed = 0;
      for (const ids of old.values()) {
        for (const id of ids) {
          deleteChunk(db, id, vectors);
          removed++;
        }
      }
      // A file only waiting for its full-text rows, and as it was, keeps its links.
      if (!(ftsDue && added === 0 && removed === 0)) linksDue(db, { id: fileId, level: f.level, day: f.period?.start ?? null }, 'changed');
      return { added, removed, kept };
    })
    .immediate();
}

function deleteChunk(db: IndexDb, id: number, vectors: VectorChanges): void {
  stmt(db, 'DELETE FROM chunks_fts WHERE rowid = ?').run(id);
  // A summary chunk's links go with it; a raw chunk's lines are looked for again (link-update.ts).
  if (id < 0) stmt(db, 'DELETE FROM chunk_links WHERE chunk_id = ?').run(id);
  else stmt(db, 'UPDATE chunk_links SET source_id = NULL WHERE source_id = ?').run(id);
  const row = stmt(db, 'SELECT embedded FROM chunks WHERE id = ?').get(id) as { embedded: number } | undefined;
  if (row?.embedded === 1) {
    deleteVector(db, id);
    vectors.note(id);
  }
  stmt(db, 'DELETE FROM chunks WHERE id = ?').run(id);
}

/** Removes a file and its chunks; returns how many chunks went. */
function removeFile(db: IndexDb, fileId: number, vectors: VectorChanges): number {
  return db
    .transaction(() => {
      const file = stmt(db, 'SELECT level, period_start FROM files WHERE id = ?').get(fileId) as
        | { level: string; period_start: string | null }
        | undefined;
      if (!file) return 0; // another process removed it meanwhile
      const ids = (stmt(db, 'SELECT id FROM chunks WHERE file_id = ?').all(fileId) as { id: number }[]).map((r) => r.id);
      for (const id of ids) deleteChunk(db, id, vectors);
      stmt(db, 'DELETE FROM files WHERE id = ?').run(fileId);
      linksDue(db, { id: fileId, level: file.level, day: file.period_start }, 'removed');
      return ids.length;
    })
    .immediate();
}

interface PendingChunk {
  id: number;
  hash: string;
  heading_path: string;
  text: string;
  type: string | null;
  level: string;
  period_start: string | null;
  period_end: string | null;
}

/** The text a chunk is embedded from: where it sits (its headings), then what it says. */
function embeddingText(headingPath: readonly string[], text: string): string {
  return `${headingPath.join(' / ')}\n${text}`;
}

async function embedPending(
  db: IndexDb,
  embedder: Embedder,
  report: UpdateReport,
  changes: VectorChanges,
  onProgress?: (p: UpdateProgress) => void,
): Promise<void> {
  const count = (): number => (stmt(db, 'SELECT count(*) AS n FROM chunks WHERE embedded = 0').get() as { n: number }).n;
  const total = count();
  try {
    const stored = storedEmbedder(db);
    if (!stored || stored.id !== embedder.id) {
      if (total === 0 && !stored && (stmt(db, 'SELECT count(*) AS n FROM chunks').get() as { n: number }).n === 0) return;
      // A new embedder: learn its dimensions, then start a fresh vector table.
      const probe = (await embedder.embed(['memory index dimension probe']))[0];
      if (!probe) throw new EmbedderError(`embedder ${embedder.id} returned no vector for a probe text`);
      if (prepareVectorTable(db, embedder.id, probe.length)) {
        report.warnings.push(`embedder changed to ${embedder.id}: every chunk is embedded again`);
        changes.all();
      }
    }
  } catch (err) {
    if (!(err instanceof EmbedderError)) throw err;
    report.warnings.push(`vectors not updated: ${err.message}`);
    return;
  }
  let todo = count();
  let done = 0;
  let dims = storedEmbedder(db)?.dims ?? 0;
  let resized = false;
  const select = stmt(
    db,
    `SELECT c.id, c.hash, c.heading_path, c.text, c.type, f.level, f.period_start, f.period_end
    FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.embedded = 0 AND c.id > ? ORDER BY c.id LIMIT ?`,
  );
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const batch = select.all(after, embedder.batchSize) as PendingChunk[];
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.id;
    // Identical content already embedded elsewhere (a rename, a copied day): copy its vector.
    const twins = new Map<number, Buffer>();
    for (const c of batch) {
      const twin = stmt(db, 'SELECT id FROM chunks WHERE hash = ? AND embedded = 1 AND id != ? LIMIT 1').get(c.hash, c.id) as
        | { id: number }
        | undefined;
      const v = twin === undefined ? null : readVector(db, twin.id);
      if (v) twins.set(c.id, v);
    }
    const fresh = batch.filter((c) => !twins.has(c.id));
    let vectors: (Float32Array | null)[];
    try {
      vectors = fresh.length ? await embedder.embed(fresh.map((c) => embeddingText(JSON.parse(c.heading_path) as string[], c.text))) : [];
    } catch (err) {
      if (!(err instanceof EmbedderError)) throw err;
      report.warnings.push(`${todo - done} chunk(s) not embedded: ${err.message}`);
      return;
    }
    // The same model name with vectors of another size (the server swapped the model behind
    // it): as for another embedder, a fresh vector table and every chunk embedded again. Once:
    // an endpoint whose sizes keep changing leaves the chunks waiting.
    const other = vectors.find((v) => v && v.length !== dims)?.length;
    if (other !== undefined) {
      if (resized) {
        report.warnings.push(`${todo - done} chunk(s) not embedded: ${embedder.id} returned vectors of ${other} and ${dims} dimensions`);
        return;
      }
      resized = true;
      report.warnings.push(
        `embedder ${embedder.id} now returns ${other}-dimensional vectors (the index held ${dims}): every chunk is embedded again`,
      );
      prepareVectorTable(db, embedder.id, other);
      changes.all();
      dims = other;
      todo = count();
      done = 0;
      after = Number.MIN_SAFE_INTEGER;
      continue;
    }
    db.transaction(() => {
      const store = (c: PendingChunk, v: Float32Array | Buffer | null): void => {
        // Another process may have embedded or removed the chunk while this batch was computed.
        const now = stmt(db, 'SELECT embedded FROM chunks WHERE id = ?').get(c.id) as { embedded: number } | undefined;
        if (now?.embedded !== 0) return;
        if (v) {
          insertVector(db, c.id, v, {
            level: c.level,
            periodStart: c.period_start ?? '',
            periodEnd: c.period_end ?? '',
            type: c.type ?? '',
          });
          changes.note(c.id);
        }
        stmt(db, 'UPDATE chunks SET embedded = ? WHERE id = ?').run(v ? 1 : 2, c.id);
        if (v) report.embedded++;
      };
      for (const c of batch) if (twins.has(c.id)) store(c, twins.get(c.id)!);
      fresh.forEach((c, i) => store(c, vectors[i] ?? null));
    }).immediate();
    done += batch.length;
    onProgress?.({ phase: 'embed', done, total: todo });
  }
}

/**
 * Brings the shared store up to date with the local index. Never throws: the local index and the
 * tree stand whatever the server does, and the next update tries again (nothing is lost: the
 * stamps say what the store lacks).
 */
async function pushToStore(link: PgLink, db: IndexDb, rebuild: boolean, warnings: string[]): Promise<StoreReport> {
  const base = { url: link.settings ? safeUrl(link.settings.url) : null, workspace: link.settings?.workspace ?? null };
  try {
    const pushed = await pushIndex(await link.store(), db, { rebuild });
    return { ...base, ...pushed, error: null };
  } catch (err) {
    if (!(err instanceof PgStoreError)) throw err;
    warnings.push(`search store not updated: ${err.message}`);
    return { ...base, error: err.message };
  }
}
