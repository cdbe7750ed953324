// The user's own facts that bear on a request: lines of the monthly nodes' User Facts sections
// (the tree's facts, one per line, each said once per month) sharing the most words with it. A
// request seldom names the fact it depends on ("a vacuum for long shedding hair" against "my
// golden retriever Max sheds"), and a search over whole sections ranks the conversations where
// the request's words were said, mostly the assistant's; a fact line is a few words, so the one
// that shares a word with the request ranks high among the facts. Two steps, both the index's
// full-text ranking: the monthly User Facts chunks that match best (the search's bm25 scores),
// then their lines ranked against each other in a temporary full-text table with the index's
// own tokenizer, so stemming and folding agree with the search.
import { stmt, type IndexDb } from '../index/db.js';
import type { SearchIndex } from '../index/search-index.js';
import { searchFold } from '../text/search-fold.js';
import { bm25Scores } from './bm25.js';
import { allowedChunks } from './filters.js';
import { parseQuery } from './query.js';

export interface FactLine {
  /** Workspace-relative path of the monthly node. */
  path: string;
  line: number;
  /** The line as the node has it, without its bullet: `05-25 · possessions: I got …`. */
  text: string;
}

/**
 * The best chunks of User Facts read for their lines. A month's facts are one section of many
 * chunks, so chunks, not sections: the facts a request touches are spread over several.
 */
const CHUNKS = 8;

/** The fact lines of the User Facts chunks best matching `query`, the best `limit` first. */
export function userFactsFor(index: SearchIndex, query: string, limit: number): FactLine[] {
  if (limit <= 0) return [];
  // Words and phrases only: Chinese, Japanese and Korean runs are matched in a column a plain
  // table does not have.
  const q = parseQuery(query);
  const terms = q.terms.filter((t) => t.kind !== 'cjk');
  if (!terms.length) return [];
  // The same keyword scores as a search (a resident index has the terms' postings cached from
  // the search just before), read for the monthly nodes' User Facts chunks only.
  const allowed = allowedChunks(index.db, { levels: ['monthly'], types: ['user'] });
  if (allowed.size === 0) return [];
  const best = [...bm25Scores(index, q).scores.pick(allowed)]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, CHUNKS)
    .map(([id]) => id);
  const rows = stmt(
    index.db,
    `SELECT c.id AS id, c.text AS text, c.line_start AS start, f.path AS path FROM chunks c JOIN files f ON f.id = c.file_id
     WHERE c.id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(best)) as { id: number; text: string; start: number; path: string }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lines: FactLine[] = [];
  const known = new Set<string>();
  for (const id of best) {
    const chunk = byId.get(id);
    if (!chunk) continue;
    chunk.text.split('\n').forEach((l, i) => {
      const text = /^\s*[-*]\s+(.*\S)/.exec(l)?.[1];
      if (!text || known.has(text)) return;
      known.add(text);
      lines.push({ path: chunk.path, line: chunk.start + i, text });
    });
  }
  return lines.length ? rank(index.db, lines, terms, limit) : [];
}

/**
 * `lines` ranked by bm25 against the query's terms, the best `limit`. Any one term will do: a
 * fact line is short, and a request that depends on a fact often shares one word with it.
 */
function rank(db: IndexDb, lines: readonly FactLine[], terms: readonly { words: string[] }[], limit: number): FactLine[] {
  // A temporary table lives in this connection's own memory: a read-only index can hold it, and
  // nothing of it reaches the index file.
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fact_lines USING fts5 (t, tokenize = 'porter unicode61 remove_diacritics 2')");
  db.exec('DELETE FROM temp.fact_lines');
  const insert = stmt(db, 'INSERT INTO temp.fact_lines (rowid, t) VALUES (?, ?)');
  lines.forEach((l, i) => insert.run(i, searchFold(l.text)));
  const match = terms.map((t) => `"${searchFold(t.words.join(' ')).replace(/"/g, '""')}"`).join(' OR ');
  const rows = stmt(db, 'SELECT rowid FROM temp.fact_lines WHERE fact_lines MATCH ? ORDER BY bm25(fact_lines), rowid LIMIT ?')
    .raw()
    .all(match, limit) as [number][];
  db.exec('DELETE FROM temp.fact_lines');
  return rows.map(([i]) => lines[i]!);
}
