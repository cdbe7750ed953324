// Filters on where a hit may come from: levels, a date range (a chunk matches when its file's
// period overlaps it; files without a period never do), and memory types.
import type { LocalDate } from '../time/calendar.js';
import type { MemoryType } from '../tree/layout.js';
import { stmt, type IndexDb } from '../index/db.js';
import type { IndexLevel } from '../index/levels.js';

export interface SearchFilters {
  levels?: readonly IndexLevel[];
  since?: LocalDate;
  until?: LocalDate;
  types?: readonly MemoryType[];
}

export function hasFilters(f: SearchFilters | undefined): boolean {
  return !!f && (!!f.levels?.length || !!f.since || !!f.until || !!f.types?.length);
}

/** SQL conditions on `f` (files) and `c` (chunks), with their parameters. */
function filterSql(f: SearchFilters): { where: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (f.levels?.length) {
    parts.push(`f.level IN (${f.levels.map(() => '?').join(', ')})`);
    params.push(...f.levels);
  }
  if (f.since) {
    parts.push('f.period_end >= ?');
    params.push(f.since);
  }
  if (f.until) {
    parts.push('f.period_start <= ?');
    params.push(f.until);
  }
  if (f.types?.length) {
    parts.push(`c.type IN (${f.types.map(() => '?').join(', ')})`);
    params.push(...f.types);
  }
  return { where: parts.length ? parts.join(' AND ') : '1', params };
}

/** The ids of every chunk the filters allow. */
export function allowedChunks(db: IndexDb, f: SearchFilters): Set<number> {
  const { where, params } = filterSql(f);
  const rows = stmt(db, `SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE ${where}`)
    .raw()
    .all(...params) as [number][];
  return new Set(rows.map((r) => r[0]));
}

/** The same filters as metadata conditions of the vector table (`v`). */
export function vectorFilterSql(f: SearchFilters): { where: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (f.levels?.length) {
    parts.push(`level IN (${f.levels.map(() => '?').join(', ')})`);
    params.push(...f.levels);
  }
  // Chunks without a period store '' in the vector table; a date filter leaves them out.
  if (f.since) {
    parts.push("period_end != '' AND period_end >= ?");
    params.push(f.since);
  }
  if (f.until) {
    parts.push("period_start != '' AND period_start <= ?");
    params.push(f.until);
  }
  if (f.types?.length) {
    parts.push(`type IN (${f.types.map(() => '?').join(', ')})`);
    params.push(...f.types);
  }
  return { where: parts.join(' AND '), params };
}
