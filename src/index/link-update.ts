// Keeping `chunk_links` current: which raw section each line of a summary node comes from.
// A line is matched against the raw sections of the day it speaks of (links.ts) by the runs of
// words they share; a topic line leads to the sections that lines about the same topic were
// matched to (in the same node, or for ROOT.md in the daily node it points to), else to the
// sections of its day whose heading names the topic. Nothing here depends on a summarizer's
// wording beyond origin labels, dated headings, `name:` prefixes and topic lines.
//
// After an update: every line of a new or changed summary file is linked again; in the other
// summary files only the lines about a raw day that changed are, and the topic lines. What has
// to be linked again is kept in the index (links_due) from the moment a file changes until its
// links are written, so an update stopped in between (killed, a full disk) is finished by the
// next one, as if it had never stopped.
import type { LocalDate } from '../time/calendar.js';
import { addDays } from '../time/calendar.js';
import { parseTopicTag } from '../tree/topic.js';
import { stmt, type IndexDb } from './db.js';
import { claimLines, gramsOf, labelResolver, type LineClaim } from './links.js';

interface LinkScope {
  /** Summary files whose every line is linked again (new or changed). */
  files: ReadonlySet<number>;
  /** Raw days that were added, changed or removed. */
  days: ReadonlySet<string>;
}

export const SUMMARY_LEVELS: ReadonlySet<string> = new Set(['daily', 'weekly', 'monthly', 'root']);

/**
 * Notes what a file's change leaves the links waiting for; called in the transaction that
 * changes the file, so the note stands exactly when the change does.
 */
export function linksDue(db: IndexDb, file: { id: number; level: string; day: string | null }, what: 'changed' | 'removed'): void {
  if (file.level === 'raw') {
    if (file.day) stmt(db, 'INSERT INTO links_due (day) VALUES (?)').run(file.day);
  } else if (SUMMARY_LEVELS.has(file.level)) {
    if (what === 'changed') stmt(db, 'INSERT INTO links_due (file_id) VALUES (?)').run(file.id);
    // A removed summary's links went with its chunks, but ROOT's topic lines lead through the daily nodes' links.
    else if (file.level === 'daily') stmt(db, "INSERT INTO links_due (file_id) SELECT id FROM files WHERE level = 'root'").run();
  }
}

/** What the links wait for, up to the last note read (later ones are another update's). */
function dueScope(db: IndexDb): LinkScope & { last: number } {
  const rows = stmt(db, 'SELECT seq, file_id, day FROM links_due').raw().all() as [number, number | null, string | null][];
  const files = new Set<number>();
  const days = new Set<string>();
  let last = 0;
  for (const [seq, file, day] of rows) {
    if (file !== null) files.add(file);
    if (day !== null) days.add(day);
    last = Math.max(last, seq);
  }
  return { files, days, last };
}

/** A line's shared shingles must reach this count and this share of its own shingles. */
const MIN_HITS = 2;
const MIN_SHARE = 0.3;
/** Sections one topic line leads to, at most. */
const MAX_LEADS = 10;
const LEVEL_ORDER = ['daily', 'weekly', 'monthly', 'root'];

interface SummaryFile {
  id: number;
  level: string;
  start: LocalDate | null;
  end: LocalDate | null;
}

interface ChunkClaims {
  id: number;
  claims: LineClaim[];
}

interface RawChunk {
  id: number;
  section: string;
  /** Topic names of its headings (below the day's title). */
  topics: string[];
}

interface Matched {
  source: number;
  section: string;
}

function periodDays(f: SummaryFile): LocalDate[] {
  if (!f.start || !f.end) return [];
  const out: LocalDate[] = [];
  for (let d = f.start; d <= f.end && out.length < 62; d = addDays(d, 1)) out.push(d);
  return out;
}

function rawChunksOf(db: IndexDb, day: string): (RawChunk & { text: string })[] {
  const rows = stmt(
    db,
    `SELECT c.id, c.file_id, c.section_line, c.heading_path, c.text FROM chunks c JOIN files f ON f.id = c.file_id
    WHERE f.level = 'raw' AND f.period_start = ? ORDER BY c.id`,
  )
    .raw()
    .all(day) as [number, number, number, string, string][];
  return rows.map(([id, file, line, headings, text]) => ({
    id,
    section: `${file}:${line}`,
    topics: (JSON.parse(headings) as string[])
      .slice(1)
      .map((h) => parseTopicTag(h)?.name ?? '')
      .filter(Boolean),
    text,
  }));
}

/** One day's raw chunks and which of them each shingle is found in (-1: several sections). */
class DayIndex {
  readonly chunks: RawChunk[];
  private readonly where = new Map<number, number>();

