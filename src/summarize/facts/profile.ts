// The user's profile over time: every user and feedback fact of a node, with the day it was
// last said and on how many days, merged across nodes (the same fact said again is one fact
// seen more often; a new value for the same slot replaces the old one), and ranked for a
// budget by salience, recurrence and recency. ROOT's Profile and Rules are built from it.
import { daysBetween, type LocalDate } from '../../time/calendar.js';
import type { Analysis } from '../analyze.js';
import type { Entry } from '../entries.js';
import type { FactInfo } from '../../tree/fact.js';
import { factsOfEntry } from './extract.js';
import { wordOverlap } from '../keywords.js';

export type DatedFact = FactInfo;

/**
 * A day from an origin label (`05-29`, `W21`) read in a node that covers `from`..`to`: the year
 * is the one that puts the day inside (or nearest to) that range.
 */
function dayFromLabel(label: string, from: LocalDate, to: LocalDate): LocalDate | null {
  const md = /^(\d{2})-(\d{2})$/.exec(label);
  if (!md) return null;
  const year = Number(to.slice(0, 4));
  let best: LocalDate | null = null;
  let bestGap = Infinity;
  for (const y of [year - 1, year, year + 1]) {
    const d = `${y}-${md[1]}-${md[2]}` as LocalDate;
    const gap = d < from ? daysBetween(d, from) : d > to ? daysBetween(to, d) : 0;
    if (gap < bestGap) {
      bestGap = gap;
      best = d;
    }
  }
  return best;
}

/** When an entry's fact was said: its origin label, the day its heading gives, or the node's end. */
function dayOf(e: Entry, origin: string | undefined, from: LocalDate, to: LocalDate): LocalDate {
  const label = origin?.replace(/ · $/, '');
  const fromLabel = label ? dayFromLabel(label, from, to) : null;
  return fromLabel ?? (e.day as LocalDate | null) ?? to;
}

/**
 * The user and feedback facts of a node's analysed text, one per key (the latest day kept, the
 * days counted), a slot's older values dropped for its newest.
 */
export function nodeFacts(a: Analysis, from: LocalDate, to: LocalDate): DatedFact[] {
  const all: DatedFact[] = [];
  for (const e of a.entries) {
    for (const { fact, origin } of factsOfEntry(e)) {
      if (fact.type === 'reference') continue;
      all.push({ ...fact, type: fact.type, lastSeen: dayOf(e, origin, from, to), days: 1 });
    }
  }
  return mergeFacts([all]);
}

/** Facts of several nodes (oldest first) as one list: restatements merged, slots updated. */
export function mergeFacts(lists: readonly (readonly DatedFact[])[]): DatedFact[] {
  const byKey = new Map<string, DatedFact>();
  for (const list of lists) {
    for (const f of list) {
      const cur = byKey.get(f.key);
      if (!cur) byKey.set(f.key, { ...f });
      else {
        const days = cur.lastSeen === f.lastSeen ? Math.max(cur.days, f.days) : cur.days + f.days;
        byKey.set(f.key, f.lastSeen >= cur.lastSeen ? { ...f, days } : { ...cur, days });
      }
    }
  }
  // A slot holds its newest value ("my commute takes 30 minutes now" replaces "45 minutes").
  const newest = new Map<string, DatedFact>();
  for (const f of byKey.values()) {
    if (!f.slot) continue;
    const cur = newest.get(f.slot);
    if (!cur || f.lastSeen > cur.lastSeen || (f.lastSeen === cur.lastSeen && f.salience > cur.salience)) newest.set(f.slot, f);
  }
  return [...byKey.values()].filter((f) => !f.slot || newest.get(f.slot) === f);
}

/**
 * How much a fact deserves a place in a small budget: what it says, how often it was said, and
 * a little for being recent (a profile is not a news feed: user facts never age out).
 */
function profileScore(f: DatedFact, today: LocalDate): number {
  const age = Math.max(0, daysBetween(f.lastSeen, today));
  // A long statement costs the room of two short ones.
  const length = Math.max(0, f.text.length - 90) / 200;
  return f.salience + 0.6 * Math.log2(f.days) + 0.5 / (1 + age / 90) - length;
}

const WORD = /[\p{L}\p{N}]{3,}/gu;

/**
 * Drops facts that say nearly what a better-ranked one says (half or more of their words in
 * common): "I took Lola to the vet last week, $50" and "When I took Lola to the vet last week
 * the fee was $50". Stops once `enough` facts are kept: only a budget's worth is ever shown.
 */
export function distinctFacts(ranked: readonly DatedFact[], enough: number): DatedFact[] {
  const kept: { f: DatedFact; words: Set<string> }[] = [];
  for (const f of ranked) {
    if (kept.length >= enough) break;
    const words = new Set(f.text.toLowerCase().match(WORD) ?? []);
    if (!kept.some((k) => wordOverlap(words, k.words) >= 0.6)) kept.push({ f, words });
  }
  return kept.map((k) => k.f);
}

/** Facts best first; ties by newest, then text, so the order is stable. */
export function rankFacts(facts: readonly DatedFact[], today: LocalDate): DatedFact[] {
  const score = new Map(facts.map((f) => [f, profileScore(f, today)]));
  return [...facts].sort(
    (a, b) =>
      score.get(b)! - score.get(a)! || (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : 0) || a.text.localeCompare(b.text),
  );
}
