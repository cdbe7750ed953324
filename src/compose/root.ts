// ROOT.md: the topic index loaded at every session start (spec, "Monthly → Root").
// Four sections: Active Context (recent days), Recent Patterns, Historical Summary, Topics Index.
// It is rebuilt from the monthly nodes' topics (with their stored last-seen dates, so ages are
// right on the day it is written) and the recent daily nodes, then held under `rootMaxTokens`:
//   1. compress the Historical Summary (quarters, then years, fewer topics per line);
//   2. drop `project` topics unseen for `projectStaleDays`, oldest first;
//   3. trim sub-keywords, shorten Active Context and Recent Patterns;
//   4. drop stale `reference` topics, then the oldest remaining project/reference topics.
// `user` and `feedback` topics are never dropped; if they alone exceed the cap, that is reported.
import type { CompactionConfig } from '../config/config.js';
import { daysBetween, type LocalDate } from '../time/calendar.js';
import type { MemoryType } from '../tree/layout.js';
import type { TopicInfo } from '../tree/topic.js';
import { analyzeSources } from '../summarize/analyze.js';
import { TopicMerger, topTopicsByDays } from '../summarize/topic-merge.js';
import { buildDraft } from '../summarize/extractive.js';
import type { ExclusionRules } from '../summarize/exclusion.js';
import { collectEntries } from '../summarize/entries.js';
import type { SourceDoc } from '../summarize/summarizer.js';
import { clip } from '../summarize/classify.js';
import { renderTemplate } from '../write/template.js';
import type { CountTokens } from '../write/tokens.js';

export interface RootMonth {
  month: string;
  topics: readonly TopicInfo[];
}

export interface RootInput {
  today: LocalDate;
  /** Every monthly node's topics, oldest month first. */
  months: readonly RootMonth[];
  /** Daily nodes for Active Context (the last `activeContextDays`, or the latest ones). */
  recentDailies: readonly SourceDoc[];
  /** Topics of each daily node of the last 30 days. */
  recentDayTopics: readonly { date: LocalDate; topics: readonly TopicInfo[] }[];
  /** Bodies of the latest monthly nodes, for feedback rules and lessons. */
  latestMonthlies: readonly SourceDoc[];
  /** Where a topic's latest mention can be read: `daily/2026-03-14.md`. */
  pointerFor: (t: TopicInfo) => string;
  config: CompactionConfig;
  template: string;
  rules: ExclusionRules;
  countTokens: CountTokens;
}

export interface RootBuild {
  body: string;
  tokens: number;
  /** Topics left out of the index to stay under the cap. */
  dropped: string[];
  /** Set when even after every step the cap could not be met. */
  overCap: string | null;
}

const TYPE_ORDER: Record<MemoryType, number> = { user: 0, feedback: 1, project: 2, reference: 3 };

interface IndexTopic extends TopicInfo {
  age: number;
  keep: number; // sub-keywords shown
}

