// The line under ROOT's `## Active Context (recent ~7 days)` heading when the newest activity is
// older than that window: after a user's weeks away the section holds the last days they were
// active, and without a date an agent would take weeks-old work for this week's. The heading
// itself stays as it is (the LLM prompts, the answer check and the pack's ranking match it);
// the line is written by ROOT (compose/root.ts) and re-dated by whoever shows ROOT on a later
// day (context/root-view.ts), as the topic ages are.
import { daysBetween, parseLocalDate, type LocalDate } from '../time/calendar.js';

const LINE = /^- Last active (\d{4}-\d{2}-\d{2}), \d+ days? before today\b(?:.*?nothing in the last (\d+) days?)?.*$/m;
const ACTIVE_HEADING = /^## Active Context\b.*$/m;

const days = (n: number): string => `${n} day${n === 1 ? '' : 's'}`;

/** Whether `last` is outside a window of `windowDays` ending today (the window ROOT's section is built from). */
export function outsideWindow(last: LocalDate, today: LocalDate, windowDays: number): boolean {
  return windowDays > 0 && daysBetween(last, today) >= windowDays;
}

export function lastActiveLine(last: LocalDate, today: LocalDate, windowDays: number): string {
  return `- Last active ${last}, ${days(daysBetween(last, today))} before today (${today}): nothing in the last ${days(windowDays)}.`;
}

export function isLastActiveLine(line: string): boolean {
  return LINE.test(line);
}

/** The date and window the body's last-active line names, if it has one. */
export function lastActiveOf(body: string): { last: LocalDate; windowDays: number } | null {
  const m = LINE.exec(body);
  const last = m ? parseLocalDate(m[1]!) : null;
  return last && { last, windowDays: Number(m![2] ?? 0) };
}

/** `lines` without a last-active line (a model may copy the one it was shown). */
export function withoutLastActive(lines: string): string {
  return lines
    .split('\n')
    .filter((l) => !LINE.test(l))
    .join('\n');
}

/**
 * A ROOT body whose Active Context says `line` right under its heading (in place of the one it
 * had), or no such line when `line` is null. A body without the section is left as it is.
 */
export function withLastActive(body: string, line: string | null): string {
  const bare = LINE.test(body) ? body.replace(new RegExp(`${LINE.source}\\n?`, 'm'), '') : body;
  if (line === null) return bare;
  return ACTIVE_HEADING.test(bare) ? bare.replace(ACTIVE_HEADING, (h) => `${h}\n${line}`) : body;
}
