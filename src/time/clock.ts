// "Now" for a command: the real clock, or an injected date (`--now`, HIPO_NOW) so that tests,
// dry runs and replays are deterministic.
import { readFileSync } from 'node:fs';
import { parseLocalDate, zonedParts, type LocalDate } from './calendar.js';

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

/**
 * Accepts `YYYY-MM-DD` (a civil date in `timeZone`) or an ISO-8601 instant with an offset
 * (`2026-03-15T23:30:00Z`), which is converted into `timeZone`.
 */
export function resolveClock(timeZone: string, now?: string, env: NodeJS.ProcessEnv = process.env): Clock {
  const raw = now ?? (env.HIPO_NOW || fromFile(env.HIPO_NOW_FILE));
  if (raw === undefined || raw === '') {
    const instant = new Date();
    return { today: zonedParts(instant, timeZone).date, instant, timeZone, injected: false };
  }
  const date = parseLocalDate(raw);
  if (date) return { today: date, instant: new Date(`${date}T12:00:00Z`), timeZone, injected: true };
  if (/^\d{4}-\d{2}-\d{2}T/.test(raw)) {
    const instant = new Date(raw);
    if (!Number.isNaN(instant.getTime())) {
      return { today: zonedParts(instant, timeZone).date, instant, timeZone, injected: true };
    }
  }
  throw new ClockError(`--now: "${raw}" is not a date (YYYY-MM-DD) or an ISO-8601 instant`);
}
