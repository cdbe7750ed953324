// A chat session whose user says something of themselves at its top (line 4 of the raw log),
// then asks for advice whose lines a search for cleaning matches: where the statement a later
// request depends on is not in the lines the search matched.

/** The user's statement, on line 4 of the log `asideSession` writes. */
export const ASIDE = "User: By the way, I've been keeping my old sneakers under my bed for storage, and they're starting to smell.";

/** Numbered lines of advice, `n` of them, sharing the words of `vacuum the carpet and empty the storage boxes`. */
export const cleaningAdvice = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${i + 1}. Vacuum the carpet slowly and empty the storage boxes first, step ${i + 1}.`);

/** The raw log of 2026-03-02: one session, the aside first, then `turns`. */
export function asideSession(turns: readonly string[]): string {
  return ['# 2026-03-02', '', '## Session 3', ASIDE, ...turns, ''].join('\n');
}
