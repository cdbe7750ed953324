// The same conversations as people and tools write them. MemAware's transcripts are tidy:
// `User:` / `Assistant:`, capitals, plain apostrophes, a heading per session. Each shape below
// rewrites a raw log as another writer would, changing how it is written and nothing it says;
// a tree that reads people well keeps the same facts from every shape.

type Shape = (log: string) => string;

/** Applies `f` to the text of each user turn (`User: …` lines). */
const userTurns =
  (f: (text: string) => string): Shape =>
  (log) =>
    log.replace(/^User: (.*)$/gm, (_m, text: string) => `User: ${f(text)}`);

/** Renames the speakers' labels: `label(speaker)` is the new line start. */
const labels =
  (label: (speaker: 'User' | 'Assistant') => string): Shape =>
  (log) =>
    log.replace(/^(User|Assistant): /gm, (_m, who: 'User' | 'Assistant') => label(who));

export const SHAPES: Record<string, Shape> = {
  // Phones, macOS and many models: U+2019 inside words.
  'typographic apostrophes': (log) => log.replace(/(?<=\w)'(?=\w)/g, '\u2019'),
  'lower-case "i"': userTurns((t) => t.replace(/\bI\b/g, 'i')),
  'no apostrophes (im, ive, dont)': userTurns((t) =>
    t
      .replace(/\bI'm\b/g, 'im')
      .replace(/\bI've\b/g, 'ive')
      .replace(/\bdon't\b/g, 'dont')
      .replace(/\bI\b/g, 'i'),
  ),
  'user turns all lower case': userTurns((t) => t.toLowerCase()),
  '**You:** / **ChatGPT:**': labels((who) => (who === 'User' ? '**You:** ' : '**ChatGPT:** ')),
  'turns as headings (### User)': labels((who) => `### ${who}\n\n`),
  'stamped labels ([10:42] User:)': labels((who) => `[10:42] ${who}: `),
  'the user by name (Dana:)': labels((who) => (who === 'User' ? 'Dana: ' : 'Assistant: ')),
  'no session headings': (log) => log.replace(/^## Session \d+\nSession Date: .*\n/gm, ''),
};