  constructor(db: IndexDb, day: string) {
    const rows = rawChunksOf(db, day);
    this.chunks = rows.map(({ text: _text, ...c }) => c);
    rows.forEach((c, i) => {
      for (const g of gramsOf(c.text)) {
        const at = this.where.get(g);
        if (at === undefined) this.where.set(g, i);
        else if (at >= 0 && this.chunks[at]!.section !== c.section) this.where.set(g, -1);
      }
    });
  }

  /** The chunk a line was taken from, with how many shingles say so; null when none does. */
  match(grams: Int32Array): { chunk: RawChunk; hits: number } | null {
    if (grams.length === 0) return null;
    const perChunk = new Map<number, number>();
    for (const g of grams) {
      const i = this.where.get(g);
      if (i !== undefined && i >= 0) perChunk.set(i, (perChunk.get(i) ?? 0) + 1);
    }
    const perSection = new Map<string, number>();
    for (const [i, n] of perChunk) perSection.set(this.chunks[i]!.section, (perSection.get(this.chunks[i]!.section) ?? 0) + n);
    let best: string | null = null;
    for (const [s, n] of perSection) if (best === null || n > perSection.get(best)!) best = s;
    if (best === null) return null;
    const hits = perSection.get(best)!;
    if (hits < Math.max(MIN_HITS, Math.ceil(MIN_SHARE * grams.length))) return null;
    let chunk = -1;
    for (const [i, n] of perChunk) if (this.chunks[i]!.section === best && (chunk < 0 || n > perChunk.get(chunk)!)) chunk = i;
    return { chunk: this.chunks[chunk]!, hits };
  }

  /** The first chunk of each section whose headings name `topic`. */
  sectionsAbout(topic: string): RawChunk[] {
    const seen = new Set<string>();
    return this.chunks.filter((c) => c.topics.includes(topic) && !seen.has(c.section) && seen.add(c.section) !== undefined);
  }

  /** The day's only section, when it has exactly one. */
  onlySection(): RawChunk | null {
    const first = this.chunks[0];
    return first && this.chunks.every((c) => c.section === first.section) ? first : null;
  }
}

function summaryFiles(db: IndexDb): SummaryFile[] {
  const rows = stmt(db, "SELECT id, level, period_start, period_end FROM files WHERE level IN ('daily', 'weekly', 'monthly', 'root')")
    .raw()
    .all() as [number, string, string | null, string | null][];
  return rows
    .map(([id, level, start, end]) => ({ id, level, start: start as LocalDate | null, end: end as LocalDate | null }))
    .sort(
      (a, b) => LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level) || (a.start ?? '').localeCompare(b.start ?? '') || a.id - b.id,
    );
}

/**
 * Brings `chunk_links` up to date with what links_due notes, then lets those notes go. Returns
 * the files relinked.
 */
export function linkSummaries(db: IndexDb): number {
  const scope = dueScope(db);
  if (scope.last === 0) return 0;
  const relinked = relink(db, scope);
  // Only now: stopped before, the next update links them again (the same rows, once more).
  stmt(db, 'DELETE FROM links_due WHERE seq <= ?').run(scope.last);
  return relinked;
}

