// Long word alternations, written as word lists a reader can scan instead of one-line regexes.

/** `(?:a|b|c)` of regex fragments. */
export function anyOf(...alternatives: string[]): string {
  return `(?:${alternatives.join('|')})`;
}

/** An alternation of the space-separated fragments in `list` (a fragment may hold regex syntax). */
export function wordsOf(list: string): string {
  return anyOf(...list.trim().split(/\s+/));
}

/** A case-insensitive regex for `body` between word boundaries. */
export function wordsRegex(body: string, flags = 'i'): RegExp {
  return new RegExp(`\\b${body}\\b`, flags);
}
