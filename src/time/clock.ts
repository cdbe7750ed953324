// "Now" for a command: the real clock, or an injected date (`--now`, HIPO_NOW) so that tests,
// dry runs and replays are deterministic.
import { readFileSync } from 'node:fs';
import { parseLocalDate, zonedInstant, zonedParts, type LocalDate } from './calendar.js';

export interface Clock {
  /** Today's civil date in the configured time zone. */
  readonly today: LocalDate;
  /** The instant used for timestamps (real time unless injected). */
  readonly instant: Date;
  readonly timeZone: string;
  /** True when the date was injected rather than read from the system clock. */
  readonly injected: boolean;
}

export class ClockError extends Error {}

/**
 * `HIPO_NOW_FILE` names a file holding the injected date, read afresh every time: a
 * long-running process (the daemon) can be moved through days in tests and demos.
 */
function fromFile(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** `YYYY-MM-DDTHH:MM`, seconds and a fraction optional, then `Z`, an offset, or nothing. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/;

const FORMS = 'YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS] with Z, an offset such as +09:00, or none (the configured time zone)';

/**
 * Accepts `YYYY-MM-DD` (a civil date in `timeZone`) or a date and time: with `Z` or an offset
 * it is an instant, converted into `timeZone`; without one it is a wall-clock time in
 * `timeZone`, whatever the TZ of the shell that gave it.
 */
export function resolveClock(timeZone: string, now?: string, env: NodeJS.ProcessEnv = process.env): Clock {
  const raw = now ?? (env.HIPO_NOW || fromFile(env.HIPO_NOW_FILE));
  if (raw === undefined || raw === '') {
    const instant = new Date();
    return { today: zonedParts(instant, timeZone).date, instant, timeZone, injected: false };
  }
  const date = parseLocalDate(raw);
  // Noon of that day where the user is: noon UTC is already the next day east of UTC+12
  // (Auckland in summer, Tonga, Kiritimati), so entries logged then were timed 01:00 or 02:00.
  if (date) return { today: date, instant: zonedInstant(date, 12 * 3_600_000, timeZone), timeZone, injected: true };
  const instant = dateTime(raw, timeZone);
  return { today: zonedParts(instant, timeZone).date, instant, timeZone, injected: true };
}

/** Reads the date-time forms by hand: Date rolls 02-30 into March and reads no offset in the shell's TZ. */
function dateTime(raw: string, timeZone: string): Date {
  const m = DATE_TIME.exec(raw);
  if (!m) throw new ClockError(`--now: "${raw}" is not a date or a date and time (${FORMS})`);
  const [, day, hh, mm, ss, fraction = '', zulu, sign, oh = '00', om = '00'] = m;
  const date = parseLocalDate(day!);
  if (!date) throw new ClockError(`--now: "${raw}": ${day} is not a calendar date`);
  const [h, min, sec] = [Number(hh), Number(mm), Number(ss ?? 0)];
  if (h > 23 || min > 59 || sec > 59) throw new ClockError(`--now: "${raw}": ${raw.slice(11, ss ? 19 : 16)} is not a time of day`);
  const msOfDay = ((h * 60 + min) * 60 + sec) * 1000 + Math.floor(Number(`0${fraction}`) * 1000);
  if (!zulu && !sign) return zonedInstant(date, msOfDay, timeZone);
  if (Number(oh) > 23 || Number(om) > 59) throw new ClockError(`--now: "${raw}": ${sign}${oh}:${om} is not a UTC offset`);
  const ahead = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  return new Date(zonedInstant(date, msOfDay, 'UTC').getTime() - ahead * 60_000);
}
