// What a search returns about a section: where it is (file, level, period, headings, lines) and,
// for a raw section, where else in the tree the same fact appears — the summary lines that quote
// it or name its topic, most specific level first.
import type { MemoryType } from '../tree/layout.js';
import type { DateRange, IndexLevel } from '../index/files.js';
import { stmt, type IndexDb } from '../index/db.js';
import type { Snippet } from './snippet.js';
import type { SectionKey, Voters } from './sections.js';

export interface SectionRef {
  path: string;
  level: IndexLevel;
  period: DateRange | null;
  heading: string;
  headingPath: string[];
  /** Lines of the shown part (1-based, inclusive). */
  lines: { start: number; end: number };
  score: number;
}

export interface SearchHit extends SectionRef {
  status: string | null;
  type: MemoryType | null;
  /** Per-mode scores: BM25 sum, cosine similarity (null when the list did not have it). */
  scores: { bm25: number | null; vector: number | null };
  snippet: Snippet;
  /** For summary-node hits: the raw sections of its period that match best. */
  sources: SectionRef[];
  /**
   * For raw-section hits: the summary lines that repeat it or name its topic (daily, weekly,
   * monthly, ROOT), their lines only; `score` is the vote each gave.
   */
  alsoIn: SectionRef[];
}

export interface ChunkMeta {
  id: number;
  fileId: number;
  sectionLine: number;
  lineStart: number;
  lineEnd: number;
  headingPath: string[];
  type: MemoryType | null;
  path: string;
  level: IndexLevel;
  period: DateRange | null;
  status: string | null;
}

const META_SQL = `SELECT c.id, c.file_id, c.section_line, c.line_start, c.line_end, c.heading_path, c.type,
  f.path, f.level, f.period_start, f.period_end, f.status
  FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))`;

/** Full metadata of the chunks shown (hits, their sources, where else they appear). */
export function fetchMeta(db: IndexDb, ids: readonly number[], into: Map<number, ChunkMeta>): void {
  const missing = ids.filter((id) => !into.has(id));
  if (missing.length === 0) return;
  for (const r of stmt(db, META_SQL).all(JSON.stringify(missing)) as Record<string, unknown>[]) {
    into.set(r.id as number, {
      id: r.id as number,
      fileId: r.file_id as number,
      sectionLine: r.section_line as number,
      lineStart: r.line_start as number,
      lineEnd: r.line_end as number,
      headingPath: JSON.parse(r.heading_path as string) as string[],
      type: (r.type as MemoryType | null) ?? null,
      path: r.path as string,
      level: r.level as IndexLevel,
      period: r.period_start ? { start: r.period_start, end: r.period_end } as DateRange : null,
      status: (r.status as string | null) ?? null,
    });
  }
}

export function sectionRef(m: ChunkMeta, score: number): SectionRef {
  return {
    path: m.path,
    level: m.level,
    period: m.period,
    heading: m.headingPath[m.headingPath.length - 1] ?? '',
    headingPath: m.headingPath,
    lines: { start: m.lineStart, end: m.lineEnd },
    score,
  };
}

const LEVEL_ORDER: readonly IndexLevel[] = ['raw', 'daily', 'weekly', 'monthly', 'root', 'other'];

/** Where else the section `key` appears: its voters, by level, then by file and line. */
export function alsoInOf(db: IndexDb, voters: Voters, key: SectionKey, meta: Map<number, ChunkMeta>): SectionRef[] {
  const from = voters.get(key);
  if (!from || from.size === 0) return [];
  fetchMeta(db, [...from.keys()], meta);
  const out: SectionRef[] = [];
  for (const [id, v] of from) {
    const m = meta.get(id);
    if (!m || v.lines.length === 0) continue;
    const lines = { start: m.lineStart + v.lines[0]!, end: m.lineStart + v.lines[v.lines.length - 1]! };
    // Overlapping parts of one long summary section quote the same lines: listed once.
    const same = out.find((r) => r.path === m.path && r.lines.start <= lines.end && lines.start <= r.lines.end);
    if (same) {
      same.lines = { start: Math.min(same.lines.start, lines.start), end: Math.max(same.lines.end, lines.end) };
      same.score += v.vote;
      continue;
    }
    out.push({ ...sectionRef(m, v.vote), lines });
  }
  return out.sort((a, b) => LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.lines.start - b.lines.start);
}
