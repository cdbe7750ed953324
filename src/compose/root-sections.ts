// The lines of each ROOT.md section, ranked best first (the budget keeps a prefix of each
// section, compose/budget.ts) and shown in an order a person reads easily.
import { daysBetween, monthOf, type LocalDate } from '../time/calendar.js';
import { FACT_CATEGORIES, type FactCategory, type FactInfo } from '../tree/fact.js';
import type { MemoryType } from '../tree/layout.js';
import type { TopicInfo } from '../tree/topic.js';
import { CATEGORY_TITLES } from '../summarize/facts/category.js';
import { distinctFacts, rankFacts } from '../summarize/facts/profile.js';
import { clip } from '../summarize/classify.js';
import { factDigest } from '../summarize/facts/digest.js';
import { isPastPlan } from '../summarize/facts/past.js';

/** One section's lines: `ranked` best first, `show` puts the kept ones in reading order. */
export interface SectionLines<T> {
  ranked: T[];
  line: (x: T) => string;
  /** Extra lines a kept item brings with it the first time (a group's heading, a month's label). */
  header?: (x: T) => string | readonly string[] | null;
  show: (kept: T[]) => string[];
}

/** `05-29` within the year of `today`, the full date before it. */
function shortDate(d: LocalDate, today: LocalDate): string {
  return d.slice(0, 4) === today.slice(0, 4) ? d.slice(5) : d;
}

// ---- Profile and Rules ----------------------------------------------------------------------

const FACT_LINE_MAX = 200;
/**
 * The most salient facts are shown as the user said them; when they do not all fit, every later
 * one is shown by its digest (the names and amounts it holds, summarize/facts/digest.ts), on one
 * `- Also in <month>:` line per category and month, newest month first: the month names the
 * monthly node (and its days) that hold the sentence. A sentence costs about six digests, and a
 * digest says what each name is ("Bell Zephyr helmet"), so sentences get a tenth of the
 * profile's room (at least three of them): a small memory reads as sentences, a long history
 * names several times more of the user's life as digests.
 */
const SENTENCE_PART = 0.1;
const MIN_SENTENCES = 3;
export const ALSO_LINE = /^- Also(?: in (\d{4}-\d{2}))?: /;
export const ALSO_SEPARATOR = ' · ';
const alsoLine = (month: string, digests: readonly string[]): string => `- Also in ${month}: ${digests.join(ALSO_SEPARATOR)}`;

/** What the profile's lines may cost in all, and how a line is counted (ROOT's tokens). */
export interface ProfileRoom {
  allowance: number;
  cost: (line: string) => number;
}

/** How many of the ranked facts are shown as sentences within `room`. */
function sentenceCount(lines: readonly string[], room: ProfileRoom): number {
  const costs: number[] = [];
  let all = 0;
  for (const l of lines) {
    costs.push(room.cost(l));
    all += costs.at(-1)!;
    if (all > room.allowance) break;
  }
  if (all <= room.allowance) return lines.length;
  let n = 0;
  let spent = 0;
  while (n < costs.length && (n < MIN_SENTENCES || spent + costs[n]! <= room.allowance * SENTENCE_PART)) spent += costs[n++]!;
  return n;
}

