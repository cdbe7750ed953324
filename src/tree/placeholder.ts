// The mark a node writes where a section has nothing yet: `- (none)` under Topics, `- (none yet)`
// in ROOT.md. A heading over nothing but that mark says there is nothing: the index does not
// make it a chunk (found by "none", `hipo recall` would hand it to an agent) and the context
// pack does not spend its room on it.

import { withoutSections } from './markdown.js';

const PLACEHOLDER = /^\s*[-*]\s+\((?:none|none yet)\)\s*$/;
const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

/** Only headings, blanks and at least one placeholder line. */
export function placeholderOnly(text: string): boolean {
  if (!text.includes('(none')) return false;
  let mark = false;
  for (const l of text.split('\n')) {
    if (PLACEHOLDER.test(l)) mark = true;
    else if (l.trim() !== '' && !HEADING.test(l)) return false;
  }
  return mark;
}

/** `body` without its sections that hold nothing but a placeholder (heading included). */
export function withoutPlaceholderSections(body: string): string {
  if (!body.includes('(none')) return body;
  return withoutSections(body, (s, lines) => s.children.length === 0 && placeholderOnly(lines.slice(s.line - 1, s.endLine).join('\n')));
}
