// The context pack: what an agent should know at the start of a session, under a budget.
//   ROOT (topic index, active context), then a hierarchical selection of nodes by age (latest
//   monthly, weekly, daily) and a bounded window of the newest raw entries.
// Detail falls with age twice over: older periods are read at a coarser level, and within a
// level each older node gets a smaller allowance (halving, with a floor). Files are found from
// the calendar, never by listing the tree, so the cost depends on what is selected, not on
// years of history. Same tree, same date, same budget: same pack.
import type { LocalDate } from '../time/calendar.js';
import { nodeRelPath, periodId, rawRelPath, type Period } from '../tree/layout.js';
import { demoteHeadings, withoutSections } from '../tree/markdown.js';
import { withoutPlaceholderSections } from '../tree/placeholder.js';
import { ExclusionRules } from '../summarize/exclusion.js';
import { fitBody, fitPrefix, type Measure } from './fit.js';
import { fitProfile, splitProfile } from './profile-part.js';
import { nodeSectionRank, rootSectionRank, rootView } from './root-view.js';
import { readInMemory, readNodeBody, readRawTail, splitFrontmatterLight, type RawEntry } from './sources.js';
import { matchesAny, queryTerms } from './terms.js';
import { contextWindows, findAnchor, hasMemoryOn, type Windows } from './windows.js';
import { isLastActiveLine } from '../tree/last-active.js';
import { sliceWhole } from '../text/slice.js';

export type PackLevel = 'profile' | 'root' | 'session' | 'monthly' | 'weekly' | 'daily' | 'raw';
export const PACK_LEVELS: readonly PackLevel[] = ['profile', 'root', 'session', 'monthly', 'weekly', 'daily', 'raw'];

interface PackPart {
  level: PackLevel;
  /** Memory-relative path. */
  path: string;
  period: string;
  text: string;
  cost: number;
  /** Some of the file's lines or entries were left out. */
  trimmed: boolean;
}

interface Omitted {
  level: PackLevel | 'older';
  path: string;
  reason: string;
}

/** Extra material a caller adds, its room set aside right after ROOT's: e.g. a session's own turns after compaction. */
export interface ExtraSection {
  level: 'session';
  title: string;
  path: string;
  /** Ranked best first; each is one entry. */
  entries: { text: string; order: number }[];
  /** Share of the budget it may take. */
  share: number;
  /** Raw entries whose heading contains this are left out of the raw window (already shown). */
  excludeHeading?: string;
}

export interface PackOptions {
  memoryDir: string;
  memoryName: string;
  today: LocalDate;
  timeZone: string;
  budget: number;
  unit: 'tokens' | 'chars';
  measure: Measure;
  query?: string;
  extra?: ExtraSection;
  /**
   * The exclusion rules' markers (`compaction.ephemeralMarkers`): a section whose heading says it
   * is to be thrown away ("temporary", "delete later") is left out, as summaries leave it out.
   */
  ephemeralMarkers?: readonly string[];
  /**
   * ROOT's Active Context window (`compaction.activeContextDays`): when the newest activity is
   * older, the section says when it was. Without it, only the line ROOT wrote is re-dated.
   */
  activeContextDays?: number;
}

export interface Pack {
  today: LocalDate;
  anchor: LocalDate;
  budget: number;
  unit: 'tokens' | 'chars';
  windows: Windows;
  parts: PackPart[];
  spent: Record<PackLevel, number>;
  total: number;
  omitted: Omitted[];
  text: string;
}

/** ROOT's Profile and Rules lead the pack: what the agent must know before anything else. */
const PROFILE_SHARE = 0.7;
/** The rest of ROOT (Active Context, Topics Index, ...). */
const ROOT_SHARE = 0.2;
/** Shares of what is left after ROOT (and extra), by level, in the order they are filled. */
const LEVEL_SHARES: [PackLevel, number][] = [
  ['raw', 0.3],
  ['daily', 0.3],
  ['weekly', 0.22],
  ['monthly', 0.18],
];
const MAX_RAW_ENTRIES = 12;
const MIN_PART = 24;

/** Allowances that halve with age down to a floor of one eighth, summing to `total`. */
export function halvingAllowances(n: number, total: number): number[] {
  const w = Array.from({ length: n }, (_, i) => Math.max(0.5 ** i, 1 / 8));
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((x) => Math.floor((total * x) / sum));
}