export function profileSection(
  facts: readonly FactInfo[],
  today: LocalDate,
  linkFor: (d: LocalDate) => string,
  room: ProfileRoom,
): SectionLines<FactInfo> {
  // Only a budget's worth can be shown; a few hundred candidates are plenty.
  const distinct = distinctFacts(
    rankFacts(
      facts.filter((f) => f.type === 'user'),
      today,
    ),
    600,
  );
  // A plan whose date is behind is history: said as such, and after every current fact.
  const past = new Set(distinct.filter((f) => isPastPlan(f.text, f.lastSeen, today)));
  const ranked = [...distinct.filter((f) => !past.has(f)), ...past];
  const sentence = (f: FactInfo): string =>
    `- ${clip(f.text, FACT_LINE_MAX)}${past.has(f) ? ' — past' : ''} ([${shortDate(f.lastSeen, today)}](${linkFor(f.lastSeen)}))`;
  const sentences = sentenceCount(ranked.map(sentence), room);
  const digests = new Map<FactInfo, string>();
  ranked.forEach((f, i) => {
    if (i >= sentences) digests.set(f, factDigest(f.text));
  });
  // A fact that names nothing has no digest: past the sentences, it is not shown.
  const user = ranked.filter((f) => digests.get(f) !== '');
  const line = (f: FactInfo): string => digests.get(f) ?? sentence(f);
  const category = (f: FactInfo): FactCategory => f.category ?? 'other';
  const title = (f: FactInfo): string => `### ${CATEGORY_TITLES[category(f)]}`;
  return {
    ranked: user,
    line,
    // A digest's month label is paid once per category and month (its text makes it unique).
    header: (f) => (digests.has(f) ? [title(f), `${alsoLine(monthOf(f.lastSeen), [])} ${category(f)}`] : title(f)),
    show: (kept) => {
      const out: string[] = [];
      for (const c of FACT_CATEGORIES) {
        // Best first within a category: a reader (and the context pack) takes the top lines.
        const group = kept.filter((f) => category(f) === c);
        if (!group.length) continue;
        out.push(title(group[0]!), ...group.filter((f) => !digests.has(f)).map(sentence));
        const byMonth = new Map<string, string[]>();
        for (const f of group)
          if (digests.has(f)) byMonth.set(monthOf(f.lastSeen), [...(byMonth.get(monthOf(f.lastSeen)) ?? []), digests.get(f)!]);
        for (const m of [...byMonth.keys()].sort().reverse()) out.push(alsoLine(m, byMonth.get(m)!));
      }
      return out;
    },
  };
}

export function rulesSection(facts: readonly FactInfo[], today: LocalDate, linkFor: (d: LocalDate) => string): SectionLines<FactInfo> {
  // Rules are kept newest first: a later rule is the one in force.
  const rules = rankFacts(
    facts.filter((f) => f.type === 'feedback'),
    today,
  ).sort((a, b) => (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : 0));
  // The section says these are rules; a typed rule's own "rule:" label would say it twice.
  const line = (f: FactInfo): string =>
    `- ${clip(f.text.replace(/^rule:\s*/i, ''), 320)} ([${shortDate(f.lastSeen, today)}](${linkFor(f.lastSeen)}))`;
  return { ranked: rules, line, show: (kept) => kept.map(line) };
}

// ---- Topics Index: the whole history, detail falling with age -------------------------------

export interface IndexTopic extends TopicInfo {
  age: number;
  /** The month, quarter or year the topic was last seen in, as the index groups history. */
  group: string;
  /** Months between that group and today's month. */
  groupAge: number;
}

const TYPE_ORDER: Record<MemoryType, number> = { user: 0, feedback: 1, project: 2, reference: 3 };

function monthIndex(m: string): number {
  return Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
}

/**
 * The period a topic's last mention falls in, coarser with age: its quarter once the whole
 * quarter is 12 months old, its year once the whole year is 36, else its month. Graded by the
 * month alone, a year's January would be `2024` beside `2024-Q1` for its February and March.
 */
function historyGroup(lastSeen: LocalDate, today: LocalDate): { label: string; age: number } {
  const m = monthOf(lastSeen);
  const now = monthIndex(monthOf(today));
  const age = Math.max(0, now - monthIndex(m));
  const year = Number(m.slice(0, 4));
  const quarter = Math.floor((Number(m.slice(5, 7)) - 1) / 3);
  // Months since the year's December and the quarter's last month.
  if (now - (year * 12 + 11) >= 36) return { label: m.slice(0, 4), age };
  if (now - (year * 12 + quarter * 3 + 2) >= 12) return { label: `${m.slice(0, 4)}-Q${quarter + 1}`, age };
  return { label: m, age };
}

