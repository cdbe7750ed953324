// The mark a node writes where a section has nothing yet: `- (none)` under Topics, `- (none yet)`
// in ROOT.md. A heading over nothing but that mark says there is nothing: the index does not
// make it a chunk (found by "none", `hipo recall` would hand it to an agent) and the context
// pack does not spend its room on it.

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
  const out: string[] = [];
  let section: string[] = [];
  const flush = (): void => {
    if (!placeholderOnly(section.join('\n'))) out.push(...section);
    section = [];
  };
  let fence = false;
  for (const l of body.split('\n')) {
    if (/^ {0,3}(```|~~~)/.test(l)) fence = !fence;
    if (!fence && HEADING.test(l)) flush();
    section.push(l);
  }
  flush();
  return out.join('\n');
}