function relink(db: IndexDb, scope: LinkScope): number {
  if (scope.files.size === 0 && scope.days.size === 0) return 0;
  const files = summaryFiles(db);
  const changedDays = [...scope.days];
  const covers = (f: SummaryFile): boolean => !!f.start && !!f.end && changedDays.some((d) => d >= f.start! && d <= f.end!);
  const dailyTouched = files.some((f) => f.level === 'daily' && (scope.files.has(f.id) || covers(f)));
  const rootRefers = (f: SummaryFile): boolean =>
    changedDays.length > 0 &&
    stmt(
      db,
      'SELECT 1 FROM chunk_links l JOIN chunks c ON c.id = l.chunk_id WHERE c.file_id = ? AND l.day IN (SELECT value FROM json_each(?)) LIMIT 1',
    ).get(f.id, JSON.stringify(changedDays)) !== undefined;
  const full = new Set<number>();
  const partial = new Set<number>();
  for (const f of files) {
    if (scope.files.has(f.id) || (f.level === 'root' && dailyTouched)) full.add(f.id);
    else if (covers(f) || (f.level === 'root' && rootRefers(f))) partial.add(f.id);
  }
  const targets = files.filter((f) => full.has(f.id) || partial.has(f.id));
  if (targets.length === 0) return 0;

  const rawDays = stmt(db, "SELECT period_start FROM files WHERE level = 'raw' ORDER BY period_start").raw().all() as [string][];
  const byMonthDay = new Map<string, LocalDate[]>();
  for (const [d] of rawDays) {
    const list = byMonthDay.get(d.slice(5)) ?? [];
    list.push(d as LocalDate);
    byMonthDay.set(d.slice(5), list);
  }

  // Phase 1: every target's claims, and the text lines to match, by day.
  const claimsOf = new Map<number, ChunkClaims[]>();
  const todo = new Map<string, { key: string; grams: Int32Array; topic: string | null }[]>();
  const found = new Map<string, Matched & { hits: number }>();
  for (const f of targets) {
    const period = f.start && f.end ? { start: f.start, end: f.end } : null;
    const ctx = { period, dayOfLabel: labelResolver(period, (md) => byMonthDay.get(md) ?? []) };
    const chunks = (
      stmt(db, 'SELECT id, heading_path, text FROM chunks WHERE file_id = ?').raw().all(f.id) as [number, string, string][]
    ).map(([id, headings, text]) => ({ id, claims: claimLines(text, JSON.parse(headings) as string[], ctx) }));
    claimsOf.set(f.id, chunks);
    const days = periodDays(f);
    for (const c of chunks) {
      for (const cl of c.claims) {
        if (cl.kind !== 'text') continue;
        if (partial.has(f.id) && cl.day && !scope.days.has(cl.day)) continue;
        for (const day of cl.day ? [cl.day] : days) {
          const list = todo.get(day) ?? [];
          list.push({ key: `${c.id}:${cl.offset}`, grams: cl.grams, topic: cl.topic });
          todo.set(day, list);
        }
      }
    }
  }
  for (const [day, lines] of todo) {
    const index = new DayIndex(db, day);
    if (index.chunks.length === 0) continue;
    for (const l of lines) {
      const m = index.match(l.grams);
      const prior = found.get(l.key);
      if (m && (!prior || m.hits > prior.hits)) found.set(l.key, { source: m.chunk.id, section: m.chunk.section, hits: m.hits });
      if (m || prior) continue;
      // No shared words (a paraphrase, a short line): the section of its day about its topic, or the day's only section.
      const fallback = (l.topic ? index.sectionsAbout(l.topic)[0] : undefined) ?? index.onlySection();
      if (fallback) found.set(l.key, { source: fallback.id, section: fallback.section, hits: 0 });
    }
  }

  // Phase 2: topic lines, then the rows, file by file (daily nodes first: ROOT's topic lines follow them).
  const dayHeadings: DayHeadings = new Map();
  for (const f of targets) {
    const chunks = claimsOf.get(f.id)!;
    const existing = new Map<string, (number | null)[]>();
    if (partial.has(f.id)) {
      for (const c of chunks) {
        for (const [off, src, kind] of stmt(db, 'SELECT line_offset, source_id, kind FROM chunk_links WHERE chunk_id = ?')
          .raw()
          .all(c.id) as [number, number | null, number][]) {
          if (kind !== 0) continue;
          const k = `${c.id}:${off}`;
          existing.set(k, [...(existing.get(k) ?? []), src]);
        }
      }
    }
    const sourceOf = (chunk: number, cl: LineClaim): number | null => {
      const key = `${chunk}:${cl.offset}`;
      if (partial.has(f.id) && cl.day && !scope.days.has(cl.day)) return existing.get(key)?.[0] ?? null;
      return found.get(key)?.source ?? null;
    };
    // Sections each topic is about in this node: where its text lines were found.
    const aboutTopic = new Map<string, Map<string, number>>();
    for (const c of chunks) {
      for (const cl of c.claims) {
        if (cl.kind !== 'text' || !cl.topic) continue;
        const src = sourceOf(c.id, cl);
        if (src === null) continue;
        const byDay = `${cl.topic}\u0000${cl.day ?? ''}`;
        for (const key of [cl.topic, byDay]) {
          const m = aboutTopic.get(key) ?? new Map<string, number>();
          if (!m.has(String(src))) m.set(String(src), src);
          aboutTopic.set(key, m);
        }
      }
    }
    const leadsOf = (cl: LineClaim): number[] => {
      const topic = cl.topic!;
      let ids: number[] = [];
      if (f.level === 'root') ids = cl.day ? dailyLeads(db, cl.day, topic) : latestLeads(db, topic);
      else {
        const m = aboutTopic.get(f.level === 'daily' || !cl.day ? topic : `${topic}\u0000${cl.day}`);
        ids = m ? [...m.values()] : [];
      }
      if (ids.length === 0) {
        if (f.level === 'root' && !cl.day) ids = latestHeadingLeads(db, topic);
        for (const day of cl.day ? [cl.day] : periodDays(f)) ids.push(...headingLeads(db, day, topic, dayHeadings));
      }
      return uniqueSections(db, ids).slice(0, MAX_LEADS);
    };
    db.transaction(() => {
      const insert = stmt(db, 'INSERT INTO chunk_links (chunk_id, line_offset, day, topic, kind, source_id) VALUES (?, ?, ?, ?, ?, ?)');
      for (const c of chunks) {
        stmt(db, 'DELETE FROM chunk_links WHERE chunk_id = ?').run(c.id);
        for (const cl of c.claims) {
          if (cl.kind === 'text') {
            insert.run(c.id, cl.offset, cl.day ?? '', cl.topic ?? '', 0, sourceOf(c.id, cl));
            continue;
          }
          const leads = leadsOf(cl);
          if (leads.length === 0) insert.run(c.id, cl.offset, cl.day ?? '', cl.topic ?? '', 1, null);
          for (const src of leads) insert.run(c.id, cl.offset, cl.day ?? '', cl.topic ?? '', 1, src);
        }
      }
    }).immediate();
  }
  return targets.length;
}

