import { execFileSync } from 'node:child_process';
import { getISOWeek, getISOWeekYear } from 'date-fns';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isoWeekOf,
  isValidTimeZone,
  isoWeeksInYear,
  monthDates,
  parseIsoWeek,
  parseLocalDate,
  todayIn,
  weekDates,
  weekdayName,
  weeksTouchingMonth,
  zonedParts,
  type IsoWeek,
  type LocalDate,
  type MonthId,
} from '../../src/time/calendar.js';
import { resolveClock } from '../../src/time/clock.js';

const d = (s: string) => s as LocalDate;

describe('ISO weeks', () => {
  it('numbers the spec reference date like `date +%G-W%V`', () => {
    expect(isoWeekOf(d('2026-03-01'))).toBe('2026-W09');
  });

  it('gives 2026 a week 53 that takes in 2027-01-01..03', () => {
    expect(isoWeeksInYear(2026)).toBe(53);
    expect(isoWeekOf(d('2026-12-31'))).toBe('2026-W53');
    expect(isoWeekOf(d('2027-01-01'))).toBe('2026-W53');
    expect(isoWeekOf(d('2027-01-03'))).toBe('2026-W53');
    expect(weekDates('2026-W53' as IsoWeek)).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });

  it('starts 2027 (which begins on a Friday) at W01 on Monday Jan 4, not W02 (pitfall 1)', () => {
    expect(weekdayName(d('2027-01-01'))).toBe('Fri');
    expect(isoWeekOf(d('2027-01-04'))).toBe('2027-W01');
    expect(isoWeekOf(d('2027-12-31'))).toBe('2027-W52');
    expect(isoWeeksInYear(2027)).toBe(52);
    // The other Friday-start years of the pitfall.
    expect(isoWeekOf(d('2016-01-04'))).toBe('2016-W01');
    expect(isoWeekOf(d('2016-01-01'))).toBe('2015-W53');
    expect(isoWeekOf(d('2021-01-04'))).toBe('2021-W01');
    expect(isoWeekOf(d('2021-01-03'))).toBe('2020-W53');
  });

  it('puts late-December days into week 1 of the next week-year', () => {
    expect(isoWeekOf(d('2024-12-30'))).toBe('2025-W01');
    expect(isoWeekOf(d('2025-12-29'))).toBe('2026-W01');
  });

  // One `date` process for the whole range keeps this fast; where GNU date is absent the test
  // is skipped, saying so.
  const gnuDays = gnuDateWeeks();
  it.skipIf(!gnuDays)(`agrees with GNU date for every day of 2015-2028${gnuDays ? '' : ' (skipped: needs GNU date)'}`, () => {
    expect(gnuDays!.length).toBe(14 * 366);
    for (const line of gnuDays!) {
      const [day, week] = line.split(' ');
      expect(isoWeekOf(d(day!)), day).toBe(week);
    }
  });

  it('agrees with date-fns for every day of 1990-2060', () => {
    for (let day = Date.UTC(1990, 0, 1); day < Date.UTC(2061, 0, 1); day += 86_400_000) {
      const iso = new Date(day).toISOString().slice(0, 10);
      const local = new Date(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)), 12);
      expect(isoWeekOf(d(iso)), iso).toBe(`${getISOWeekYear(local)}-W${String(getISOWeek(local)).padStart(2, '0')}`);
    }
  });

  it('reads years 0000-0099 as they are, not as 1900-1999 (as `date -u -d 0050-06-15 +%G-W%V` does)', () => {
    const gnu: [string, string, string][] = [
      ['0000-01-03', '0000-W01', 'Mon'],
      ['0000-02-29', '0000-W09', 'Tue'],
      ['0001-01-01', '0001-W01', 'Mon'],
      ['0050-06-15', '0050-W24', 'Wed'],
      ['0099-12-31', '0099-W53', 'Thu'],
      ['0100-01-01', '0099-W53', 'Fri'],
    ];
    for (const [day, week, name] of gnu) expect([isoWeekOf(d(day)), weekdayName(d(day))], day).toEqual([week, name]);
    expect(weekDates('0050-W24' as IsoWeek)).toContain('0050-06-15');
    expect(isoWeeksInYear(99)).toBe(53);
    expect(addDays(d('0099-12-31'), 1)).toBe('0100-01-01');
    expect(daysBetween(d('0000-03-01'), d('0400-03-01'))).toBe(146_097);
    expect(todayIn('UTC', new Date('0050-06-15T10:00:00Z'))).toBe('0050-06-15');
    // 0000-01-01 and -02 are in a week of year -1, which holds no node: January 0000 starts at W01.
    expect(weeksTouchingMonth('0000-01' as MonthId)[0]).toBe('0000-W01');
  });

  it('partitions every year into consecutive 7-day weeks (no day lost or counted twice)', () => {
    for (const year of [2015, 2020, 2026, 2027, 2028]) {
      const seen = new Set<string>();
      for (let w = 1; w <= isoWeeksInYear(year); w++) {
        const days = weekDates(`${year}-W${String(w).padStart(2, '0')}` as IsoWeek);
        expect(days).toHaveLength(7);
        expect(weekdayName(days[0]!)).toBe('Mon');
        for (let i = 1; i < 7; i++) expect(daysBetween(days[i - 1]!, days[i]!)).toBe(1);
        for (const x of days) {
          expect(seen.has(x)).toBe(false);
          seen.add(x);
        }
      }
    }
  });

  it('rejects weeks that do not exist', () => {
    expect(parseIsoWeek('2027-W53')).toBeNull();
    expect(parseIsoWeek('2026-W53')).toBe('2026-W53');
    expect(parseIsoWeek('2026-W00')).toBeNull();
  });
});