function header(o: PackOptions): string {
  return `# Memory context · ${o.today} (${o.timeZone})\nFacts from this workspace's memory (hipo): the topic index and summaries by age, newest entries last. Full text of any part: the file named beside it, under ${o.memoryName}/.`;
}

/** Bytes read of a daily node to see its `source-files`: they come first. */
const SOURCES_BYTES = 16 * 1024;

/**
 * Whether the day's node was made from files beside its raw log too (`2026-11-20-standup.md`,
 * tree/raw-day.ts), as its `source-files` say: asked of the node, not by listing the tree.
 */
function hasDatedNotes(memoryDir: string, date: LocalDate): boolean {
  const r = readInMemory(memoryDir, nodeRelPath({ level: 'daily', date }), SOURCES_BYTES);
  const yaml = r ? splitFrontmatterLight(r.text).yaml : null;
  return yaml !== null && new RegExp(`/${date}-[^\\s,\\]]+\\.md`).test(yaml);
}

export function buildPack(o: PackOptions): Pack {
  const m = o.measure;
  const rules = new ExclusionRules(o.ephemeralMarkers);
  const terms = o.query ? queryTerms(o.query) : [];
  const anchor = findAnchor(o.memoryDir, o.today);
  const windows = contextWindows(anchor);
  const parts: PackPart[] = [];
  const omitted: Omitted[] = [];
  const head = header(o);
  let remaining = o.budget - m(head) - 2;

  // ROOT: its Profile and Rules first, then the rest of it.
  const rootFile = readInMemory(o.memoryDir, 'ROOT.md', 512 * 1024);
  if (rootFile) {
    // The anchor is today also when no day was found: then there is no newest day to tell.
    const newest = anchor !== o.today || hasMemoryOn(o.memoryDir, anchor) ? anchor : null;
    const activity = o.activeContextDays === undefined ? undefined : { newest, windowDays: o.activeContextDays };
    const view = rootView(rootFile.text, o.today, activity);
    const split = splitProfile(view.body);
    const profile = fitProfile(split, Math.min(remaining, Math.floor(o.budget * PROFILE_SHARE)), m);
    if (profile) {
      parts.push({
        level: 'profile',
        path: 'ROOT.md',
        period: 'root',
        text: profile.text,
        cost: m(profile.text),
        trimmed: profile.dropped > 0,
      });
      remaining -= m(profile.text) + 2;
    }
    const allowance = Math.min(remaining, Math.floor(o.budget * ROOT_SHARE));
    const body = demoteHeadings(withoutPlaceholderSections(split.rest), 1);
    const fit = fitBody(body, allowance - m('## ROOT · ROOT.md') - 2, m, {
      rankOf: rootSectionRank,
      query: o.query,
      firstLines: 3,
      pinned: isLastActiveLine,
    });
    if (fit.text) {
      const text = `## ROOT · ROOT.md${view.shiftedBy ? ` (ages moved forward ${view.shiftedBy}d from ${view.lastUpdated})` : ''}\n${fit.text}`;
      parts.push({ level: 'root', path: 'ROOT.md', period: 'root', text, cost: m(text), trimmed: fit.dropped > 0 });
      remaining -= m(text) + 2;
    }
  } else omitted.push({ level: 'root', path: 'ROOT.md', reason: 'no ROOT.md yet (run hipo compact)' });

  // Extra (a session's own turns after compaction)
  if (o.extra?.entries.length) {
    let allowance = Math.min(remaining, Math.floor(o.budget * o.extra.share));
    const title = `## ${o.extra.title} · ${o.extra.path}`;
    allowance -= m(title) + 1;
    const chosen: { text: string; order: number }[] = [];
    for (const e of o.extra.entries) {
      const c = m(e.text) + 2;
      if (c <= allowance) {
        chosen.push(e);
        allowance -= c;
      } else if (allowance > 200 && chosen.length === 0) {
        const fit = fitBody(e.text, allowance - 2, m);
        chosen.push({ text: fit.text, order: e.order });
        allowance -= fit.cost + 2;
      }
    }
    if (chosen.length) {
      chosen.sort((a, b) => a.order - b.order);
      const text = `${title}\n${chosen.map((c) => demoteHeadings(c.text, 1)).join('\n\n')}`;
      parts.push({
        level: 'session',
        path: o.extra.path,
        period: 'session',
        text,
        cost: m(text),
        trimmed: chosen.length < o.extra.entries.length,
      });
      remaining -= m(text) + 2;
    }
  }

  // Raw window, daily, weekly, monthly: each level gets its share of what is left.
  const levelParts: PackPart[] = [];
  let shareLeft = LEVEL_SHARES.reduce((a, [, s]) => a + s, 0);
  let anchorRawComplete = false;
  for (const [level, share] of LEVEL_SHARES) {
    const levelBudget = Math.floor((remaining * share) / shareLeft);
    shareLeft -= share;
    let spent = 0;
    if (level === 'raw') {
      const r = rawWindow(o, anchor, levelBudget, terms, rules);
      spent = r.part ? r.part.cost + 2 : 0;
      if (r.part) levelParts.push(r.part);
      // The latest entries are the main log's: a day with dated notes beside it (tree/raw-day.ts)
      // keeps its daily node in the pack, which holds them.
      anchorRawComplete = r.complete && !hasDatedNotes(o.memoryDir, anchor);
      if (r.leftOut) omitted.push({ level: 'raw', path: rawRelPath(anchor), reason: r.leftOut });
    } else {
      const periods: Period[] =
        level === 'daily'
          ? windows.days.filter((d) => d !== anchor || !anchorRawComplete).map((date) => ({ level: 'daily' as const, date }))
          : level === 'weekly'
            ? windows.weeks.map((week) => ({ level: 'weekly' as const, week }))
            : windows.months.map((month) => ({ level: 'monthly' as const, month }));
      const found = periods
        .map((p) => ({ p, rel: nodeRelPath(p) }))
        .map((x) => ({ ...x, node: readNodeBody(o.memoryDir, x.rel) }))
        .filter((x) => x.node !== null);
      // With a query, periods that mention it come first; otherwise newest first.
      const order = terms.length
        ? [...found.filter((x) => matchesAny(x.node!.body, terms)), ...found.filter((x) => !matchesAny(x.node!.body, terms))]
        : found;
      // Allowances halve with age (floor one eighth); what a node does not use passes on.
      const allowances = halvingAllowances(order.length, levelBudget);
      let carry = 0;
      order.forEach((x, i) => {
        const allowance = allowances[i]! + carry;
        carry = allowance;
        const title = `## ${x.node!.title ?? periodId(x.p)} · ${x.rel}`;
        if (allowance < MIN_PART + m(title)) {
          // Too small to say anything: older nodes of the level are left out too (contiguous by age).
          carry = 0;
          omitted.push({ level, path: x.rel, reason: 'over budget' });
          return;
        }
        const body = withoutPlaceholderSections(withoutSections(x.node!.body, (s) => rules.isEphemeral(s.heading)));
        // A node's part leads with its topics: a remnant of room that holds only a file list or a
        // stray line says nothing about the period (the node is named among those left out).
        const fit = fitBody(demoteHeadings(body, 1), allowance - m(title) - 3, m, {
          rankOf: nodeSectionRank,
          query: o.query,
          leadOrNothing: true,
        });
        if (!fit.text.trim()) {
          carry = 0;
          omitted.push({ level, path: x.rel, reason: 'over budget' });
          return;
        }
        const text = `${title}\n${fit.text}`;
        const cost = m(text) + 2;
        levelParts.push({ level, path: x.rel, period: x.rel.replace(/^.*\/|\.md$/g, ''), text, cost: cost - 2, trimmed: fit.dropped > 0 });
        carry = Math.max(0, allowance - cost);
        spent += cost;
      });
    }
    remaining -= spent;
  }
  omitted.push({
    level: 'older',
    path: 'ROOT.md',
    reason: `days before ${windows.rootOnlyBefore} are only in ROOT's Historical Summary and Topics Index`,
  });

  // Reading order: ROOT, then oldest to newest; a session's own turns (extra) are the newest of
  // all and come last, next to the conversation they continue (their room was set aside first).
  const rank: Record<PackLevel, number> = { profile: -1, root: 0, session: 6, monthly: 1, weekly: 2, daily: 3, raw: 4 };
  const ordered = [
    ...parts.filter((p) => p.level === 'profile'),
    ...parts.filter((p) => p.level === 'root'),
    ...levelParts.sort((a, b) => rank[a.level] - rank[b.level] || (a.period < b.period ? -1 : 1)),
    ...parts.filter((p) => p.level === 'session'),
  ];
  let text = [head, ...ordered.map((p) => p.text)].join('\n\n') + '\n';
  // A last guard: the pieces were measured one by one; drop the oldest detail until it fits.
  while (m(text) > o.budget && ordered.length > 1) {
    const victim =
      ordered.findIndex((p) => p.level === 'monthly') >= 0
        ? ordered.findIndex((p) => p.level === 'monthly')
        : ordered.findIndex((p) => p.level === 'weekly') >= 0
          ? ordered.findIndex((p) => p.level === 'weekly')
          : ordered.findIndex((p) => p.level === 'daily') >= 0
            ? ordered.findIndex((p) => p.level === 'daily')
            : ordered.length - 1;
    const [v] = ordered.splice(victim, 1);
    omitted.push({ level: v!.level, path: v!.path, reason: 'over budget' });
    text = [head, ...ordered.map((p) => p.text)].join('\n\n') + '\n';
  }
  if (m(text) > o.budget) text = clipTo(text, o.budget, m);
  const spent = Object.fromEntries(PACK_LEVELS.map((l) => [l, 0])) as Record<PackLevel, number>;
  for (const p of ordered) spent[p.level] += p.cost;
  return { today: o.today, anchor, budget: o.budget, unit: o.unit, windows, parts: ordered, spent, total: m(text), omitted, text };
}

