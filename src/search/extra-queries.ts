// Extra queries that run beside a search's own: an agent's rephrasings (`--also`) or a model's
// expansions. Their own module so that the stores that run them (SQLite, PostgreSQL) share the
// shape without importing each other.

/**
 * `query`: another wording of the whole query, ranked the way the query is; `lex`: keywords,
 * ranked by BM25; `vec`: a sentence, ranked by vectors (by BM25 when there are none).
 */
export interface ExtraQuery {
  kind: 'query' | 'lex' | 'vec';
  text: string;
  /** Its lists' weight in the fusion; default 1, against the query's ORIGINAL_WEIGHT. */
  weight?: number;
}

/** The query's own lists weigh this much against each extra query's. */
export const ORIGINAL_WEIGHT = 2;

/**
 * An agent's own rephrasings: ranked like the query and weighed as much, since the caller
 * chose them (a model's expansions weigh half: they may drift from what was asked).
 */
export function rephrasings(texts: readonly string[]): ExtraQuery[] {
  return texts
    .map((t) => t.trim())
    .filter(Boolean)
    .map((text) => ({ kind: 'query' as const, text, weight: ORIGINAL_WEIGHT }));
}