describe('months and weeks that straddle them', () => {
  it('lists the weeks touching a month; a straddling week touches both', () => {
    expect(weeksTouchingMonth('2026-03' as MonthId)).toEqual(['2026-W09', '2026-W10', '2026-W11', '2026-W12', '2026-W13', '2026-W14']);
    expect(weeksTouchingMonth('2026-04' as MonthId)[0]).toBe('2026-W14');
  });

  it('keeps 2028-W18 (May 1-7) wholly in May (pitfall 2)', () => {
    expect(weekDates('2028-W18' as IsoWeek)).toEqual([
      '2028-05-01',
      '2028-05-02',
      '2028-05-03',
      '2028-05-04',
      '2028-05-05',
      '2028-05-06',
      '2028-05-07',
    ]);
    expect(weeksTouchingMonth('2028-04' as MonthId)).not.toContain('2028-W18');
    expect(weeksTouchingMonth('2028-05' as MonthId)[0]).toBe('2028-W18');
  });

  it('knows month lengths, leap years included', () => {
    expect(monthDates('2028-02' as MonthId)).toHaveLength(29);
    expect(monthDates('2026-02' as MonthId)).toHaveLength(28);
  });
});

describe('dates', () => {
  it('rejects impossible dates such as 2026-02-30', () => {
    expect(parseLocalDate('2026-02-30')).toBeNull();
    expect(parseLocalDate('2026-13-01')).toBeNull();
    expect(parseLocalDate('2028-02-29')).toBe('2028-02-29');
    expect(parseLocalDate('2000-02-29')).toBe('2000-02-29');
    expect(parseLocalDate('2100-02-29')).toBeNull();
    expect(parseLocalDate('2026-04-31')).toBeNull();
    expect(parseLocalDate('2026-12-31')).toBe('2026-12-31');
    expect(parseLocalDate('2026-2-3')).toBeNull();
  });

  it('counts days across DST changes as whole days', () => {
    expect(daysBetween(d('2026-03-07'), d('2026-03-09'))).toBe(2);
    expect(addDays(d('2026-10-24'), 2)).toBe('2026-10-26');
  });
});

