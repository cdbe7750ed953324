// Composing a node's body from its sources (spec, "Smart Threshold Table"):
//   at or below the level's threshold — copy the raw log / concatenate child nodes verbatim;
//   above it — the configured summarizer writes a keyword-dense summary.
// Every node starts with (or, for copies, carries right under its title) a `## Topics` section
// listing `topic [type]: sub-keywords`, so topics are in the text that is read and indexed.
import { weekdayName, type LocalDate } from '../time/calendar.js';
import { periodId, type Period } from '../tree/layout.js';
import { posix } from 'node:path';
import { demoteHeadings, scanBlocks, sectionTree, splitLines } from '../tree/markdown.js';
import { formatTopicTag, topicListLength, type TopicInfo } from '../tree/topic.js';
import type { SourceDoc, Summarizer, SummaryResult } from '../summarize/summarizer.js';
import { parseHeading } from '../summarize/entries.js';

type ComposeMode = 'copy' | 'concat' | 'summary';

export interface Composed {
  body: string;
  mode: ComposeMode;
  summarizer: string;
  usage?: SummaryResult['usage'];
  fallbackReason?: string;
}

function topicsSection(topics: readonly TopicInfo[]): string {
  const lines = topics.map((t) => `- ${formatTopicTag(t)}${t.keywords.length ? `: ${t.keywords.join(', ')}` : ''}`);
  return `## Topics\n${lines.length ? lines.join('\n') : '- (none)'}\n`;
}

export function nodeTitle(p: Period): string {
  switch (p.level) {
    case 'daily':
      return `${p.date} (${weekdayName(p.date)})`;
    default:
      return periodId(p);
  }
}

/**
 * A raw log copied verbatim, with the Topics section under its `# date` title (if it has one).
 * The section goes where it cannot take in the log's own text: a `## Topics` heading owns what
 * follows it up to the next heading of its rank, so it is placed right before the log's first
 * heading of level 1 or 2, and after the text when the log has none (plain lines, `###` times):
 * otherwise the weekly node, which leaves each day's Topics out, would lose that text.
 */
function copyRawLog(text: string, topics: readonly TopicInfo[]): string {
  const lines = splitLines(text);
  const blocks = scanBlocks(lines);
  const first = blocks[0];
  const section = topicsSection(topics);
  const titled = first !== undefined && first.kind === 'heading' && first.depth === 1;
  const headEnd = titled ? first.endLine : 0;
  const next = blocks.find((b) => b.line > headEnd && b.kind === 'heading' && b.depth <= 2);
  const at = next ? next.line - 1 : lines.length;
  const part = (from: number, to: number): string => lines.slice(from, to).join('\n').replace(/^\n+/, '').trimEnd();
  return [part(0, headEnd), part(headEnd, at), section.trimEnd(), part(at, lines.length)].filter((p) => p !== '').join('\n\n') + '\n';
}

/**
 * A day's raw log copied: its main log as it is, then each other file of the day (tree/raw-day.ts)
 * under a `## 2026-11-20-standup.md` heading, its own headings moved below it.
 */
function copyRawDay(date: LocalDate, sources: readonly SourceDoc[], topics: readonly TopicInfo[]): string {
  const first = sources[0];
  const main = first !== undefined && posix.basename(first.path) === `${date}.md` ? first : null;
  if (main && sources.length === 1) return copyRawLog(main.text, topics);
  const parts = (main ? sources.slice(1) : sources).map((s) => `## ${posix.basename(s.path)}\n\n${belowLevel2(s.text).trim()}`);
  return copyRawLog([...(main ? [main.text.trimEnd()] : []), ...parts].join('\n\n') + '\n', topics);
}

/** Levels to move headings of these depths down so that the shallowest is level 3 (below a `##` label). */
function shiftBelowLevel2(depths: readonly number[]): number {
  return depths.length ? Math.max(0, 3 - Math.min(...depths)) : 0;
}

/** The text with its headings moved down so that the shallowest is level 3. */
function belowLevel2(text: string): string {
  const shift = shiftBelowLevel2(scanBlocks(splitLines(text)).flatMap((b) => (b.kind === 'heading' ? [b.depth] : [])));
  return shift ? demoteHeadings(text, shift) : text;
}

/**
 * Child bodies under `## label` headings: each child's own title and Topics section are dropped
 * (the parent has its own), and its headings are shifted so the shallowest is level 3.
 */
