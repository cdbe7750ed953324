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

/**
 * A weekly node's text whose days label the user differently: `User:` on one, by name (`Dana:`)
 * on the other. Each day must be read with its own labels.
 */
export const NAMED_USER_WEEK: readonly string[] = [
  '## 2026-11-10 (Tue)',
  'User: I am training for the Berlin marathon.',
  'Assistant: Great.',
  '## 2026-11-12 (Thu)',
  'Dana: I adopted a greyhound named Comet.',
  'Assistant: Congratulations!',
  'Dana: I live in a flat on the 3rd floor.',
  'Assistant: Nice.',
];