describe('time zones', () => {
  // A guard: the zones the list names are taken without a formatter (see isValidTimeZone).
  it('are the names a formatter takes, whether or not the list of zones names them', () => {
    const formatterTakes = (tz: string) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    };
    const names = [...Intl.supportedValuesOf('timeZone'), 'UTC', 'utc', 'Etc/UTC', 'GMT', 'US/Eastern', 'europe/berlin', 'Asia/Calcutta'];
    for (const tz of names) expect(isValidTimeZone(tz), tz).toBe(true);
    for (const tz of names) expect(formatterTakes(tz), tz).toBe(true);
    for (const tz of ['Mars/Olympus', '', 'Europe/Berlin ', 'Europe']) expect(isValidTimeZone(tz), tz).toBe(false);
  });

  it("takes today's date in the configured zone, not UTC", () => {
    const instant = new Date('2026-03-15T23:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-03-15');
    expect(todayIn('Asia/Seoul', instant)).toBe('2026-03-16');
    expect(todayIn('America/Los_Angeles', new Date('2026-03-16T06:30:00Z'))).toBe('2026-03-15');
  });

  it('handles the DST change day in New York (a 23-hour day)', () => {
    // 2026-03-08: clocks jump from 02:00 to 03:00 local.
    expect(todayIn('America/New_York', new Date('2026-03-08T04:59:00Z'))).toBe('2026-03-07');
    expect(todayIn('America/New_York', new Date('2026-03-08T05:00:00Z'))).toBe('2026-03-08');
    expect(todayIn('America/New_York', new Date('2026-03-09T03:59:00Z'))).toBe('2026-03-08');
    expect(todayIn('America/New_York', new Date('2026-03-09T04:00:00Z'))).toBe('2026-03-09');
  });

  it('injects now as a date or as an instant converted into the zone', () => {
    expect(resolveClock('Asia/Seoul', '2026-03-15').today).toBe('2026-03-15');
    expect(resolveClock('Asia/Seoul', '2026-03-15T23:30:00Z').today).toBe('2026-03-16');
    expect(() => resolveClock('UTC', '2026-02-30')).toThrow(/not a date/);
    expect(resolveClock('UTC', undefined, { HIPO_NOW: '2027-01-01' }).today).toBe('2027-01-01');
  });

  it('takes an injected date as noon of that day in the zone, east of UTC+12 too', () => {
    for (const tz of ['UTC', 'Pacific/Honolulu', 'Asia/Seoul', 'Pacific/Auckland', 'Pacific/Kiritimati']) {
      const clock = resolveClock(tz, '2027-01-05');
      expect(zonedParts(clock.instant, tz), tz).toMatchObject({ date: '2027-01-05', time: '12:00:00' });
    }
  });

  it('reads an injected date and time without an offset in the configured zone, with one as an instant', () => {
    const at = (tz: string, now: string) => resolveClock(tz, now).instant.toISOString();
    expect(resolveClock('Pacific/Auckland', '2027-01-05T22:30').today).toBe('2027-01-05');
    expect(at('Pacific/Auckland', '2027-01-05T22:30')).toBe('2027-01-05T09:30:00.000Z');
    expect(at('Asia/Seoul', '2026-03-15T23:30:15.250')).toBe('2026-03-15T14:30:15.250Z');
    // Either side of New York's DST changes: the offset in force at that wall time.
    expect(at('America/New_York', '2026-03-08T01:30')).toBe('2026-03-08T06:30:00.000Z');
    expect(at('America/New_York', '2026-03-08T03:30')).toBe('2026-03-08T07:30:00.000Z');
    expect(at('America/New_York', '2026-11-01T00:30')).toBe('2026-11-01T04:30:00.000Z');
    expect(at('America/New_York', '2026-11-01T12:00')).toBe('2026-11-01T17:00:00.000Z');
    expect(at('Pacific/Auckland', '2027-01-05T22:30Z')).toBe('2027-01-05T22:30:00.000Z');
    expect(at('UTC', '2027-01-05T22:30:00+09:00')).toBe('2027-01-05T13:30:00.000Z');
    expect(at('UTC', '2027-01-05T22:30-0530')).toBe('2027-01-06T04:00:00.000Z');
    expect(at('UTC', '0050-06-15T10:00:00Z')).toBe('0050-06-15T10:00:00.000Z');
  });

  it('moves an injected wall time that a DST change skips forward, on its own day, west of UTC too', () => {
    const at = (tz: string, now: string) => resolveClock(tz, now);
    // Havana and Santiago skip from midnight to 01:00: the hour before the gap is the day before.
    for (const [tz, now, iso] of [
      ['America/Havana', '2026-03-08T00:30', '2026-03-08T05:30:00.000Z'],
      ['America/Santiago', '2026-09-06T00:00', '2026-09-06T04:00:00.000Z'],
      ['America/New_York', '2026-03-08T02:30', '2026-03-08T07:30:00.000Z'],
      ['Europe/Berlin', '2026-03-29T02:30', '2026-03-29T01:30:00.000Z'],
    ] as const) {
      expect(at(tz, now).today, `${tz} ${now}`).toBe(now.slice(0, 10));
      expect(at(tz, now).instant.toISOString(), `${tz} ${now}`).toBe(iso);
    }
    // A repeated wall time stays one of its two instants.
    expect(at('America/New_York', '2026-11-01T01:30').instant.toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('refuses an injected date and time that does not exist, instead of rolling it over', () => {
    expect(() => resolveClock('UTC', '2027-02-30T10:00:00Z')).toThrow('--now: "2027-02-30T10:00:00Z": 2027-02-30 is not a calendar date');
    expect(() => resolveClock('UTC', '2027-02-28T24:00')).toThrow('2027-02-28T24:00": 24:00 is not a time of day');
    expect(() => resolveClock('UTC', '2027-02-28T10:60:00')).toThrow('2027-02-28T10:60:00": 10:60:00 is not a time of day');
    expect(() => resolveClock('UTC', '2027-02-28T10:00+25:00')).toThrow('+25:00 is not a UTC offset');
    expect(() => resolveClock('UTC', 'tomorrow')).toThrow(/is not a date or a date and time \(YYYY-MM-DD, or YYYY-MM-DDTHH:MM/);
  });
});

function gnuDateWeeks(): string[] | null {
  try {
    const out = execFileSync('date', ['-f', '-', '+%F %G-W%V'], {
      input: Array.from({ length: 14 * 366 }, (_, i) => addDays(d('2015-01-01'), i)).join('\n'),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    return out.trim().split('\n');
  } catch {
    return null;
  }
}