function concatChildren(title: string, topics: readonly TopicInfo[], children: readonly { label: string; text: string }[]): string {
  const parts = [`# ${title}\n`, topicsSection(topics)];
  for (const c of children) parts.push(`## ${c.label}\n\n${nestBody(c.text)}`);
  return (
    parts
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

function nestBody(text: string): string {
  const lines = splitLines(text);
  const blocks = scanBlocks(lines);
  const tree = sectionTree(blocks, lines.length);
  const drop = new Set<number>();
  // The child's title: a first-level heading that opens the body.
  const firstHeading = blocks.find((b) => b.kind !== 'html');
  // A typed title (`# About me [user]`) types what is under it: kept, moved down with the rest.
  if (firstHeading && firstHeading.kind === 'heading' && firstHeading.depth === 1 && !parseHeading(firstHeading.text).tagged)
    for (let l = firstHeading.line; l <= firstHeading.endLine; l++) drop.add(l);
  // Its Topics list, wherever it sits at the top levels.
  const visit = (s: typeof tree): void => {
    for (const c of s.children) {
      if (/^topics$/i.test(c.heading.trim())) {
        // The heading and its list; text after the list is the child's own (topicListLength).
        const n = topicListLength(c.blocks);
        const end = n ? c.blocks[n - 1]!.endLine : c.line;
        for (let l = c.line; l <= end; l++) drop.add(l);
      } else if (c.depth <= 2) visit(c);
    }
  };
  visit(tree);
  const shift = shiftBelowLevel2(blocks.flatMap((b) => (b.kind === 'heading' && !drop.has(b.line) ? [b.depth] : [])));
  const out: string[] = [];
  const headingAt = new Map(blocks.filter((b) => b.kind === 'heading').map((b) => [b.line, b] as const));
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    if (drop.has(lineNo)) continue;
    const h = headingAt.get(lineNo);
    if (h && h.kind === 'heading') {
      out.push(`${'#'.repeat(Math.min(6, h.depth + shift))} ${h.text.replace(/\n/g, ' ')}`);
      i = h.endLine - 1; // skip a setext underline
      continue;
    }
    out.push(lines[i]!);
  }
  return out.join('\n').replace(/^\n+/, '').trimEnd() + '\n';
}

/** Label of a child inside a weekly or monthly concatenation. */
export function childLabel(p: Period): string {
  return p.level === 'daily' ? `${p.date} (${weekdayName(p.date)})` : periodId(p);
}

/** Whether sources are at or below the level's threshold, in lines and in bytes: copied, not summarized. */
export function copiedVerbatim(i: { lines: number; threshold: number; bytes?: number; thresholdBytes?: number }): boolean {
  return i.lines <= i.threshold && (i.bytes ?? 0) <= (i.thresholdBytes ?? Infinity);
}

export interface ComposeInput {
  period: Period;
  /** Lines of the sources as they count against the threshold. */
  lines: number;
  threshold: number;
  /** Bytes of the sources: above `thresholdBytes` they are summarized however few their lines. */
  bytes?: number;
  thresholdBytes?: number;
  sources: SourceDoc[];
  topics: TopicInfo[];
  today: LocalDate;
  sourceHash?: string;
}

export async function composeBody(input: ComposeInput, summarizer: Summarizer): Promise<Composed> {
  const { period } = input;
  if (period.level === 'root') throw new Error('ROOT is composed by the root builder');
  if (copiedVerbatim(input)) {
    if (period.level === 'daily') return { body: copyRawDay(period.date, input.sources, input.topics), mode: 'copy', summarizer: 'copy' };
    const title = period.level === 'weekly' ? `Weekly: ${period.week}` : `Monthly: ${period.month}`;
    return {
      body: concatChildren(
        title,
        input.topics,
        input.sources.map((s) => ({ label: s.label, text: s.text })),
      ),
      mode: 'concat',
      summarizer: 'concat',
    };
  }
  const title = period.level === 'daily' ? nodeTitle(period) : periodId(period);
  const r = await summarizer.summarize({
    level: period.level,
    period,
    title,
    sources: input.sources,
    topics: input.topics,
    today: input.today,
    ...(input.sourceHash ? { sourceHash: input.sourceHash } : {}),
  });
  return {
    body: r.body,
    mode: 'summary',
    summarizer: r.summarizer,
    ...(r.usage ? { usage: r.usage } : {}),
    ...(r.fallbackReason ? { fallbackReason: r.fallbackReason } : {}),
  };
}
