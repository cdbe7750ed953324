// A fact of the user's profile as a node records it: a user or feedback fact with the day it
// was last said and on how many days. Found by summarize/facts; kept with a monthly node's
// record (and in the stamp cache) so that ROOT's Profile needs no re-reading of old months.
import type { LocalDate } from '../time/calendar.js';

export const FACT_CATEGORIES = [
  'identity',
  'work',
  'people',
  'pets',
  'home',
  'health',
  'possessions',
  'routines',
  'plans',
  'tastes',
  'pastimes',
  'other',
] as const;
export type FactCategory = (typeof FACT_CATEGORIES)[number];

export interface FactInfo {
  readonly type: 'user' | 'feedback';
  /** What a user fact is about; null for feedback. */
  readonly category: FactCategory | null;
  readonly text: string;
  /** How much it says about the user, from its words (summarize/facts/salience.ts). */
  readonly salience: number;
  /** Facts with the same key say the same thing. */
  readonly key: string;
  /** A later fact of the same slot replaces this one; null when it fills none. */
  readonly slot: string | null;
  readonly lastSeen: LocalDate;
  readonly days: number;
}
