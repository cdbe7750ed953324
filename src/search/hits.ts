// What a search returns about a section: where it is (file, level, period, headings, lines) and,
// for a raw section, where else in the tree the same fact appears — the summary lines that quote
// it or name its topic, most specific level first.
import type { Said } from './said.js';
import type { MemoryType } from '../tree/layout.js';
import type { DateRange } from '../index/files.js';
import type { IndexLevel } from '../index/levels.js';
import { stmt, type IndexDb } from '../index/db.js';
import type { Snippet } from './snippet.js';
import type { SectionKey } from './sections.js';

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
  /** The workspace the hit belongs to: only with `search.store` "postgres". */
  workspace?: string;
  status: string | null;
  type: MemoryType | null;
  /** Per-mode scores: BM25 sum, cosine similarity (null when the list did not have it). */
  scores: { bm25: number | null; vector: number | null };
  snippet: Snippet;
  /** For summary-node hits: the raw sections of its period that match best. */
  sources: SectionRef[];
  /**
   * For raw-section hits: the summary lines that repeat it (daily, weekly, monthly, ROOT), their
   * lines only; `score` is that summary chunk's score in this search (0: it did not match).
   */
  alsoIn: SectionRef[];
  /** What the user said of themselves in the hit's section besides its snippet, when asked for (said.ts). */
  said?: Said[];
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
      period: r.period_start ? ({ start: r.period_start, end: r.period_end } as DateRange) : null,
      status: (r.status as string | null) ?? null,
    });
  }
}

export function sectionRef(
  m: Pick<ChunkMeta, 'path' | 'level' | 'period' | 'headingPath' | 'lineStart' | 'lineEnd'>,
  score: number,
): SectionRef {
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

/** Summary lines that repeat a raw section: summary chunk → their offsets. */
type Quotes = Map<number, number[]>;

/**
 * Where else each of the sections `keys` appears: every summary line the index traces to it
 * (topic lines lead to it without repeating it, and are not listed), one entry per summary
 * chunk, by level, then by file and line. `score` is that chunk's score in this search (0: none).
 */
export function alsoInOf(
  db: IndexDb,
  scored: ReadonlyMap<number, number>,
  keys: readonly SectionKey[],
  meta: Map<number, ChunkMeta>,
): SectionRef[][] {
  const wanted = new Set(keys);
  const files = [...new Set(keys.map((k) => Number(k.split(':')[0])))];
  const chunkSection = new Map<number, SectionKey>();
  for (const [id, file, line] of stmt(
    db,
    'SELECT id, file_id, section_line FROM chunks WHERE file_id IN (SELECT value FROM json_each(?)) AND id > 0',
  )
    .raw()
    .all(JSON.stringify(files)) as [number, number, number][]) {
    const key = `${file}:${line}`;
    if (wanted.has(key)) chunkSection.set(id, key);
  }
  const quotes = new Map<SectionKey, Quotes>();
  const rows = stmt(
    db,
    'SELECT source_id, chunk_id, line_offset FROM chunk_links WHERE kind = 0 AND source_id IN (SELECT value FROM json_each(?))',
  )
    .raw()
    .all(JSON.stringify([...chunkSection.keys()])) as [number, number, number][];
  for (const [raw, id, offset] of rows) {
    const key = chunkSection.get(raw)!;
    const q = quotes.get(key) ?? new Map();
    q.set(id, [...(q.get(id) ?? []), offset]);
    quotes.set(key, q);
  }
  fetchMeta(db, [...new Set(rows.map((r) => r[1]))], meta);
  return keys.map((key) => refsOf(quotes.get(key), scored, meta));
}

function refsOf(quotes: Quotes | undefined, scored: ReadonlyMap<number, number>, meta: Map<number, ChunkMeta>): SectionRef[] {
  if (!quotes) return [];
  const out: SectionRef[] = [];
  for (const [id, offsets] of quotes) {
    const m = meta.get(id);
    if (!m) continue;
    const vote = scored.get(id) ?? 0;
    const lines = { start: m.lineStart + Math.min(...offsets), end: m.lineStart + Math.max(...offsets) };
    // Overlapping parts of one long summary section quote the same lines: listed once.
    const same = out.find((r) => r.path === m.path && r.lines.start <= lines.end && lines.start <= r.lines.end);
    if (same) {
      same.lines = { start: Math.min(same.lines.start, lines.start), end: Math.max(same.lines.end, lines.end) };
      same.score = Math.max(same.score, vote);
      continue;
    }
    out.push({ ...sectionRef(m, vote), lines });
  }
  return out.sort(
    (a, b) =>
      LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.lines.start - b.lines.start,
  );
}
