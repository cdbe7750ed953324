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

/**
 * A day's chat: the user's statement of themselves, then eight lines of the assistant's advice on
 * `topic`. Short as it is, it is summarized with SUMMARIZE_SHORT_DAYS, so its nodes have User Facts.
 */
export function statementDay(date: string, statement: string, topic: string): string {
  const advice = Array.from({ length: 8 }, (_, i) => `${i + 1}. For ${topic}, compare prices and read the reviews first, step ${i + 1}.`);
  return [`# ${date}`, '', '## Session 1', `User: ${statement} Can you help me with ${topic}?`, 'Assistant: Sure:', ...advice, ''].join(
    '\n',
  );
}

/** Thresholds of a few lines (compaction.thresholds): even short days are summarized. */
export const SUMMARIZE_SHORT_DAYS = { thresholds: { daily: 5, weekly: 5, monthly: 5 } };

/**
 * Two days of chat, summarized with SUMMARIZE_SHORT_DAYS: a request about shedding hair on a sofa
 * depends on the first day's statement, and shares no word with the second's.
 */
export const SHEDDING_DAYS: Readonly<Record<string, string>> = {
  'memory/2026-03-02.md': statementDay(
    '2026-03-02',
    'My golden retriever Max sheds long hair all over the sofa every spring.',
    'a birthday gift',
  ),
  'memory/2026-03-09.md': statementDay(
    '2026-03-09',
    'I repainted my bedroom walls a lighter shade of gray last weekend.',
    'a reading list',
  ),
};
