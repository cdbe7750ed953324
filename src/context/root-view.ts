// ROOT.md as an agent should read it today: without frontmatter, with the topic ages (`5d`)
// moved forward by the days since ROOT was written, so a ROOT from last week does not claim
// that a topic was seen yesterday.
import { daysBetween, parseLocalDate, type LocalDate } from '../time/calendar.js';
import { splitFrontmatterLight } from './sources.js';

export interface RootView {
  body: string;
  lastUpdated: LocalDate | null;
  /** Days added to every age. */
  shiftedBy: number;
}

const AGE = /\[(user|feedback|project|reference), (\d+)d\b/g;
const POINTER_LINK = /→ \[[^\]\n]*\]\(([^)\s]+)\)/g;

export function rootView(text: string, today: LocalDate): RootView {
  const doc = splitFrontmatterLight(text);
  const lu = doc.yaml ? /^last-updated:[ \t]*["']?(\d{4}-\d{2}-\d{2})/m.exec(doc.yaml) : null;
  const lastUpdated = lu ? parseLocalDate(lu[1]!) : null;
  const shift = lastUpdated ? Math.max(0, daysBetween(lastUpdated, today)) : 0;
  const aged = shift === 0 ? doc.body : doc.body.replace(AGE, (_m, type: string, n: string) => `[${type}, ${Number(n) + shift}d`);
  // The Topics Index's links as plain paths: an agent opens the file by its path.
  const body = aged.replace(POINTER_LINK, '→ $1');
  return { body: body.trim(), lastUpdated, shiftedBy: shift };
}

/** ROOT's sections in the order they matter at a session's start. */
export function rootSectionRank(heading: string): number {
  if (/^active context/i.test(heading)) return 0;
  if (/^topics index/i.test(heading)) return 1;
  if (/^recent patterns/i.test(heading)) return 2;
  return 3;
}

/** A node's sections in the order they matter (what the user is, wants, decided, has open). */
export function nodeSectionRank(heading: string): number {
  const h = heading.toLowerCase();
  if (/^topics?$/.test(h)) return 0;
  if (/user|about the user/.test(h)) return 1;
  if (/feedback|rules?/.test(h)) return 2;
  if (/decisions?/.test(h)) return 3;
  if (/open|carried forward|next/.test(h)) return 4;
  if (/completed|tasks|done/.test(h)) return 5;
  if (/lessons?|patterns/.test(h)) return 6;
  if (/highlights|themes|notes/.test(h)) return 7;
  if (/references?/.test(h)) return 8;
  return 9;
}
