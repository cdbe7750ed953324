// When a node is tentative and when it is fixed (spec: "Fixed vs Tentative Nodes").
//   daily   — fixed once its date has passed;
//   weekly  — fixed once the ISO week has ended and `graceDays` full days have passed since;
//   monthly — fixed once the month has ended and `graceDays` full days have passed since
//             (with the default 7: from the 8th of the next month);
//   root    — never fixed.
// "Days passed since the period ended" counts whole days after its last day, so a week ending
// Sunday 2026-03-15 is fixed from Monday 2026-03-23, and March 2026 from 2026-04-08.
import { addDays, type LocalDate } from '../time/calendar.js';
import { periodLastDay, type NodeStatus, type Period } from '../tree/layout.js';

const fixableMemo = new Map<string, LocalDate | null>();

/** The status a period's node should have today, by the calendar alone. */
export function calendarStatus(p: Period, today: LocalDate, graceDays: number): NodeStatus {
  // ISO dates compare as strings; the planner asks this for every period on every cycle.
  if (p.level === 'daily') return p.date < today ? 'fixed' : 'tentative';
  if (p.level === 'root') return 'tentative';
  const key = `${p.level === 'weekly' ? p.week : p.month}|${graceDays}`;
  let from = fixableMemo.get(key);
  if (from === undefined) {
    if (fixableMemo.size > 50_000) fixableMemo.clear();
    from = fixableFrom(p, graceDays);
    fixableMemo.set(key, from);
  }
  return from !== null && today >= from ? 'fixed' : 'tentative';
}

/** The first day on which the period's node may be fixed: a fixed node was fixed on that day or later. */
export function fixableFrom(p: Period, graceDays: number): LocalDate | null {
  const last = periodLastDay(p);
  if (last === null) return null;
  return addDays(last, p.level === 'daily' ? 1 : graceDays + 1);
}
