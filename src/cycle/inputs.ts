// Gathering what a node is made from: its sources (read and redacted), their hash, their line
// count against the threshold, and the node's topics.
import { addDays, daysBetween, lastDayOfMonthId, monthOf, type LocalDate, type MonthId } from '../time/calendar.js';
import type { FactInfo } from '../tree/fact.js';
import { nodeFacts } from '../summarize/facts/profile.js';
import type { CappedRead } from '../tree/capped.js';
import { hashParts } from '../tree/hash.js';
import { readBodyHash } from '../tree/body-hash.js';
import { documentBody } from '../tree/frontmatter.js';
import { nodeRelPath, periodId, rawRelPath, type Period } from '../tree/layout.js';
import { rawLogBody } from '../tree/read.js';
import { combinedHash, dayParts } from '../tree/raw-day.js';
import { blankNodeLinks } from '../tree/node-links.js';
import { countLines, decodeText } from '../tree/text.js';
import type { TopicInfo } from '../tree/topic.js';
import type { FileStamp } from '../tree/snapshot.js';
import { analyzeSources, dayTopics } from '../summarize/analyze.js';
import { mergeTopics } from '../summarize/topic-merge.js';
import type { ExclusionRules } from '../summarize/exclusion.js';
import type { Redactor } from '../redact/redactor.js';
import type { SourceDoc } from '../summarize/summarizer.js';
import { childLabel } from '../compose/body.js';
import type { TreeState } from './tree-state.js';
import type { SummaryMemo } from '../summarize/memo.js';

class SourceUnreadable extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file}: ${why}`);
  }
}

export interface NodeInputs {
  sources: SourceDoc[];
  sourceHash: string;
  lines: number;
  /** Bytes of the sources, against the threshold in bytes. */
  bytes: number;
  topics: TopicInfo[];
  /** Workspace-relative paths for the frontmatter. */
  sourceFiles: string[];
  /** Children actually read (a child deleted mid-cycle is left out). */
  children: Period[];
}

const DAY_TOPIC_LIMIT = 30;
const PARENT_TOPIC_LIMIT = 60;

export function dailyInputs(date: LocalDate, tree: TreeState, redactor: Redactor, rules: ExclusionRules): NodeInputs {
  const { parts, hash } = readRawDay(date, tree);
  return dailyInputsFrom(date, parts, hash, redactor, rules);
}

/** One file of a day's raw log, as read for its daily node. */
export interface RawPart {
  /** Workspace-relative, as nodes list their sources: `memory/2026-11-20.md`. */
  shownPath: string;
  bytes: Uint8Array;
}

/**
 * Reads the files of a day's raw log (tree/raw-day.ts) for its daily node, noting any that
 * changed since the scan; `hash` is what the node records as its source hash.
 */
export function readRawDay(date: LocalDate, tree: TreeState): { parts: RawPart[]; hash: string } {
  const day = tree.raws.get(date);
  const known: readonly { relPath: string; hash?: string }[] = day ? dayParts(day) : [{ relPath: rawRelPath(date) }];
  const parts: RawPart[] = [];
  const hashes: { relPath: string; hash: string }[] = [];
  for (const { relPath: rel, hash } of known) {
    let read: CappedRead;
    try {
      read = tree.readRaw(rel);
    } catch (err) {
      throw new SourceUnreadable(tree.shown(rel), `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    if (hash !== read.hash) tree.noteRaw(date, rel, read);
    parts.push({ shownPath: tree.shown(rel), bytes: read.bytes });
    hashes.push({ relPath: rel, hash: read.hash });
  }
  return { parts, hash: combinedHash(hashes) };
}

/** A daily node's inputs from its raw log's bytes (pure: also run in the catch-up worker). */
export function dailyInputsFrom(
  date: LocalDate,
  parts: readonly RawPart[],
  hash: string,
  redactor: Redactor,
  rules: ExclusionRules,
  memo: SummaryMemo | null = null,
): NodeInputs {
  const sources: SourceDoc[] = [];
  let lines = 0;
  let bytes = 0;
  for (const part of parts) {
    const decoded = decodeText(part.bytes);
    // A day's other files may be empty or binary (each is reported by the scan): left out.
    if (!decoded.ok) {
      if (parts.length === 1) throw new SourceUnreadable(part.shownPath, decoded.reason);
      continue;
    }
    const { body: original, firstLine } = rawLogBody(decoded.text);
    // Nodes are hipo's files: line endings are normalised there (the raw log keeps its own).
    const body = original.replace(/\r\n?/g, '\n');
    if (parts.length > 1 && body.trim() === '') continue;
    sources.push({ label: date, path: part.shownPath, level: 'raw', text: redactor.redact(body).text, firstLine });
    lines += countLines(body);
    bytes += Buffer.byteLength(body);
  }
  return {
    sources,
    sourceHash: hash,
    lines,
    bytes,
    topics: dayTopics(analyzeSources(sources, rules, memo), date, DAY_TOPIC_LIMIT),
    sourceFiles: sources.map((s) => s.path),
    children: [],
  };
}

