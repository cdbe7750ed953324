// Recall's third step over the whole tree: the search index's hybrid search, its hits turned
// into passages (file, line range, text). Hits are raw sections where the tree knows them
// (a summary line that repeats one is where else it appears); a summary hit of its own is
// followed by the raw sections of its period that match best (the index's `sources`). The index
// also tells which raw sections a summary passage of recall's own list was taken from.
import { stmt } from '../index/db.js';
import type { SearchIndex } from '../index/search-index.js';
import { rephrasings } from '../search/extra-queries.js';
import { search, type SectionRef } from '../search/search.js';
import { saidOutside } from '../search/said-index.js';
import { userFactsFor } from '../search/user-facts.js';
import type { SearchMode } from '../search/modes.js';
import type { Passage } from './passages.js';
import type { TreeSearch } from './recall.js';
import { clipLongLines, readInMemory } from './sources.js';

/** Lines of a passage read back from its file, at most this many. */
const MAX_LINES = 60;

/**
 * `redact` redacts a file's text keeping its lines (redact/lines.ts): a passage is a slice of the
 * redacted file, never redacted on its own (a slice that starts inside a key block would not be).
 */
export function indexTreeSearch(
  index: SearchIndex,
  memoryName: string,
  memoryDir: string,
  redact: (text: string) => string,
  mode: SearchMode = 'hybrid',
): TreeSearch {
  const prefix = `${memoryName}/`;
  const files = new Map<string, string[] | null>();
  const lines = (rel: string): string[] | null => {
    if (!files.has(rel)) {
      const r = readInMemory(memoryDir, rel, 16 * 1024 * 1024);
      files.set(rel, r ? redact(r.text).split('\n') : null);
    }
    return files.get(rel)!;
  };
  const passage = (ref: Pick<SectionRef, 'path' | 'lines'>): Passage | null => {
    if (!ref.path.startsWith(prefix)) return null; // another indexed folder: not memory
    const rel = ref.path.slice(prefix.length);
    const all = lines(rel);
    if (!all) return null;
    const from = ref.lines.start;
    const to = Math.min(ref.lines.end, from + MAX_LINES - 1);
    const text = clipLongLines(
      all
        .slice(from - 1, to)
        .join('\n')
        .trim(),
    );
    return text ? { path: rel, from, to, text } : null;
  };
  const where = (r: Pick<SectionRef, 'path' | 'lines'>): { path: string; from: number; to: number } => ({
    path: r.path.slice(prefix.length),
    from: r.lines.start,
    to: r.lines.end,
  });
  const run = async (query: string, limit: number, also: readonly string[] = []): Promise<Passage[]> => {
    const r = await search(index, query, { mode, limit, also: rephrasings(also) });
    const out: Passage[] = [];
    for (const h of r.hits) {
      const p = passage(h);
      if (p) out.push(h.alsoIn.length ? { ...p, alsoIn: h.alsoIn.filter((a) => a.path.startsWith(prefix)).map(where) } : p);
      for (const s of h.sources) {
        const q = passage(s);
        if (q) out.push(q);
      }
    }
    return out;
  };
  /** The raw chunks the lines `from..to` of a summary node were taken from, as passages. */
  const origins = (p: Passage): Passage[] => {
    const rows = stmt(
      index.db,
      `SELECT DISTINCT s.line_start, s.line_end, sf.path FROM chunks c JOIN files f ON f.id = c.file_id
      JOIN chunk_links l ON l.chunk_id = c.id JOIN chunks s ON s.id = l.source_id JOIN files sf ON sf.id = s.file_id
      WHERE f.path = ? AND c.line_start + l.line_offset BETWEEN ? AND ? AND l.kind = 0 ORDER BY sf.path, s.line_start`,
    )
      .raw()
      .all(prefix + p.path, p.from, p.to) as [number, number, string][];
    return rows.map(([start, end, path]) => passage({ path, lines: { start, end } })).filter((x): x is Passage => x !== null);
  };
  /** What the user said of themselves in the rest of a passage's section. */
  const said = (p: Passage) => saidOutside(index.db, prefix + p.path, p.from, p.to);
  /** The monthly nodes' User Facts lines that share the most words with `query`, as one-line passages. */
  const facts = (query: string, limit: number): Passage[] =>
    userFactsFor(index, query, limit)
      .map((f) => passage({ path: f.path, lines: { start: f.line, end: f.line } }))
      .filter((p): p is Passage => p !== null);
  return Object.assign(run, { origins, said, facts });
}