function clipTo(text: string, budget: number, m: Measure): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (m(sliceWhole(text, 0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return sliceWhole(text, 0, lo);
}

/** The newest entries of the anchor day's raw log that fit, oldest first. */
function rawWindow(
  o: PackOptions,
  anchor: LocalDate,
  budget: number,
  terms: string[],
  rules: ExclusionRules,
): { part: PackPart | null; complete: boolean; leftOut: string | null } {
  const rel = rawRelPath(anchor);
  const tail = readRawTail(o.memoryDir, rel);
  if (!tail || tail.entries.length === 0) return { part: null, complete: false, leftOut: null };
  const exclude = o.extra?.excludeHeading;
  const all = tail.entries.filter((e) => (!exclude || !e.heading.includes(exclude)) && !rules.isEphemeral(e.heading));
  const title = `## Latest entries · ${rel}`;
  let left = budget - o.measure(title) - 1;
  const newestFirst = [...all].reverse();
  const order = terms.length
    ? [...newestFirst.filter((e) => matchesAny(e.text, terms)), ...newestFirst.filter((e) => !matchesAny(e.text, terms))]
    : newestFirst;
  const chosen = new Set<RawEntry>();
  const fitted = new Map<RawEntry, string>();
  for (const e of order) {
    if (chosen.size >= MAX_RAW_ENTRIES) break;
    const text = demoteHeadings(e.text, 1);
    const c = o.measure(text) + 2;
    if (c <= left) {
      chosen.add(e);
      fitted.set(e, text);
      left -= c;
    } else if (chosen.size === 0 && left > MIN_PART * 4) {
      // Read from the top unless a query says which lines matter: an entry's lines follow one
      // another (a conversation's turns).
      const fit = o.query ? fitBody(text, left - 2, o.measure, { query: o.query }) : fitPrefix(text, left - 2, o.measure);
      chosen.add(e);
      fitted.set(e, fit.text);
      left -= fit.cost + 2;
    } else if (!terms.length) break; // newest first: an older entry may not jump a newer one
  }
  if (chosen.size === 0) return { part: null, complete: false, leftOut: 'over budget' };
  const texts = all.filter((e) => chosen.has(e)).map((e) => fitted.get(e)!);
  const text = `${title}\n${texts.join('\n\n')}`;
  const complete = !tail.more && chosen.size === all.length && [...chosen].every((e) => fitted.get(e) === demoteHeadings(e.text, 1));
  const leftOutCount = all.length - chosen.size;
  return {
    part: { level: 'raw', path: rel, period: anchor, text, cost: o.measure(text), trimmed: !complete },
    complete,
    leftOut:
      leftOutCount > 0 || tail.more
        ? `${leftOutCount}${tail.more ? '+' : ''} older entr${leftOutCount === 1 ? 'y' : 'ies'} of the day not shown (the daily node covers them)`
        : null,
  };
}