interface ChildRead {
  period: Period;
  body: string;
  bodyHash: string;
  topics: readonly TopicInfo[];
  firstLine: number;
  rel: string;
}

function readChild(p: Period, tree: TreeState): ChildRead | null {
  const rel = nodeRelPath(p);
  let bytes: Buffer;
  let stamp: FileStamp;
  try {
    ({ bytes, stamp } = tree.readStamped(rel));
  } catch {
    return null;
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return null;
  const doc = documentBody(decoded.text);
  const info = tree.node(p);
  // The cached record may predate a hand edit made during the cycle, or lack topics: the bytes
  // just read are the truth.
  const fresh =
    info?.topics && info.bodyHash === readBodyHash(doc.body, info.recordedBodyHash) ? info : tree.noteNode(p, rel, bytes, stamp);
  // A child in CRLF (a Windows checkout) is the same child: its parent is written in LF all the same.
  const body = doc.body.replace(/\r\n?/g, '\n');
  return { period: p, body, bodyHash: fresh.bodyHash, topics: fresh.topics ?? [], firstLine: doc.bodyLineOffset + 1, rel };
}

export function parentInputs(children: readonly Period[], tree: TreeState, redactor: Redactor): NodeInputs {
  const read = children.map((c) => readChild(c, tree)).filter((c): c is ChildRead => c !== null);
  const sources = read.map((c) => ({
    label: childLabel(c.period),
    path: tree.shown(c.rel),
    level: c.period.level,
    text: redactor.redact(blankNodeLinks(c.body)).text,
    firstLine: c.firstLine,
  }));
  return {
    sources,
    sourceHash: hashParts(read.map((c) => `${periodId(c.period)}:${c.bodyHash}`)),
    lines: read.reduce((n, c) => n + countLines(c.body), 0),
    bytes: read.reduce((n, c) => n + Buffer.byteLength(c.body), 0),
    topics: mergeTopics(
      read.map((c) => c.topics),
      PARENT_TOPIC_LIMIT,
    ),
    sourceFiles: sources.map((s) => s.path),
    children: read.map((c) => c.period),
  };
}

/** Daily nodes of the recent days for ROOT's Active Context; the latest ones after a long gap. */
export function recentDailyPeriods(tree: TreeState, today: LocalDate, days: number): Period[] {
  // The window's days are looked up by date; only a long gap needs every node.
  const recent: Period[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const n = tree.node({ level: 'daily', date: addDays(today, -i) });
    if (n) recent.push(n.period);
  }
  if (recent.length) return recent;
  const byDate = (a: { date: LocalDate }, b: { date: LocalDate }): number => (a.date < b.date ? -1 : 1);
  const dailies: Extract<Period, { level: 'daily' }>[] = [];
  for (const n of tree.nodes.values()) if (n.period.level === 'daily' && n.period.date <= today) dailies.push(n.period);
  let latest: LocalDate | null = null;
  for (const p of dailies) if (latest === null || p.date > latest) latest = p.date;
  return latest ? dailies.filter((p) => daysBetween(p.date, latest) < days).sort(byDate) : [];
}

export function readSources(periods: readonly Period[], tree: TreeState, redactor: Redactor): SourceDoc[] {
  return periods
    .map((p) => readChild(p, tree))
    .filter((c): c is ChildRead => c !== null)
    .map((c) => ({
      label: periodId(c.period),
      path: tree.shown(c.rel),
      level: c.period.level,
      text: redactor.redact(blankNodeLinks(c.body)).text,
      firstLine: c.firstLine,
    }));
}

/** A monthly node's user and feedback facts, from its body (the profile is built from them). */
export function monthlyFacts(
  month: MonthId,
  body: string,
  firstLine: number,
  redactor: Redactor,
  rules: ExclusionRules,
  memo: SummaryMemo | null = null,
): FactInfo[] {
  const source: SourceDoc = { label: month, path: '', level: 'monthly', text: redactor.redact(blankNodeLinks(body)).text, firstLine };
  // Analysed on its own (not memoised with a node's sources): this runs once per monthly node.
  return nodeFacts(analyzeSources([source], rules, memo), `${month}-01` as LocalDate, lastDayOfMonthId(month));
}

/** The node holding a day's detail, relative to ROOT.md: its daily node, else its month's. */
export function dayLink(tree: TreeState, date: LocalDate): string {
  const daily: Period = { level: 'daily', date };
  return tree.node(daily) ? nodeRelPath(daily) : nodeRelPath({ level: 'monthly', month: monthOf(date) });
}

/** Where a topic's latest mention can be read. */
export function topicPointer(tree: TreeState, t: TopicInfo): string {
  const daily: Period = { level: 'daily', date: t.lastSeen };
  if (tree.node(daily)) return nodeRelPath(daily);
  return nodeRelPath({ level: 'monthly', month: monthOf(t.lastSeen) });
}
