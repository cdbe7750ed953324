// Which periods a context pack shows, by age, computed from the calendar alone (so the cost
// does not grow with years of history): the recent days at daily detail (this ISO week, or
// the last two weeks early in a week), the weeks before them back to a month boundary at
// weekly detail, up to three months before those at monthly detail. Older history is in ROOT.
// Each level spans a few times the one below: the seed's halving rule, by calendar.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  addDays,
  isoWeekOf,
  lastDayOfWeek,
  monthDates,
  monthOf,
  weekDates,
  type IsoWeek,
  type LocalDate,
  type MonthId,
} from '../time/calendar.js';
import { nodeRelPath, rawRelPath } from '../tree/layout.js';

export interface Windows {
  /** The day the windows are anchored at: today, or the latest day with memory. */
  anchor: LocalDate;
  /** Newest first. */
  days: LocalDate[];
  weeks: IsoWeek[];
  months: MonthId[];
  /** Days before this are only in ROOT. */
  rootOnlyBefore: LocalDate;
}

const MAX_WEEKS = 8;
const MAX_MONTHS = 3;
/** How far back the anchor is looked for, in days (a bounded number of stat calls). */
const ANCHOR_PROBE_DAYS = 400;

export function contextWindows(anchor: LocalDate): Windows {
  const firstDay = weekDates(isoWeekOf(addDays(anchor, -2)))[0]!;
  const days: LocalDate[] = [];
  for (let d = anchor; d >= firstDay; d = addDays(d, -1)) days.push(d);
  const boundaryMonth = monthOf(addDays(firstDay, -21));
  const monthStart = monthDates(boundaryMonth)[0]!;
  const weeks: IsoWeek[] = [];
  for (
    let w = isoWeekOf(addDays(firstDay, -1));
    lastDayOfWeek(w) >= monthStart && weeks.length < MAX_WEEKS;
    w = isoWeekOf(addDays(weekDates(w)[0]!, -1))
  )
    weeks.push(w);
  const weeklyStart = weeks.length ? weekDates(weeks[weeks.length - 1]!)[0]! : firstDay;
  const months: MonthId[] = [];
  for (let m = monthOf(addDays(weeklyStart, -1)); months.length < MAX_MONTHS; m = monthOf(addDays(monthDates(m)[0]!, -1))) months.push(m);
  const rootOnlyBefore = monthDates(months[months.length - 1]!)[0]!;
  return { anchor, days, weeks, months, rootOnlyBefore };
}

/** The latest day up to `today` with a raw log or a daily node, else today. */
export function findAnchor(memoryDir: string, today: LocalDate): LocalDate {
  for (let i = 0; i < ANCHOR_PROBE_DAYS; i++) {
    const d = addDays(today, -i);
    if (hasMemoryOn(memoryDir, d)) return d;
  }
  return today;
}

/** Whether the day has a raw log or a daily node. */
export function hasMemoryOn(memoryDir: string, d: LocalDate): boolean {
  return existsSync(join(memoryDir, rawRelPath(d))) || existsSync(join(memoryDir, nodeRelPath({ level: 'daily', date: d })));
}
