// The line of links hipo puts under a node's title, so that a person browsing the tree in an
// editor (VS Code, Obsidian, GitHub) can click down to the sources and up to the parents:
//   Sources: [raw log](../2026-11-20.md) · Up: [2026-W47](../weekly/2026-W47.md) · [2026-11](../monthly/2026-11.md) · [ROOT](../ROOT.md)
// Links are relative to the node's own folder. Readers that take a node's text (a parent's
// concatenation, the context pack) leave the line out: it is navigation, not memory.

const LINKS_LINE = /^(?:Sources: .*?\]\([^)]*\)|Up: \[[^\]]*\]\([^)]*\))/;

export function isNodeLinksLine(line: string): boolean {
  return LINKS_LINE.test(line);
}

/** The body without its links line (looked for among the first lines only, where hipo puts it). */
export function stripNodeLinks(body: string): string {
  const lines = body.split('\n');
  for (let i = 0; i < Math.min(lines.length, 4); i++) {
    if (!isNodeLinksLine(lines[i]!)) continue;
    lines.splice(i, lines[i + 1] === '' ? 2 : 1);
    return lines.join('\n');
  }
  return body;
}

/** The body with its links line emptied, line numbers kept (sources are cited by line). */
export function blankNodeLinks(body: string): string {
  const lines = body.split('\n');
  for (let i = 0; i < Math.min(lines.length, 4); i++) {
    if (isNodeLinksLine(lines[i]!)) {
      lines[i] = '';
      return lines.join('\n');
    }
  }
  return body;
}