/**
 * Topics ranked so that every period of the history comes early: the j-th topic of a period
 * `a` months old ranks at j × (1 + a / 3), so this month's top topics come first, but the first
 * topic of every month, quarter and year comes before the fourth of this month.
 */
export function topicsSection(
  topics: readonly TopicInfo[],
  today: LocalDate,
  stale: { referenceDays: number; projectDays: number },
  pointerFor: (t: TopicInfo) => string,
): SectionLines<IndexTopic> {
  const groups = new Map<string, IndexTopic[]>();
  for (const t of topics) {
    const g = historyGroup(t.lastSeen, today);
    const it: IndexTopic = { ...t, age: Math.max(0, daysBetween(t.lastSeen, today)), group: g.label, groupAge: g.age };
    const list = groups.get(g.label);
    if (list) list.push(it);
    else groups.set(g.label, [it]);
  }
  const scored: { t: IndexTopic; p: number }[] = [];
  for (const list of groups.values()) {
    // User and feedback topics first; project topics unseen for projectStaleDays last.
    const order = (t: IndexTopic): number => (t.type === 'project' && t.age >= stale.projectDays ? 4 : TYPE_ORDER[t.type]);
    list.sort((a, b) => order(a) - order(b) || b.days - a.days || a.age - b.age || a.name.localeCompare(b.name));
    list.forEach((t, j) => scored.push({ t, p: j * (1 + t.groupAge / 3) }));
  }
  scored.sort(
    (a, b) =>
      a.p - b.p ||
      a.t.groupAge - b.t.groupAge ||
      TYPE_ORDER[a.t.type] - TYPE_ORDER[b.t.type] ||
      b.t.days - a.t.days ||
      a.t.name.localeCompare(b.t.name),
  );
  // (TYPE_ORDER breaks ties between groups only: within a group the order above holds.)
  const line = (t: IndexTopic): string => {
    const tag = `${t.type}, ${t.age}d${t.type === 'reference' && t.age > stale.referenceDays ? ', ?' : ''}`;
    const kws = t.keywords.slice(0, t.age > 30 ? 2 : 4);
    const to = pointerFor(t);
    return `- ${t.name} [${tag}]${kws.length ? `: ${kws.join(', ')}` : ''} → [${to.replace(/^.*\/|\.md$/g, '')}](${to})`;
  };
  return {
    ranked: scored.map((x) => x.t),
    line,
    // Newest first, as the spec's index reads; within a day, the most mentioned first.
    show: (kept) => [...kept].sort((a, b) => a.age - b.age || b.days - a.days || a.name.localeCompare(b.name)).map(line),
  };
}

// ---- Historical Summary ---------------------------------------------------------------------

export function historySection(
  months: readonly { month: string; topics: readonly TopicInfo[] }[],
  today: LocalDate,
  topByDays: (lists: (readonly TopicInfo[])[], n: number) => { name: string }[],
): SectionLines<{ label: string; text: string }> {
  const groups: { label: string; lists: (readonly TopicInfo[])[] }[] = [];
  for (const m of months) {
    const label = historyGroup(`${m.month}-01` as LocalDate, today).label;
    const g = groups[groups.length - 1];
    if (g && g.label === label) g.lists.push(m.topics);
    else groups.push({ label, lists: [m.topics] });
  }
  const lines = groups.map((g) => ({
    label: g.label,
    text: `- ${g.label}: ${
      topByDays(g.lists, 4)
        .map((t) => t.name)
        .join('; ') || '(no topics)'
    }`,
  }));
  // The newest periods are worth most; the oldest go first when room is short.
  return { ranked: [...lines].reverse(), line: (x) => x.text, show: (kept) => lines.filter((l) => kept.includes(l)).map((l) => l.text) };
}

// ---- Plain lists (Active Context, Recent Patterns) ------------------------------------------

export function listSection(ranked: string[], show?: (kept: string[]) => string[]): SectionLines<string> {
  return { ranked, line: (l) => l, show: show ?? ((kept) => kept) };
}
