// ROOT.md: what an agent loads at every session start (spec, "Monthly → Root"). Six sections:
//   Profile          what the user said about themselves (user facts never age out), by kind;
//   Rules            how the user wants the agent to work (feedback), newest first;
//   Active Context   open items, decisions and highlights of the recent days;
//   Recent Patterns  topics that keep coming back, lessons;
//   Historical Summary  each period's main topics, coarser with age;
//   Topics Index     topics over the whole history: every month, quarter or year is represented,
//                    recent ones in more detail (compose/root-sections.ts).
// The profile and rules come from the monthly nodes' facts, the topics from their topics (with
// stored last-seen dates, so ages are right on the day ROOT is written), the rest from the recent
// daily nodes. The sections share `rootMaxTokens` by `rootShares` (compose/budget.ts): each keeps
// its best lines within its share, and what one leaves unused goes to the others.
import { type CompactionConfig, ROOT_SECTIONS, type RootSection } from '../config/config.js';
import { parseLocalDate, type LocalDate } from '../time/calendar.js';
import type { FactInfo } from '../tree/fact.js';
import type { MemoryType } from '../tree/layout.js';
import type { TopicInfo } from '../tree/topic.js';
import { analyzeSources } from '../summarize/analyze.js';
import { TopicMerger, topTopicsByDays } from '../summarize/topic-merge.js';
import { buildDraft } from '../summarize/extractive.js';
import type { ExclusionRules } from '../summarize/exclusion.js';
import { collectEntries } from '../summarize/entries.js';
import { mergeFacts } from '../summarize/facts/profile.js';
import type { SourceDoc } from '../summarize/summarizer.js';
import { clip } from '../summarize/classify.js';
import { renderTemplate } from '../write/template.js';
import type { CountTokens } from '../text/tokens.js';
import { allocate } from './budget.js';
import { historySection, listSection, profileSection, rulesSection, topicsSection, type SectionLines } from './root-sections.js';
import type { SummaryMemo } from '../summarize/memo.js';
import { lastActiveLine, outsideWindow } from '../tree/last-active.js';

interface RootMonth {
  month: string;
  topics: readonly TopicInfo[];
  /** The monthly node's user and feedback facts. */
  facts?: readonly FactInfo[];
}

export interface RootInput {
  today: LocalDate;
  /** Every monthly node's topics and facts, oldest month first. */
  months: readonly RootMonth[];
  /** Daily nodes for Active Context (the last `activeContextDays`, or the latest ones). */
  recentDailies: readonly SourceDoc[];
  /** Topics of each daily node of the last 30 days. */
  recentDayTopics: readonly { date: LocalDate; topics: readonly TopicInfo[] }[];
  /** Bodies of the latest monthly nodes, for lessons. */
  latestMonthlies: readonly SourceDoc[];
  /** Where a topic's latest mention can be read: `daily/2026-03-14.md`. */
  pointerFor: (t: TopicInfo) => string;
  /** The node that holds a day's detail, as a link relative to ROOT.md. */
  linkFor: (d: LocalDate) => string;
  config: CompactionConfig;
  template: string;
  rules: ExclusionRules;
  /** A resident owner's memo of sources and lines (summarize/memo.ts). */
  memo?: SummaryMemo | null;
  countTokens: CountTokens;
  /** The merge of the older months' topics from the last build, when a resident owner keeps it. */
  settledMonths?: SettledMonths;
  /** ROOT.md's frontmatter: `rootMaxTokens` caps the file, the body gets what it leaves. */
  frontmatterTokens?: number;
}

export interface RootBuild {
  body: string;
  tokens: number;
  /** Topics left out of the index to stay under the cap. */
  dropped: string[];
  /** Set when even after every step the cap could not be met. */
  overCap: string | null;
}

/** Who gets what another section leaves unused, first to last. */
const PRIORITY: readonly RootSection[] = ['profile', 'topics', 'active', 'rules', 'patterns', 'history'];