export function buildRoot(input: RootInput): RootBuild {
  const { today, config } = input;
  const all = mergeMonths(input.months);
  let topics: IndexTopic[] = all
    .map((t) => ({ ...t, age: Math.max(0, daysBetween(t.lastSeen, today)), keep: 4 }))
    .sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.age - b.age || b.days - a.days || a.name.localeCompare(b.name));

  let active = activeContext(input);
  let patterns = recentPatterns(input);
  let historyDetail: HistoryDetail = { quarterAfter: Infinity, yearAfter: Infinity, perLine: 6 };
  const dropped: string[] = [];

  // The cap loop re-renders many times; the history only changes when its detail does.
  const historyMemo = new Map<HistoryDetail, string[]>();
  const historyLines = (): string[] => {
    let lines = historyMemo.get(historyDetail);
    if (!lines) {
      lines = historicalSummary(input.months, historyDetail);
      historyMemo.set(historyDetail, lines);
    }
    return lines;
  };
  const lineMemo = new Map<IndexTopic, { keep: number; line: string }>();
  const indexLine = (t: IndexTopic): string => {
    const hit = lineMemo.get(t);
    if (hit && hit.keep === t.keep) return hit.line;
    const tag = `${t.type}, ${t.age}d${t.type === 'reference' && t.age > config.referenceStaleDays ? ', ?' : ''}`;
    const kws = t.keywords.slice(0, t.keep);
    const line = `- ${t.name} [${tag}]${kws.length ? `: ${kws.join(', ')}` : ''} → ${input.pointerFor(t)}`;
    lineMemo.set(t, { keep: t.keep, line });
    return line;
  };
  const render = (): string =>
    renderTemplate(input.template, {
      activeDays: String(config.activeContextDays),
      active: linesOrNone(active),
      patterns: linesOrNone(patterns),
      history: linesOrNone(historyLines()),
      topics: linesOrNone(topics.map(indexLine)),
    });

  const cap = config.rootMaxTokens;
  // Between steps each line is counted on its own and summed (a line break is one token; the
  // counter remembers lines it has seen), and the final text is counted exactly.
  const measure = (text: string): number => {
    let n = 0;
    for (const line of text.split('\n')) n += input.countTokens(line) + 1;
    return n;
  };
  let body = render();
  let tokens = measure(body);
  const over = (): boolean => {
    body = render();
    tokens = measure(body);
    return tokens > cap;
  };
  /** Drops topics matching `pred`, oldest first, in batches sized from the overshoot. */
  const dropOldest = (pred: (t: IndexTopic) => boolean): void => {
    const queue = topics.filter(pred).sort((a, b) => b.age - a.age || a.days - b.days || a.name.localeCompare(b.name));
    let next = 0;
    while (tokens > cap && next < queue.length) {
      const perLine = Math.max(8, input.countTokens(indexLine(queue[next]!)));
      const n = Math.max(1, Math.floor((tokens - cap) / perLine));
      const batch = new Set(queue.slice(next, next + n));
      next += batch.size;
      for (const v of batch) dropped.push(v.name);
      topics = topics.filter((t) => !batch.has(t));
      over();
    }
  };

  const steps: (() => void)[] = [
    () => { historyDetail = { quarterAfter: 3, yearAfter: Infinity, perLine: 4 }; },
    () => { historyDetail = { quarterAfter: 3, yearAfter: 12, perLine: 3 }; },
    () => { dropOldest((t) => t.type === 'project' && t.age >= config.projectStaleDays); },
    () => { for (const t of topics) if (t.age > 30) t.keep = Math.min(t.keep, 2); },
    () => { active = active.slice(0, 10); patterns = patterns.slice(0, 6); historyDetail = { quarterAfter: 2, yearAfter: 6, perLine: 2 }; },
    () => { for (const t of topics) if (t.type !== 'user' && t.type !== 'feedback') t.keep = Math.min(t.keep, 1); },
    () => { dropOldest((t) => t.type === 'reference' && t.age > config.referenceStaleDays); },
    () => { dropOldest((t) => t.type === 'project' || t.type === 'reference'); },
    () => { active = active.slice(0, 5); patterns = patterns.slice(0, 3); historyDetail = { quarterAfter: 0, yearAfter: 0, perLine: 1 }; },
    () => { for (const t of topics) t.keep = 0; },
  ];
  for (const step of steps) {
    if (tokens <= cap) break;
    step();
    over();
  }
  tokens = input.countTokens(body);
  const overCap = tokens > cap ? `ROOT.md is ${tokens} tokens, over rootMaxTokens ${cap}: ${topics.length} user/feedback topics are never dropped` : null;
  return { body, tokens, dropped, overCap };
}

function unique(lines: readonly string[]): string[] {
  return [...new Set(lines)];
}

function linesOrNone(lines: readonly string[]): string {
  return lines.length ? lines.join('\n') : '- (none yet)';
}

/** What is in progress: open items, decisions and highlights of the recent days. */
function activeContext(input: RootInput): string[] {
  if (input.recentDailies.length === 0) return [];
  const draft = buildDraft(analyzeSources(input.recentDailies, input.rules), 'weekly', true);
  const pick = (lines: string[], n: number): string[] => lines.slice(-n).map((l) => `- ${clip(l, 220)}`);
  // Highlights do not repeat what the user said about themselves (that is in draft.user), so
  // the user's lines get more of the section than the highlights.
  return [...pick(draft.open, 6), ...pick(draft.decisions, 6), ...pick(draft.user, 8), ...pick(draft.highlights, 4)];
}

