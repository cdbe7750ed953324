// Keeping the index usable, for the commands and the daemon alike: open it, bring it up to
// date, and when the file turns out to be damaged part-way (SQLite reports corruption on a page
// only when it reads it), delete it, rebuild it and try once more. The index is a cache, so
// this loses nothing.
import { existsSync, rmSync } from 'node:fs';
import type { HipoConfig } from '../config/config.js';
import type { Workspace } from '../tree/layout.js';
import { hasFtsDue, isCorruption } from './db.js';
import { indexFile, openIndex, type OpenOptions, type SearchIndex } from './search-index.js';
import { updateIndex, type UpdateOptions, type UpdateReport } from './update.js';

export interface IndexSession<T> {
  result: T;
  report: UpdateReport | null;
  warnings: string[];
}

/**
 * The one way an index is opened and kept usable: runs `step` on `held` (an index the caller
 * keeps open) or on one opened now; when the file turns out damaged, closes it, deletes it and
 * runs `step` once more on a new one, with a warning. On any failure the index is closed; on
 * success it is returned open, for the caller to keep or close.
 */
export async function withRebuild<T>(
  ws: Workspace,
  config: HipoConfig,
  opts: OpenOptions,
  held: SearchIndex | null,
  warn: (message: string) => void,
  step: (index: SearchIndex) => Promise<T>,
): Promise<{ index: SearchIndex; result: T }> {
  for (let attempt = 0; ; attempt++) {
    let index = held;
    try {
      if (!index) {
        index = openIndex(ws, config, opts);
        for (const w of index.warnings) warn(w);
        if (index.embedderProblem) warn(index.embedderProblem);
      }
      return { index, result: await step(index) };
    } catch (err) {
      index?.close();
      held = null;
      if (attempt > 0 || !isCorruption(err)) throw err;
      warn(`${indexFile(ws)}: rebuilding the search index because it is damaged (${(err as Error).message})`);
      for (const suffix of ['', '-wal', '-shm']) rmSync(indexFile(ws) + suffix, { force: true });
    }
  }
}

/**
 * Opens the index, updates it (unless `update` is false) and runs `use` on it, closing it after.
 * A corrupt file found on the way is rebuilt once, with a warning.
 */
export async function withIndex<T>(
  ws: Workspace,
  config: HipoConfig,
  opts: { update: boolean } & UpdateOptions & OpenOptions,
  use: (index: SearchIndex) => Promise<T>,
): Promise<IndexSession<T>> {
  const warnings: string[] = [];
  const { index, result } = await withRebuild(
    ws,
    config,
    opts,
    null,
    (w) => warnings.push(w),
    async (index) => {
      // Even when asked not to: an index just brought forward has no full-text rows to search.
      const report = opts.update || index.created || hasFtsDue(index.db) ? await updateIndex(index, opts) : null;
      if (report) warnings.push(...report.warnings);
      return { report, result: await use(index) };
    },
  );
  index.close();
  return { ...result, warnings };
}

/**
 * After a compaction cycle wrote nodes: bring an existing index up to date (or build one when
 * `search.autoIndex` is set or the caller asks with `create`). Never throws: a failure here is
 * a warning, the compaction stands.
 */
export async function keepIndexCurrent(
  ws: Workspace,
  config: HipoConfig,
  opts: OpenOptions & Pick<UpdateOptions, 'onProgress'> & { create?: boolean } = {},
): Promise<{ report: UpdateReport | null; warnings: string[] }> {
  if (!existsSync(indexFile(ws)) && !config.search.autoIndex && !opts.create) return { report: null, warnings: [] };
  try {
    const s = await withIndex(ws, config, { update: true, ...opts }, async () => undefined);
    return { report: s.report, warnings: s.warnings };
  } catch (err) {
    return { report: null, warnings: [`search index not updated: ${(err as Error).message}`] };
  }
}
