// A node's links line (see tree/node-links.ts): its sources and its parents as relative markdown
// links, put right under the node's title.
import { posix } from 'node:path';
import { monthOf, isoWeekOf, weekDates, type LocalDate } from '../time/calendar.js';
import { nodeRelPath, type Period } from '../tree/layout.js';

function link(label: string, fromDir: string, to: string): string {
  return `[${label}](${posix.relative(fromDir, to)})`;
}

/**
 * The parents of a node, memory-relative: its week and month, then ROOT. A week that spans two
 * months links to the months its days fall in (the days it has, so no link points to a month
 * without a node).
 */
function parentsOf(p: Period, sources: readonly string[]): string[] {
  switch (p.level) {
    case 'daily':
      return [
        nodeRelPath({ level: 'weekly', week: isoWeekOf(p.date) }),
        nodeRelPath({ level: 'monthly', month: monthOf(p.date) }),
        'ROOT.md',
      ];
    case 'weekly': {
      const days = sources.map((s) => /(\d{4}-\d{2}-\d{2})\.md$/.exec(s)?.[1]).filter((d): d is LocalDate => !!d);
      const months = [...new Set((days.length ? days : weekDates(p.week)).map((d) => monthOf(d)))].sort();
      return [...months.map((month) => nodeRelPath({ level: 'monthly', month })), 'ROOT.md'];
    }
    case 'monthly':
      return ['ROOT.md'];
    case 'root':
      return [];
  }
}

const labelOf = (rel: string): string => (rel === 'ROOT.md' ? 'ROOT' : posix.basename(rel, '.md'));

/**
 * The links line of a node. `sources` are the node's source files as the frontmatter names them
 * (workspace-relative, `memory/daily/2026-03-15.md`), `memoryName` the memory folder's name.
 */
export function nodeLinksLine(p: Period, sources: readonly string[], memoryName: string): string {
  const self = nodeRelPath(p);
  const dir = posix.dirname(self);
  const inMemory = (s: string): string => (memoryName === '.' ? s : s.startsWith(`${memoryName}/`) ? s.slice(memoryName.length + 1) : s);
  // A day's main log is its "raw log"; its other files (tree/raw-day.ts) go by their names.
  const sourceLabel = (s: string): string => (p.level === 'daily' && posix.basename(s) === `${p.date}.md` ? 'raw log' : labelOf(s));
  const src = sources.map(inMemory).map((s) => link(sourceLabel(s), dir, s));
  const up = parentsOf(p, sources).map((s) => link(labelOf(s), dir, s));
  return [src.length ? `Sources: ${src.join(' · ')}` : '', up.length ? `Up: ${up.join(' · ')}` : ''].filter(Boolean).join(' · ');
}

/** The body with the links line under its first `# ` title (or on top when it has none). */
export function withNodeLinks(body: string, line: string): string {
  if (!line) return body;
  const m = /^# [^\n]*\n/.exec(body);
  if (!m) return `${line}\n\n${body}`;
  const rest = body.slice(m[0].length).replace(/^\n+/, '');
  return `${m[0]}\n${line}\n\n${rest}`;
}