/** The raw chunks a daily node's lines about `topic` were found in. */
function dailyLeads(db: IndexDb, day: string, topic: string): number[] {
  const rows = stmt(
    db,
    `SELECT DISTINCT l.source_id FROM chunk_links l JOIN chunks c ON c.id = l.chunk_id JOIN files f ON f.id = c.file_id
    WHERE f.level = 'daily' AND f.period_start = ? AND l.topic = ? AND l.kind = 0 AND l.source_id IS NOT NULL`,
  )
    .raw()
    .all(day, topic) as [number][];
  return rows.map((r) => r[0]);
}

/**
 * The raw chunks the daily nodes' lines about `topic` were found in, latest days first (a daily
 * node's line speaks of its day), in the order the lines were linked within a day.
 */
function latestLeads(db: IndexDb, topic: string): number[] {
  const rows = stmt(
    db,
    `SELECT l.source_id FROM chunk_links l JOIN chunks c ON c.id = l.chunk_id JOIN files f ON f.id = c.file_id
    WHERE f.level = 'daily' AND l.topic = ? AND l.kind = 0 AND l.source_id IS NOT NULL ORDER BY l.day DESC, l.rowid LIMIT ?`,
  )
    .raw()
    .all(topic, MAX_LEADS * 4) as [number][];
  return [...new Set(rows.map((r) => r[0]))];
}

/** The first chunk of the raw sections whose headings name `topic`, latest days first. */
function latestHeadingLeads(db: IndexDb, topic: string): number[] {
  const rows = stmt(
    db,
    `SELECT c.id, c.heading_path FROM chunks c JOIN files f ON f.id = c.file_id
    WHERE f.level = 'raw' AND instr(lower(c.heading_path), ?) > 0 ORDER BY f.period_start DESC, c.id LIMIT ?`,
  )
    .raw()
    .all(topic, MAX_LEADS * 8) as [number, string][];
  return rows.filter(([, h]) => (JSON.parse(h) as string[]).slice(1).some((x) => parseTopicTag(x)?.name === topic)).map(([id]) => id);
}

/** Each raw chunk of a day with the topics its headings name, read once per relink and day. */
type DayHeadings = Map<string, [id: number, topics: (string | undefined)[]][]>;

/** The first chunk of each raw section of `day` whose headings name `topic`. */
function headingLeads(db: IndexDb, day: string, topic: string, seen: DayHeadings): number[] {
  let chunks = seen.get(day);
  if (!chunks) {
    const rows = stmt(
      db,
      `SELECT c.id, c.heading_path FROM chunks c JOIN files f ON f.id = c.file_id
      WHERE f.level = 'raw' AND f.period_start = ? ORDER BY c.id`,
    )
      .raw()
      .all(day) as [number, string][];
    chunks = rows.map(([id, h]) => [id, (JSON.parse(h) as string[]).slice(1).map((x) => parseTopicTag(x)?.name)]);
    seen.set(day, chunks);
  }
  return chunks.filter(([, topics]) => topics.includes(topic)).map(([id]) => id);
}

/** `ids` with one chunk per section, in order. */
function uniqueSections(db: IndexDb, ids: number[]): number[] {
  if (ids.length <= 1) return ids;
  const rows = stmt(db, 'SELECT id, file_id, section_line FROM chunks WHERE id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify(ids)) as [number, number, number][];
  const sectionOf = new Map(rows.map(([id, f, l]) => [id, `${f}:${l}`]));
  const seen = new Set<string>();
  return ids.filter((id) => {
    const s = sectionOf.get(id);
    if (!s || seen.has(s)) return false;
    seen.add(s);
    return true;
  });
}