export function buildRoot(input: RootInput): RootBuild {
  const { today, config } = input;
  const facts = mergeFacts(input.months.map((m) => m.facts ?? []));
  const topics = mergeMonths(input.months, input.settledMonths);
  // A section the template has no place for takes no share.
  const present = (name: RootSection): boolean => input.template.includes(`{{${name}}}`);
  const lineCost = (line: string): number => input.countTokens(line) + 1;
  const lastActive = lastActiveNote(input);
  const fill = (lines: Partial<Record<RootSection, string>>): string => {
    const vars: Record<string, string> = { activeDays: String(config.activeContextDays) };
    for (const name of ROOT_SECTIONS) {
      // Profile and Rules are left out when empty; the spec's four sections say so.
      vars[name] = lines[name] || (name === 'profile' || name === 'rules' ? '' : '- (none yet)');
    }
    // Part of the frame, not a ranked line: no lack of room leaves the section undated.
    if (lastActive) vars.active = lines.active ? `${lastActive}\n${lines.active}` : lastActive;
    return renderTemplate(input.template, vars);
  };
  const head = input.frontmatterTokens ?? 0;
  const frame = input.countTokens(fill({})) + head;
  const shares = ROOT_SECTIONS.filter(present);
  const shareSum = shares.reduce((a, n) => a + config.rootShares[n], 0) || 1;
  const profileRoom = { allowance: ((config.rootMaxTokens - frame) * config.rootShares.profile) / shareSum, cost: lineCost };
  const sections: Record<RootSection, SectionLines<any>> = {
    profile: profileSection(facts, today, input.linkFor, profileRoom),
    rules: rulesSection(facts, today, input.linkFor),
    active: listSection(activeContext(input)),
    patterns: listSection(recentPatterns(input)),
    history: historySection(input.months, today, topTopicsByDays),
    topics: topicsSection(
      topics,
      today,
      { referenceDays: config.referenceStaleDays, projectDays: config.projectStaleDays },
      input.pointerFor,
    ),
  };
  const render = (kept: Map<RootSection, number>): string => {
    const lines: Partial<Record<RootSection, string>> = {};
    for (const name of Object.keys(sections) as RootSection[]) {
      const s = sections[name];
      lines[name] = s.show(s.ranked.slice(0, kept.get(name) ?? 0)).join('\n');
    }
    return fill(lines);
  };
  const budgets = (Object.keys(sections) as RootSection[]).filter(present).map((name) => {
    const s = sections[name];
    const seen = new Set<string>();
    const costs = s.ranked.map((x) => {
      let extra = 0;
      for (const h of [s.header?.(x) ?? []].flat()) if (!seen.has(h)) extra += (seen.add(h), lineCost(h));
      return lineCost(s.line(x)) + extra;
    });
    return { name, costs, share: config.rootShares[name] };
  });
  const cap = config.rootMaxTokens;
  const kept = allocate(budgets, cap - frame, PRIORITY) as Map<RootSection, number>;
  let body = render(kept);
  let tokens = input.countTokens(body);
  // Lines were counted one by one; the whole text can count a little differently. Give back
  // the lowest-priority lines until it fits.
  while (tokens + head > cap) {
    const victim = [...PRIORITY].reverse().find((n) => (kept.get(n) ?? 0) > 0);
    if (!victim) break;
    kept.set(victim, kept.get(victim)! - 1);
    body = render(kept);
    tokens = input.countTokens(body);
  }
  const dropped = sections.topics.ranked.slice(kept.get('topics') ?? 0).map((t: TopicInfo) => t.name);
  const fixedPart = head ? 'its frontmatter and template alone take' : 'its template alone takes';
  const overCap = tokens + head > cap ? `ROOT.md is ${tokens + head} tokens, over rootMaxTokens ${cap}: ${fixedPart} ${frame}` : null;
  return { body, tokens, dropped, overCap };
}

/** The newest day Active Context is built from. */
function newestDaily(input: RootInput): LocalDate | null {
  // A daily node's label is its date.
  const dates = input.recentDailies.map((d) => parseLocalDate(d.label)).filter((d): d is LocalDate => d !== null);
  return dates.reduce<LocalDate | null>((a, d) => (a === null || d > a ? d : a), null);
}

/** The line dating Active Context when its newest day is older than the window (after a long gap). */
function lastActiveNote(input: RootInput): string | null {
  const newest = newestDaily(input);
  const days = input.config.activeContextDays;
  return newest && outsideWindow(newest, input.today, days) ? lastActiveLine(newest, input.today, days) : null;
}

/** What is in progress, best first: open items and decisions of the recent days, newest first, then highlights. */
function activeContext(input: RootInput): string[] {
  if (input.recentDailies.length === 0) return [];
  const draft = buildDraft(analyzeSources(input.recentDailies, input.rules, input.memo), 'weekly', true);
  // One line format: `05-29 · topic: text`, no type tags or emphasis from the highlights.
  const tidy = (l: string): string => `- ${clip(l.replace(/^(\d{2}-\d{2} · [^:[]*?) \[\w+\]:/, '$1:').replace(/\*\*|__/g, ''), 160)}`;
  // Open items and decisions first; then the highlights, a day at a time from the newest, so
  // that every recent day has its say before any day has its second.
  const newestFirst = (lines: string[]): string[] => [...lines].reverse();
  return [
    ...new Set(
      [
        ...newestFirst(draft.open),
        ...newestFirst(draft.decisions),
        ...newestFirst(draft.tasks).slice(0, 4),
        ...byDayRoundRobin(draft.highlights, newestDaily(input)),
      ].map(tidy),
    ),
  ];
}

