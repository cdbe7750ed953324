// Which nodes a node is made from. Every day belongs to exactly one ISO week and one calendar
// month. A week that straddles two months is split by date: each month takes that week's days
// that fall inside it (as daily nodes), and a week wholly inside a month is taken as its weekly
// node. So no day is lost or counted twice, and the monthly node for March covers March 1-31.
import { monthOf, weekDates, weeksTouchingMonth, type IsoWeek, type LocalDate, type MonthId } from '../time/calendar.js';
import type { Period } from '../tree/layout.js';

function dailyPeriod(date: LocalDate): Period {
  return { level: 'daily', date };
}
function weeklyPeriod(week: IsoWeek): Period {
  return { level: 'weekly', week };
}

/** Days of the week that have (or will have) a daily node. */
export function weekChildren(week: IsoWeek, days: ReadonlySet<LocalDate>): Period[] {
  return weekDates(week)
    .filter((d) => days.has(d))
    .map(dailyPeriod);
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
