// Keeping the index usable for the commands: open it, bring it up to date, and when the file
// turns out to be damaged part-way (SQLite reports corruption on a page only when it reads it),
// delete it, rebuild it and try once more. The index is a cache, so this loses nothing.
import { existsSync, rmSync } from 'node:fs';
import type { HipoConfig } from '../config/config.js';
import type { Workspace } from '../tree/layout.js';
import { isCorruption } from './db.js';
import { indexFile, openIndex, type OpenOptions, type SearchIndex } from './search-index.js';
import { updateIndex, type UpdateOptions, type UpdateReport } from './update.js';

export interface IndexSession<T> {
  result: T;
  report: UpdateReport | null;
  warnings: string[];
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
  for (let attempt = 0; ; attempt++) {
    let index: SearchIndex | null = null;
    try {
      index = openIndex(ws, config, opts);
      warnings.push(...index.warnings);
      if (index.embedderProblem) warnings.push(index.embedderProblem);
      const report = opts.update || index.created ? await updateIndex(index, opts) : null;
      if (report) warnings.push(...report.warnings);
      const result = await use(index);
      return { result, report, warnings };
    } catch (err) {
      if (attempt > 0 || !isCorruption(err)) throw err;
      warnings.push(`${indexFile(ws)}: rebuilding the search index because it is damaged (${(err as Error).message})`);
      index?.close();
      index = null;
      for (const suffix of ['', '-wal', '-shm']) rmSync(indexFile(ws) + suffix, { force: true });
    } finally {
      index?.close();
    }
  }
}

/**
 * After a compaction cycle wrote nodes: bring an existing index up to date (or build one when
 * `search.autoIndex` is set). Never throws: a failure here is a warning, the compaction stands.
 */
export async function keepIndexCurrent(
  ws: Workspace,
  config: HipoConfig,
  opts: OpenOptions & Pick<UpdateOptions, 'onProgress'> = {},
): Promise<{ report: UpdateReport | null; warnings: string[] }> {
  if (!existsSync(indexFile(ws)) && !config.search.autoIndex) return { report: null, warnings: [] };
  try {
    const s = await withIndex(ws, config, { update: true, ...opts }, async () => undefined);
    return { report: s.report, warnings: s.warnings };
  } catch (err) {
    return { report: null, warnings: [`search index not updated: ${(err as Error).message}`] };
  }
}