/** Cross-cutting: topics that keep coming back, feedback rules, lessons. */
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
    .map(([name, c]) => `- ${name} [${c.type}]: on ${c.days} of the last 30 days (latest ${c.last.slice(5)})${c.keywords.length ? ` · ${c.keywords.slice(0, 3).join(', ')}` : ''}`);
  const out = [...recurring];
  // Feedback rules and lessons as the latest monthly nodes sorted them (no re-analysis needed).
  const feedback: string[] = [];
  const lessons: string[] = [];
  for (const src of input.latestMonthlies) {
    for (const e of collectEntries(src.label, src.text, input.rules, src.firstLine)) {
      if (e.bucket === 'feedback') feedback.push(...e.items.map((i) => i.text));
      else if (e.bucket === 'lessons') lessons.push(...e.items.map((i) => i.text));
    }
  }
  out.push(...unique(feedback).slice(-8).map((l) => `- rule: ${clip(l, 240)}`));
  out.push(...unique(lessons).slice(-6).map((l) => `- lesson: ${clip(l, 200)}`));
  return out;
}

interface HistoryDetail {
  /** Months older than this many months before the latest are merged by quarter. */
  quarterAfter: number;
  /** ... and older than this many, by year. */
  yearAfter: number;
  perLine: number;
}

// ---- what stays the same from one build to the next -------------------------------------
// ROOT is rebuilt whenever a month's node changes, which is nearly always the latest one. A
// resident process (the daemon) passes the same topic lists for the other months each time
// (the same objects: unchanged nodes are not read again), so their merge is kept and resumed.
// Keys are the lists' identities; a one-shot process just misses.

/** The months that usually still change: merged afresh every build. */
const OPEN_MONTHS = 2;
let settled: { lists: (readonly TopicInfo[])[]; merger: TopicMerger } | null = null;

function mergeMonths(months: readonly RootMonth[]): TopicInfo[] {
  const lists = months.map((m) => m.topics);
  const cut = Math.max(0, lists.length - OPEN_MONTHS);
  const known = settled && settled.lists.length <= cut && settled.lists.every((l, i) => l === lists[i]) ? settled : null;
  const base = known ?? { lists: [], merger: TopicMerger.empty() };
  // A month that has settled since is added to the kept merge (the order of adding is kept).
  for (let i = base.lists.length; i < cut; i++) {
    base.merger.add(lists[i]!);
    base.lists.push(lists[i]!);
  }
  settled = base;
  const merger = base.merger.copy();
  for (const l of lists.slice(cut)) merger.add(l);
  return merger.result(Number.MAX_SAFE_INTEGER);
}

const listIds = new WeakMap<object, number>();
let nextListId = 0;
const groupLines = new Map<string, string>();

function listId(list: object): number {
  let id = listIds.get(list);
  if (id === undefined) listIds.set(list, (id = nextListId++));
  return id;
}

function historicalSummary(months: readonly RootMonth[], d: HistoryDetail): string[] {
  if (months.length === 0) return [];
  const groups: { label: string; topics: (readonly TopicInfo[])[] }[] = [];
  const latest = months[months.length - 1]!.month;
  const monthIndex = (m: string): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7));
  for (const m of months) {
    const back = monthIndex(latest) - monthIndex(m.month);
    const q = Math.floor((Number(m.month.slice(5, 7)) - 1) / 3) + 1;
    const label = back >= d.yearAfter ? m.month.slice(0, 4) : back >= d.quarterAfter ? `${m.month.slice(0, 4)}-Q${q}` : m.month;
    const g = groups[groups.length - 1];
    if (g && g.label === label) g.topics.push(m.topics);
    else groups.push({ label, topics: [m.topics] });
  }
  return groups.map((g) => {
    const key = `${g.label}|${d.perLine}|${g.topics.map(listId).join(',')}`;
    const hit = groupLines.get(key);
    if (hit !== undefined) return hit;
    const top = topTopicsByDays(g.topics, d.perLine).map((t) => (d.perLine >= 4 && t.keywords.length ? `${t.name} (${t.keywords.slice(0, 2).join(', ')})` : t.name));
    const line = `- ${g.label}: ${top.join('; ') || '(no topics)'}`;
    if (groupLines.size > 4096) groupLines.clear();
    groupLines.set(key, line);
    return line;
  });
}
