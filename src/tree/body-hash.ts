// A node's body hash: what hipo records as `body-hash` when it writes a node, and what it finds
// when it reads one back to tell a hand edit. A body that differs from the one hipo wrote only in
// its line endings (CRLF, as a Windows checkout with core.autocrlf makes them), in spaces or tabs
// at the ends of lines (an editor trimming them on save) or in blank lines and spaces at its end
// (`echo >> node.md`, an editor adding a final newline) was not edited by hand: nothing a reader
// sees changed, and a node taken for edited would never again follow its sources.
import { contentHash } from './hash.js';

const lf = (body: string): string => body.replace(/\r\n?/g, '\n');

/** Where `text` ends without the spaces and tabs (and, with `newlines`, line breaks) at its end. */
function endWithout(text: string, newlines: boolean): number {
  let end = text.length;
  for (let c = text.charCodeAt(end - 1); c === 32 || c === 9 || (newlines && c === 10); c = text.charCodeAt(end - 1)) end--;
  return end;
}

/** The body as hipo compares it: LF line endings, no spaces at line ends, one final newline. */
function normalisedBody(body: string): string {
  const lines = lf(body)
    .split('\n')
    .map((l) => l.slice(0, endWithout(l, false)));
  const joined = lines.join('\n');
  return `${joined.slice(0, endWithout(joined, true))}\n`;
}

/** The body with its blank lines at the end dropped, the spaces ending its last line kept. */
function withoutFinalBlanks(body: string): string {
  const text = lf(body);
  const end = endWithout(text, true);
  const nl = text.indexOf('\n', end);
  return `${text.slice(0, nl === -1 ? text.length : nl)}\n`;
}

/** The `body-hash` hipo records for a body it writes: its bytes' hash when nothing is normalised. */
export function bodyHashOf(body: string): string {
  return contentHash(normalisedBody(body));
}

/**
 * The hash of a node's body as read, given the `body-hash` it records: the recorded one while the
 * body is still the one hipo wrote, so a node's hash, and the source hashes of its parents, do not
 * move when only its line endings do. Versions before this one recorded the hash of the body's
 * bytes, spaces at line ends included (a copied log's Markdown line breaks): such a node is
 * recognised by those bytes, or by them with its line endings or final blank lines changed.
 */
export function readBodyHash(body: string, recorded: string | null): string {
  const now = bodyHashOf(body);
  if (recorded === null || recorded === now) return now;
  if (contentHash(body) === recorded) return recorded;
  return contentHash(withoutFinalBlanks(body)) === recorded ? recorded : now;
}
