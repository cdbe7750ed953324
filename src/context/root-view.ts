// ROOT.md as an agent should read it today: without frontmatter, with the topic ages (`5d`)
// moved forward by the days since ROOT was written, so a ROOT from last week does not claim
// that a topic was seen yesterday; and with Active Context dated when its days are past.
import { daysBetween, parseLocalDate, type LocalDate } from '../time/calendar.js';
import { lastActiveLine, lastActiveOf, outsideWindow, withLastActive } from '../tree/last-active.js';
import { splitFrontmatterLight } from './sources.js';

export interface RootView {
  body: string;
  lastUpdated: LocalDate | null;
  /** Days added to every age. */
  shiftedBy: number;
}

const AGE = /\[(user|feedback|project|reference), (\d+)d\b/g;
const POINTER_LINK = /→ \[[^\]\n]*\]\(([^)\s]+)\)/g;

/** What the reader knows of the workspace's activity, to date Active Context by. */
export interface Activity {
  /** The newest day with a raw log or a daily node, up to today; null when none was found. */
  newest: LocalDate | null;
  /** ROOT's Active Context window (`compaction.activeContextDays`). */
  windowDays: number;
}

export function rootView(text: string, today: LocalDate, activity?: Activity): RootView {
  const doc = splitFrontmatterLight(text);
  const lu = doc.yaml ? /^last-updated:[ \t]*["']?(\d{4}-\d{2}-\d{2})/m.exec(doc.yaml) : null;
  const lastUpdated = lu ? parseLocalDate(lu[1]!) : null;
  const shift = lastUpdated ? Math.max(0, daysBetween(lastUpdated, today)) : 0;
  const shifted = shift === 0 ? doc.body : doc.body.replace(AGE, (_m, type: string, n: string) => `[${type}, ${Number(n) + shift}d`);
  const aged = datedActive(shifted, today, shift, activity);
  // The Topics Index's links as plain paths: an agent opens the file by its path.
  const body = aged.replace(POINTER_LINK, '→ $1');
  return { body: body.trim(), lastUpdated, shiftedBy: shift };
}

/**
 * Active Context's last-active line as of `today`. ROOT wrote it on its own day, or not at all
 * when its days were recent then: a ROOT from before a user's weeks away says "recent" of days
 * that no longer are. The newest activity is the later of ROOT's line and what the reader found
 * (a log written since ROOT). Without `activity` the line ROOT has is only re-dated.
 */
function datedActive(body: string, today: LocalDate, shift: number, activity: Activity | undefined): string {
  const written = lastActiveOf(body);
  // Re-dated forward only, as the ages are.
  if (!activity) return written && shift > 0 ? withLastActive(body, lastActiveLine(written.last, today, written.windowDays)) : body;
  const newest = [written?.last ?? null, activity.newest].reduce<LocalDate | null>(
    (a, d) => (d !== null && (a === null || d > a) ? d : a),
    null,
  );
  const stale = newest !== null && outsideWindow(newest, today, activity.windowDays);
  return withLastActive(body, stale ? lastActiveLine(newest, today, activity.windowDays) : null);
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
