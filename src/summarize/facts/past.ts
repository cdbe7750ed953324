// A user fact about a dated plan that is over: "Dentist appointment 2026-11-19 at 09:30" said on
// 2026-11-05 was ahead then and is behind on 2026-11-23. User facts never age out, so without
// this the profile would present the appointment as coming for ever. Only a date that was still
// ahead (or that day) when the fact was said makes a plan: "I joined Lindenhof Labs on 2024-03-01",
// said in 2026, states since when something holds, not an event that has passed since.
//
// Worked dates, said 2026-11-05:
//   "Dentist appointment 2026-11-19"           past from 2026-11-20
//   "on call the week of 2026-11-09"           past from 2026-11-16 (a week runs to its Sunday)
//   "offsite 2026-11-10, report by 2026-12-04" past from 2026-12-05 (its latest date)
//   "joined on 2024-03-01"                     never (behind when said)
//   "dentist next Thursday"                    never (no date hipo can read without guessing)
//   "Dentist this morning; working from 13:00" past from 2026-11-06 (the day it was said)
//   "flight to Lisbon tomorrow at 07:10"       past from 2026-11-07
//   "my morning routine", "this morning routine playlist", "started a new job today"
//                                              never ("today" is as often "these days", or a
//                                              start of something that goes on)
import { addDays, parseLocalDate, type LocalDate } from '../../time/calendar.js';

const ISO_DATE = /\b(week of\s+)?(\d{4}-\d{2}-\d{2})\b/gi;

/** The last day a fact's dates cover, or null when it names none. */
function lastNamedDay(text: string): LocalDate | null {
  let last: LocalDate | null = null;
  for (const m of text.matchAll(ISO_DATE)) {
    const day = parseLocalDate(m[2]!);
    if (!day) continue;
    const end = m[1] ? addDays(day, 6) : day;
    if (!last || end > last) last = end;
  }
  return last;
}

// A part of the day it was said, or the next day, as a time on its own ("this morning;",
// "tonight with Ana", "tomorrow at 07:10"), not as a word of a name ("this morning routine").
const DAY_PART = new RegExp(
  '\\b(tomorrow|tonight|this (?:morning|afternoon|evening))' +
    '(?=\\s*(?:[,.;:!?)—–-]|$)|\\s+(?:at|and|but|so|in|on|with|from|before|after|until|i|we)\\b)',
  'i',
);

/** Whether the fact, said on `said`, is a plan whose dates are all behind `today`. */
export function isPastPlan(text: string, said: LocalDate, today: LocalDate): boolean {
  let last = lastNamedDay(text);
  const part = DAY_PART.exec(text);
  const relative = part ? addDays(said, /^tomorrow$/i.test(part[1]!) ? 1 : 0) : null;
  if (relative && (!last || relative > last)) last = relative;
  return last !== null && last >= said && last < today;
}
