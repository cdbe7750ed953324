// Which raw log a session's turns go to. A session that runs past midnight stays in the log of
// the day it started, so one evening's work is one day. A session resumed after a long pause
// (the next morning, or weeks later with --resume) is a new sitting: its turns go to the log of
// the day it resumed. Kept in the day it started, today's work would be dated weeks back: ROOT's
// Active Context and topic ages, and the session-start pack, would not show it as recent.
import { daysBetween, zonedParts, type LocalDate } from '../time/calendar.js';
import type { TranscriptMessage } from './transcript.js';
import type { Turn } from './turns.js';

/** A pause this long before a prompt on a later day starts a new sitting. */
const RESUME_PAUSE_MS = 4 * 60 * 60 * 1000;

export interface Sitting {
  readonly date: LocalDate;
  readonly turns: Turn[];
}

function ms(ts: string | null): number | null {
  if (!ts) return null;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : t;
}

const later = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Splits turns (in transcript order) into sittings, the first in `date`. `lastSeenAt` is the
 * time of the latest message archived before these turns (null when not known: a session state
 * from an older hipo). Without a time to measure the pause from, only a prompt two or more days
 * after the sitting's day starts a new one: a night's session never reaches that.
 */
export function splitSittings(
  turns: readonly Turn[],
  messages: readonly TranscriptMessage[],
  date: LocalDate,
  lastSeenAt: string | null,
  timeZone: string,
): Sitting[] {
  const out: Sitting[] = [];
  let current: Sitting = { date, turns: [] };
  let seen = ms(lastSeenAt);
  let m = 0;
  for (const turn of turns) {
    // The latest message before this turn: its pause is measured from there.
    for (; m < messages.length && messages[m]!.offset < turn.start; m++) seen = later(seen, ms(messages[m]!.timestamp));
    const at = ms(turn.timestamp);
    if (!turn.continued && at !== null) {
      const day = zonedParts(new Date(at), timeZone).date;
      const resumed = seen !== null ? at - seen >= RESUME_PAUSE_MS : daysBetween(current.date, day) >= 2;
      if (day > current.date && resumed) {
        if (current.turns.length) out.push(current);
        current = { date: day, turns: [] };
      }
    }
    current.turns.push(turn);
  }
  if (current.turns.length || out.length === 0) out.push(current);
  return out;
}

/** The time of the latest message before byte `end` of the transcript, or `fallback`. */
export function lastSeenBefore(messages: readonly TranscriptMessage[], end: number, fallback: string | null): string | null {
  let best = ms(fallback);
  let at = fallback;
  for (const msg of messages) {
    if (msg.offset >= end) break;
    const t = ms(msg.timestamp);
    if (t !== null && (best === null || t > best)) {
      best = t;
      at = msg.timestamp;
    }
  }
  return at;
}