/**
 * Lines labelled `05-29 · ...`: the newest day's first line, the next day's first, ... then seconds.
 * `newest` is the newest day the lines can be from: a later month and day is of the year before.
 */
function byDayRoundRobin(lines: readonly string[], newest: LocalDate | null): string[] {
  const days = new Map<string, string[]>();
  for (const l of lines) {
    const d = /^(\d{2}-\d{2}) · /.exec(l)?.[1] ?? '';
    const list = days.get(d);
    if (list) list.push(l);
    else days.set(d, [l]);
  }
  // Across a new year, January's days are the newer ones; a window of more than a month can
  // hold November's and January's days and none of December's.
  const last = newest?.slice(5) ?? '12-31';
  const sortable = (d: string): string => (d > last ? `0${d}` : `1${d}`);
  const ordered = [...days]
    .sort((a, b) => (sortable(a[0]) < sortable(b[0]) ? 1 : sortable(a[0]) > sortable(b[0]) ? -1 : 0))
    .map(([, l]) => l);
  const out: string[] = [];
  for (let i = 0; ordered.some((l) => i < l.length); i++) for (const l of ordered) if (i < l.length) out.push(l[i]!);
  return out;
}

/** Cross-cutting: topics that keep coming back, and lessons. */
function recentPatterns(input: RootInput): string[] {
  const counts = new Map<string, { days: number; last: LocalDate; type: MemoryType; keywords: string[] }>();
  // Oldest day first, so the latest day's sub-keywords win, whatever order the days came in.
  for (const d of [...input.recentDayTopics].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))) {
    for (const t of d.topics) {
      const c = counts.get(t.name);
      if (!c) counts.set(t.name, { days: 1, last: d.date, type: t.type, keywords: t.keywords });
      else {
        c.days++;
        c.last = d.date;
        c.keywords = t.keywords;
      }
    }
  }
  const recurring = [...counts]
    .filter(([, c]) => c.days >= 3)
    .sort((a, b) => b[1].days - a[1].days || (a[1].last < b[1].last ? 1 : -1) || a[0].localeCompare(b[0]))
    .slice(0, 8)
    .map(
      ([name, c]) =>
        `- ${name} [${c.type}]: on ${c.days} of the last 30 days (latest ${c.last.slice(5)})${c.keywords.length ? ` · ${c.keywords.slice(0, 3).join(', ')}` : ''}`,
    );
  // Lessons as the latest monthly nodes sorted them (no re-analysis needed); rules have a
  // section of their own.
  const lessons: string[] = [];
  for (const src of input.latestMonthlies) {
    for (const e of collectEntries(src.label, src.text, input.rules, src.firstLine))
      if (e.bucket === 'lessons') lessons.push(...e.items.map((i) => i.text));
  }
  return [
    ...recurring,
    ...[...new Set(lessons)]
      .slice(-6)
      .reverse()
      .map((l) => `- lesson: ${clip(l.replace(/^(?:[^:]{1,40}: )?lesson:\s*/i, ''), 200)}`),
  ];
}

// ---- what stays the same from one build to the next -------------------------------------
// ROOT is rebuilt whenever a month's node changes, which is nearly always the latest one. A
// resident process (the daemon) passes the same topic lists for the other months each time
// (the same objects: unchanged nodes are not read again), so their merge is kept and resumed,
// in a SettledMonths its tree owns and passes in. Keys are the lists' identities; without one,
// or after a change to an older month, the months are merged afresh.

/** The months that usually still change: merged afresh every build. */
const OPEN_MONTHS = 2;

/** The merged topics of the months before the open ones, kept by its owner between builds. */
export class SettledMonths {
  lists: (readonly TopicInfo[])[] = [];
  merger: TopicMerger = TopicMerger.empty();
}

function mergeMonths(months: readonly RootMonth[], kept: SettledMonths = new SettledMonths()): TopicInfo[] {
  const lists = months.map((m) => m.topics);
  const cut = Math.max(0, lists.length - OPEN_MONTHS);
  if (!(kept.lists.length <= cut && kept.lists.every((l, i) => l === lists[i]))) {
    kept.lists = [];
    kept.merger = TopicMerger.empty();
  }
  // A month that has settled since is added to the kept merge (the order of adding is kept).
  for (let i = kept.lists.length; i < cut; i++) {
    kept.merger.add(lists[i]!);
    kept.lists.push(lists[i]!);
  }
  const merger = kept.merger.copy();
  for (const l of lists.slice(cut)) merger.add(l);
  return merger.result(Number.MAX_SAFE_INTEGER);
}
