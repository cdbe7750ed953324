// Reading what the user said of themselves in a hit's section out of the index (redacted text,
// never the files); said.ts picks which of the statements are worth the room.
import { stmt, type IndexDb } from '../index/db.js';
import { userFactsByLine } from '../index/facts.js';
import type { SearchHit } from './hits.js';
import type { Said } from './said.js';

/** Chunks of a section read around the hit: a day-long capture is one section of hundreds. */
const NEAR_CHUNKS = 8;
/**
 * The user's statements about themselves in the section of `path` holding `line` (its chunks
 * nearest the line), each once, in file order.
 */
function saidInSection(db: IndexDb, path: string, line: number): Said[] {
  const rows = stmt(
    db,
    `SELECT c.line_start AS start, c.text AS text FROM chunks c JOIN files f ON f.id = c.file_id
     WHERE f.path = ? AND c.section_line = (
       SELECT c2.section_line FROM chunks c2 WHERE c2.file_id = f.id AND c2.line_start <= ? AND c2.line_end >= ? LIMIT 1)
     ORDER BY abs(c.line_start - ?) LIMIT ${NEAR_CHUNKS}`,
  ).all(path, line, line, line) as { start: number; text: string }[];
  const byLine = new Map<number, string[]>();
  for (const r of rows) for (const [l, facts] of userFactsByLine(r.text.split('\n'), r.start)) byLine.set(l, facts);
  const seen = new Set<string>();
  const out: Said[] = [];
  for (const l of [...byLine.keys()].sort((a, b) => a - b)) {
    for (const text of byLine.get(l)!) {
      const key = text.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ line: l, text });
    }
  }
  return out;
}

/** What the user said in a hit's section, but not in the lines its snippet shows. */
export function saidBeside(db: IndexDb, hit: SearchHit): Said[] {
  return saidOutside(db, hit.path, hit.snippet.line, hit.snippet.line + hit.snippet.text.split('\n').length - 1);
}

/** What the user said in the section of `path` holding line `from`, outside the lines `from`..`to` shown already. */
export function saidOutside(db: IndexDb, path: string, from: number, to: number): Said[] {
  return saidInSection(db, path, from).filter((s) => s.line < from || s.line > to);
}
