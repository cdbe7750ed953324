// Turning one file's contents into the record a cycle plans with. Pure: bytes in, record out.
import { parseLocalDate, type LocalDate } from '../time/calendar.js';
import { readBodyHash } from './body-hash.js';
import { contentHash } from './hash.js';
import { fmList, fmMap, fmString, splitFrontmatter } from './frontmatter.js';
import { periodLastDay, type NodeStatus, type Period } from './layout.js';
import { scanBlocks, splitLines } from './markdown.js';
import type { FileStamp, NodeInfo, RawLogInfo } from './snapshot.js';
import { countLines, decodeText } from './text.js';
import { splitTopLevelCommas } from './frontmatter.js';
import { parseTopicLine, parseTopicTag, type TopicInfo } from './topic.js';

/**
 * `bytes` may be the first part of a bigger file (capped.ts): `whole` then gives the whole
 * file's hash and says so in the note.
 */
export function readRawLog(
  date: LocalDate,
  relPath: string,
  bytes: Uint8Array,
  stamp: FileStamp,
  whole?: { hash: string; note: string | null },
): RawLogInfo {
  const hash = whole?.hash ?? contentHash(bytes);
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { date, relPath, stamp, hash, lines: 0, usable: false, note: decoded.reason };
  const { body, note } = rawLogBody(decoded.text);
  if (body.trim() === '') return { date, relPath, stamp, hash, lines: 0, usable: false, note: 'empty: nothing to compact' };
  return {
    date,
    relPath,
    stamp,
    hash,
    lines: countLines(body),
    usable: true,
    note: [whole?.note, decoded.note, note].filter(Boolean).join('; ') || null,
  };
}

/** A node file too big to be one of hipo's: flagged, never read whole nor rewritten. */
export function oversizedNode(period: Period, relPath: string, stamp: FileStamp, note: string): NodeInfo {
  return {
    period,
    relPath,
    stamp,
    status: null,
    sourceHash: null,
    recordedBodyHash: null,
    bodyHash: `oversized-${stamp.size}-${stamp.mtimeMs}`,
    bodyLines: 0,
    summarizer: null,
    topics: [],
    problem: note,
  };
}

/**
 * A raw log's text without its frontmatter block, if it has a valid one. A broken block is
 * kept as text (nothing is lost) with a note saying so.
 */
export function rawLogBody(text: string): { body: string; firstLine: number; note: string | null } {
  const doc = splitFrontmatter(text);
  if (doc.data) return { body: doc.body, firstLine: doc.bodyLineOffset + 1, note: null };
  return { body: text.replace(/^\uFEFF/, ''), firstLine: 1, note: doc.error ? `${doc.error}; read as plain text` : null };
}

export function readNode(period: Period, relPath: string, bytes: Uint8Array, stamp: FileStamp): NodeInfo {
  const base = { period, relPath, stamp };
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    return {
      ...base,
      status: null,
      sourceHash: null,
      recordedBodyHash: null,
      bodyHash: contentHash(bytes),
      bodyLines: 0,
      summarizer: null,
      topics: [],
      problem: decoded.reason,
    };
  }
  const doc = splitFrontmatter(decoded.text);
  const data = doc.data;
  const rawStatus = fmString(data, 'status');
  const status: NodeStatus | null = rawStatus === 'tentative' || rawStatus === 'fixed' ? rawStatus : null;
  const recordedBodyHash = fmString(data, 'body-hash');
  let problem = doc.error;
  const declared = fmString(data, 'type');
  if (!problem && declared && declared !== period.level)
    problem = `frontmatter says type "${declared}" but the file is a ${period.level} node`;
  return {
    ...base,
    status,
    sourceHash: fmString(data, 'source-hash'),
    recordedBodyHash,
    bodyHash: readBodyHash(doc.body, recordedBodyHash),
    bodyLines: countLines(doc.body),
    summarizer: fmString(data, 'summarizer'),
    topics: nodeTopics(period, data, doc.body),
    ...(period.level === 'daily' ? { sourceFiles: fmList(data, 'source-files') } : {}),
    problem,
  };
}

/** Topics of a node from its frontmatter, with sub-keywords from its `## Topics` section. */
function nodeTopics(period: Period, data: Record<string, unknown> | null, body: string): TopicInfo[] {
  const fm = data as Parameters<typeof fmList>[0];
  const lastSeen = fmMap(fm, 'last-seen');
  const mentionDays = fmMap(fm, 'mention-days');
  const fallback = periodLastDay(period);
  const keywords = new Map<string, string[]>();
  for (const line of topicsSectionLines(body)) {
    const t = parseTopicLine(line);
    if (t?.keywords.length) keywords.set(t.name, t.keywords);
  }
  const out: TopicInfo[] = [];
  const seen = new Set<string>();
  for (const tag of fmList(fm, 'topics')) {
    const ref = parseTopicTag(tag);
    if (!ref || seen.has(ref.name)) continue;
    seen.add(ref.name);
    const ls = lastSeen[ref.name];
    const date = (typeof ls === 'string' && parseLocalDate(ls)) || fallback;
    if (!date) continue;
    const days = mentionDays[ref.name];
    out.push({ ...ref, keywords: keywords.get(ref.name) ?? [], lastSeen: date, days: typeof days === 'number' && days >= 1 ? days : 1 });
  }
  return out;
}

function topicsSectionLines(body: string): string[] {
  const blocks = scanBlocks(splitLines(body));
  const out: string[] = [];
  let inTopics = false;
  for (const b of blocks) {
    if (b.kind === 'heading') {
      inTopics = /^topics$/i.test(b.text.trim());
      continue;
    }
    if (!inTopics) continue;
    if (b.kind === 'item') out.push(b.text);
    else if (b.kind === 'paragraph') out.push(...splitTopLevelCommas(b.text));
  }
  return out;
}
