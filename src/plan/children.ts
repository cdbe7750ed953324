// Which nodes a node is made from. Every day belongs to exactly one ISO week and one calendar
// month. A week that straddles two months is split by date: each month takes that week's days
// that fall inside it (as daily nodes), and a week wholly inside a month is taken as its weekly
// node. So no day is lost or counted twice, and the monthly node for March covers March 1-31.
import { isoWeekOf, monthDates, monthOf, weekDates, weeksTouchingMonth, type IsoWeek, type LocalDate, type MonthId } from '../time/calendar.js';
import type { Period } from '../tree/layout.js';

export function dailyPeriod(date: LocalDate): Period {
  return { level: 'daily', date };
}
export function weeklyPeriod(week: IsoWeek): Period {
  return { level: 'weekly', week };
}
export function monthlyPeriod(month: MonthId): Period {
  return { level: 'monthly', month };
}

/** Days of the week that have (or will have) a daily node. */
export function weekChildren(week: IsoWeek, days: ReadonlySet<LocalDate>): Period[] {
  return weekDates(week).filter((d) => days.has(d)).map(dailyPeriod);
}

/** Whole weeks of the month as weekly nodes, days of straddling weeks as daily nodes. */
export function monthChildren(month: MonthId, days: ReadonlySet<LocalDate>): Period[] {
  const out: Period[] = [];
  for (const week of weeksTouchingMonth(month)) {
    const dates = weekDates(week);
    const inMonth = dates.filter((d) => monthOf(d) === month);
    const present = inMonth.filter((d) => days.has(d));
    if (present.length === 0) continue;
    if (inMonth.length === 7) out.push(weeklyPeriod(week));
    else out.push(...present.map(dailyPeriod));
  }
  return out;
}

export function weeksOf(days: Iterable<LocalDate>): IsoWeek[] {
  return [...new Set([...days].map(isoWeekOf))].sort();
}

export function monthsOf(days: Iterable<LocalDate>): MonthId[] {
  return [...new Set([...days].map(monthOf))].sort();
}

/** The days a monthly node covers, for display (`dates` in frontmatter). */
export function monthSpan(month: MonthId): [LocalDate, LocalDate] {
  const d = monthDates(month);
  return [d[0]!, d[d.length - 1]!];
}
