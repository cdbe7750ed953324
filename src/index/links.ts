// Where a summary node's lines come from, worked out from the text alone: a line of a daily,
// weekly or monthly node (or ROOT.md) that quotes or condenses a raw log names its day by an
// origin label (`05-29 · …`), a dated heading (`## 2026-11-02 (Mon)`) or the node's own period,
// and shares runs of words with the raw section it was taken from. A line of a Topics section
// names a topic, which leads to the sections about it. Pure: text in, claims out; link-update.ts
// matches the claims against the raw logs in the index.
import type { LocalDate } from '../time/calendar.js';
import { parseTopicLine, parseTopicTag } from '../tree/topic.js';

/** Words per shingle: long enough that a shared run means a copied sentence. */
const GRAM = 4;

/** What one line of a summary chunk claims about its origin. */
export interface LineClaim {
  /** Line offset within the chunk (0 is the chunk's first line). */
  offset: number;
  /** The day the line speaks of, or null: any day of the node's period. */
  day: LocalDate | null;
  /** `text`: the line quotes or condenses a raw section; `topic`: it names a topic. */
  kind: 'text' | 'topic';
  /** The topic the line is filed under (prefix, heading, or the topic line's own), normalised. */
  topic: string | null;
  /** Shingle hashes of the line's words (empty for topic lines and short lines). */
  grams: Int32Array;
}

export interface ClaimContext {
  /** The node's first and last day (null for ROOT). */
  period: { start: LocalDate; end: LocalDate } | null;
  /** The day an `MM-DD` label means for this node, or null when no raw log has it. */
  dayOfLabel: (monthDay: string) => LocalDate | null;
}

const WORD = /[\p{L}\p{N}]+/gu;
const ORIGIN = /^(\d{2}-\d{2}) · /;
const WEEK_ORIGIN = /^W\d{2} · /;
const LIST = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FULL_DATE = /\b(\d{4}-\d{2}-\d{2})\b/;
const TOPICS_TITLE = /^topics(?: index)?$/i;
/** `name [type]: …` or `name: …` at the start of a line: the topic it is filed under. */
const TOPIC_PREFIX = /^([^:[\]\n]{2,60}?)(?:\s*\[[^\]\n]{1,40}\])?:\s/;
const TAGGED = /\[(?:user|feedback|project|reference)\b[^\]]*\]\s*$/i;
const POINTER = /→\s*(?:\S*\/)?daily\/(\d{4}-\d{2}-\d{2})\.md/;
/** A line's own day at its end, as ROOT's profile and rules give it: `… ([05-29](daily/2023-05-29.md))`. */
const DAY_LINK = /\s*\(\[[^\]\n]*\]\((?:\S*\/)?daily\/(\d{4}-\d{2}-\d{2})\.md\)\)\s*$/;

/** Lower-case words of a text, as shingles see them. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

function wordHash(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  return h;
}

/** Hashes of every run of GRAM consecutive words. */
export function gramsOf(text: string): Int32Array {
  const words = wordsOf(text);
  const n = words.length - GRAM + 1;
  if (n <= 0) return new Int32Array(0);
  const hs = words.map(wordHash);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0;
    for (let k = 0; k < GRAM; k++) h = Math.imul(h ^ hs[i + k]!, 0x9e3779b1) + k;
    out[i] = h | 0;
  }
  return out;
}

/** The topic name of a prefix or a tagged heading, normalised, or null for a date. */
function topicOf(s: string): string | null {
  if (FULL_DATE.test(s) || /^W\d{2}\b/.test(s)) return null;
  return parseTopicTag(s)?.name ?? null;
}

/** A heading names a topic when it carries a type tag (`search-latency [project]`). */
function headingTopicOf(s: string): string | null {
  return TAGGED.test(s) ? topicOf(s) : null;
}

function dateIn(s: string): LocalDate | null {
  return (FULL_DATE.exec(s)?.[1] as LocalDate | undefined) ?? null;
}

/**
 * The claims of a summary chunk's lines. `headingPath` is the chunk's own (its section and the
 * sections above it); headings inside the chunk's text take over for the lines below them.
 */
export function claimLines(text: string, headingPath: readonly string[], ctx: ClaimContext): LineClaim[] {
  const out: LineClaim[] = [];
  let day: LocalDate | null = null;
  let headingTopic: string | null = null;
  let inTopics = false;
  for (const h of headingPath) {
    day = dateIn(h) ?? day;
    headingTopic = headingTopicOf(h);
    inTopics = TOPICS_TITLE.test(h.trim());
  }
  if (!day && ctx.period && ctx.period.start === ctx.period.end) day = ctx.period.start;
  const nodeDay = day;
  let fenced = false;
  text.split('\n').forEach((raw, offset) => {
    if (/^\s{0,3}(```|~~~)/.test(raw)) fenced = !fenced;
    const heading = fenced ? null : HEADING.exec(raw);
    if (heading) {
      const title = heading[2]!;
      const depth = heading[1]!.length;
      if (depth === 1) return;
      day = dateIn(title) ?? (depth <= 2 ? nodeDay : day);
      headingTopic = headingTopicOf(title);
      inTopics = TOPICS_TITLE.test(title.trim());
      return;
    }
    let line = raw.replace(LIST, '').trim();
    if (!line) return;
    if (inTopics) {
      const t = parseTopicLine(line);
      if (!t) return;
      const pointer = POINTER.exec(line);
      out.push({ offset, day: (pointer?.[1] as LocalDate | undefined) ?? day, kind: 'topic', topic: t.name, grams: new Int32Array(0) });
      return;
    }
    let lineDay = day;
    const label = ORIGIN.exec(line);
    if (label) {
      lineDay = ctx.dayOfLabel(label[1]!) ?? lineDay;
      line = line.slice(label[0].length);
    } else if (WEEK_ORIGIN.test(line)) line = line.replace(WEEK_ORIGIN, '');
    const link = DAY_LINK.exec(line);
    if (link) {
      lineDay = link[1] as LocalDate;
      line = line.slice(0, link.index);
    }
    const prefix = TOPIC_PREFIX.exec(line);
    const topic = headingTopic ?? (prefix ? topicOf(prefix[1]!) : null);
    out.push({ offset, day: lineDay, kind: 'text', topic, grams: gramsOf(line) });
  });
  return out;
}

/**
 * The day an `MM-DD` label names: inside the node's period when it has one (a week may span
 * two years), else the latest of `known` days with that month and day (ROOT.md).
 */
export function labelResolver(
  period: { start: LocalDate; end: LocalDate } | null,
  known: (monthDay: string) => LocalDate[],
): (monthDay: string) => LocalDate | null {
  return (md) => {
    if (period) {
      for (const y of new Set([period.start.slice(0, 4), period.end.slice(0, 4)])) {
        const d = `${y}-${md}` as LocalDate;
        if (d >= period.start && d <= period.end) return d;
      }
      return null;
    }
    const days = known(md);
    return days.length ? days[days.length - 1]! : null;
  };
}
