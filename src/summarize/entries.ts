// Entries: the sections of a raw log or node, each with its topic, memory type and items.
// Works on every level: a raw log's `## Topic [type]` sections, a verbatim daily copy, a
// concatenated weekly, or a summary node whose `## Key Decisions` etc. are already sorted.
import { MEMORY_TYPES, type MemoryType } from '../tree/layout.js';
import { scanBlocks, sectionTree, splitLines, type Block, type Section } from '../tree/markdown.js';
import { normaliseTopic, topicListLength } from '../tree/topic.js';
import { stripStackTraces, type ExclusionRules } from './exclusion.js';
import { plainApostrophes, spelledContractions } from '../text/apostrophes.js';
import { LONG_SESSION, splitConversations } from './conversations.js';
import { speakersByLine, type Speaker } from '../tree/speakers.js';
import type { Item } from './item.js';

/** Sections of a summary node, by the data they hold. */
export type Bucket =
  | 'topics'
  | 'user'
  | 'said'
  | 'feedback'
  | 'decisions'
  | 'tasks'
  | 'lessons'
  | 'open'
  | 'references'
  | 'highlights'
  | 'entities';

/** Section titles (of hipo's and hipocampus's templates) and the bucket each holds. */
const BUCKET_TITLES: [RegExp, Bucket][] = [
  [/^topics?$/i, 'topics'],
  [/^(user facts?|user|about the user|user profile)$/i, 'user'],
  [/^(user facts? \(from conversations?\)|said by the user|mentioned by the user)$/i, 'said'],
  [/^(feedback|feedback rules?|rules?)$/i, 'feedback'],
  [/^(key decisions|major decisions|decisions?)$/i, 'decisions'],
  [/^(tasks completed|completed work|completed|done|tasks? done)$/i, 'tasks'],
  [/^(lessons learned|lessons & patterns|lessons and patterns|lessons?)$/i, 'lessons'],
  [/^(open items|carried forward|open|todo|to-?do|next steps?)$/i, 'open'],
  [/^(references?|links?)$/i, 'references'],
  [/^(highlights|key themes|themes|topic notes|notes|summary)$/i, 'highlights'],
  [/^(entities referenced|recurring entities|entities)$/i, 'entities'],
];

export function bucketOfTitle(title: string): Bucket | null {
  const t = title.trim().replace(/[:：]$/, '');
  for (const [re, b] of BUCKET_TITLES) if (re.test(t)) return b;
  return null;
}

export interface Entry {
  /** Label of the source (a date or week) the entry came from. */
  source: string;
  heading: string;
  /** Normalised topic, or null when the heading names none (`Session 12`, `Notes`). */
  topic: string | null;
  type: MemoryType;
  tagged: boolean;
  /** Set when the section is a summary node's bucket (its items are already classified). */
  bucket: Bucket | null;
  items: Item[];
  line: number;
  /** Line of the enclosing structural section (a day in a weekly node, the log's title). */
  container: number;
  /** The day the entry is from, when a heading or the source says (`2026-11-18`). */
  day: string | null;
}

const TYPE_TAG = new RegExp(`\\[(${MEMORY_TYPES.join('|')})\\]`, 'i');
const DAY = /^\d{4}-\d{2}-\d{2}\b/;
const STRUCTURAL = /^(?:\d{4}-\d{2}-\d{2}|\d{4}-W\d{2}|\d{4}-\d{2})(?:\b|$)|^(?:daily|weekly|monthly)(?: summary| node)?\s*:|^memory\b/i;
// Headings that name no topic: what kind of text follows, not what it is about. OpenClaw's
// session notes say `## Conversation Summary` (or `## Last 15 Messages`) under `# Session: …`.
const GENERIC = new RegExp(
  String.raw`^(?:(?:session|conversation|chat)\s+(?:summary|notes?|log|transcript|excerpt)|last\s+\d+\s+(?:messages|turns)|` +
    String.raw`(?:daily|work|dev|today'?s?)\s+(?:log|notes?|journal)|(?:mon|tues|wednes|thurs|fri|satur|sun)day|` +
    'session|conversation|chat|transcript|notes?|log|entry|entries|untitled|misc(?:ellaneous)?|journal|checkpoint|update|turns?|context)' +
    String.raw`(?:\s*(?:#?\d+|[0-9a-f]{6,}))?$`,
  'i',
);
const TIME = /^(?:\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]m)?|\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)$/i;
/**
 * A time or date opening a heading as other languages write it: `오전 10:00`, `午後3:30`,
 * `10時30分`, `14点30分`, `14h30`, `2026年11月2日`.
 */
const LEADING_TIME = /^(?:(?:오전|오후|午前|午後|上午|下午)\s*)?(?:\d{1,2}(?::\d{2}|[時点]\d{0,2}分?|h\d{2})|\d{4}年\d{1,2}月\d{1,2}日)\s+/;
/** Emoji (with their modifiers and joiners) that decorate a heading's ends: `🚀 Release 2.0`. */
const EMOJI = String.raw`[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200d\ufe0f\u20e3]+`;
const EDGE_EMOJI = new RegExp(`^(?:${EMOJI}\\s*)+|(?:\\s*${EMOJI})+$`, 'gu');

export interface HeadingParts {
  topic: string | null;
  type: MemoryType;
  tagged: boolean;
}

/** `Auth refactor [project] — 14:05 · session 3f2a` → topic "auth refactor", type project. */
export function parseHeading(heading: string): HeadingParts {
  const m = TYPE_TAG.exec(heading);
  const type = (m ? m[1]!.toLowerCase() : 'project') as MemoryType;
  let text = (m ? heading.slice(0, m.index).trim() || heading.slice(m.index + m[0].length).trim() : heading.trim()).replace(EDGE_EMOJI, '');
  // Metadata after a separator: times, session ids.
  const parts = text
    .split(/\s+[—–|·]\s+|\s+-\s+(?=\d)/)
    .map((p) => p.trim())
    .filter(Boolean);
  const meaningful = parts.filter((p) => (!TIME.test(p) && !/^session\b/i.test(p)) || parts.length === 1);
  // `Session: vendor pitch`: the label says what kind of text it is, the rest what it is about.
  text = (meaningful.length ? meaningful.join(' ') : (parts[0] ?? ''))
    .replace(/^\d{1,2}:\d{2}\s+/, '')
    .replace(LEADING_TIME, '')
    .replace(/^(?:session|conversation|chat)\s*:\s*/i, '');
  const topic = GENERIC.test(text) || TIME.test(text) || !isTopicLike(text) ? null : normaliseTopic(text);
  return { topic: topic || null, type, tagged: m !== null };
}

/** A heading that reads like a topic name, not a formula, a sentence or a table row. */
function isTopicLike(text: string): boolean {
  if (text === '' || text.length > 60 || /[=<>{}|]/.test(text)) return false;
  if (text.split(/\s+/).length > 8) return false;
  // Counted by code point: a character outside the BMP (an emoji, 𝒳) is one, not two.
  const visible = [...text.replace(/\s+/g, '')];
  const letters = visible.filter((c) => /\p{L}/u.test(c)).length;
  return letters / visible.length >= 0.6;
}

/**
 * Characters of one assistant answer that are read. Long answers are mostly general advice;
 * what the user's memory needs (their facts, decisions) is in the user's turns and the first
 * part of the answer, and reading every answer in full costs most of a cycle's time.
 */
const ASSISTANT_CHARS = 4000;

interface ItemState {
  speaker: Speaker | null;
  /** Assistant characters read since the last user turn. */
  assistantChars: number;
}
// A transcript's own metadata: `Session Date: …`, and OpenClaw's `- **Session Key**: agent:main:main`.
const METADATA_LINE = /^(?:session date|session id|date|time|timestamp|source)\s*:/i;
const BOLD_METADATA = /^(?:\*\*|__)(?:session date|session id|session key|date|time|timestamp|source)(?:\*\*|__)\s*:/i;

/** Collects the entries of one document body. `firstLine` is the body's first file line. */
export function collectEntries(label: string, body: string, rules: ExclusionRules, firstLine = 1): Entry[] {
  const plain = plainApostrophes(body);
  // A heading that only names a speaker (`### User`, `## ChatGPT`) starts a turn, as `User:` does.
  const speakersAt = speakersByLine(plain);
  const lines = splitLines(plain).map((l, i) => {
    const sp = speakersAt(i).heading(l);
    return sp ? `${sp === 'user' ? 'User' : 'Assistant'}:` : l;
  });
  let day: string | null = DAY.exec(label)?.[0] ?? null;
  const tree = sectionTree(scanBlocks(lines, firstLine - 1), lines.length, firstLine - 1);
  const out: Entry[] = [];

  const itemsOf = (blocks: readonly Block[], state: ItemState): Item[] => {
    const items: Item[] = [];
    for (const b of blocks) {
      if (b.kind === 'code' || b.kind === 'html' || b.kind === 'rule') continue;
      const speakers = speakersAt(b.line - firstLine);
      // Past the cap, an assistant's answer is skipped unless a new turn starts in this block.
      if (state.speaker === 'assistant' && state.assistantChars > ASSISTANT_CHARS && !speakers.startsTurn(b.text)) continue;
      if (b.kind === 'heading') {
        items.push({ text: b.text, line: b.line, listed: false, checked: null, speaker: state.speaker, heading: true });
        continue;
      }
      // A paragraph can hold several turns ("User: …\nAssistant: …").
      const segments: { text: string; speaker: Speaker | null }[] = [];
      for (const raw of stripStackTraces(b.text).split('\n')) {
        const turn = speakers.turn(raw);
        if (turn) {
          state.speaker = turn.speaker;
          segments.push({ text: raw.slice(turn.labelLength), speaker: state.speaker });
        } else if (segments.length && b.kind !== 'item') {
          segments[segments.length - 1]!.text += ' ' + raw.trim();
        } else {
          segments.push({ text: raw, speaker: state.speaker });
        }
      }
      for (const s of segments) {
        const flat = s.text.replace(/\s+/g, ' ').trim();
        // "im", "dont": a person typing fast (an assistant does not, and is most of the text).
        const text = s.speaker === 'assistant' ? flat : spelledContractions(flat);
        // In bold only before anyone speaks: an assistant's `**Date**: …` is part of its answer.
        if (!text || METADATA_LINE.test(text) || (s.speaker === null && BOLD_METADATA.test(text)) || rules.isEphemeral(text)) continue;
        if (s.speaker === 'assistant') {
          state.assistantChars += text.length;
          if (state.assistantChars > ASSISTANT_CHARS + text.length) continue;
        } else if (s.speaker === 'user') state.assistantChars = 0;
        items.push({ text, line: b.line, listed: b.kind === 'item', checked: b.kind === 'item' ? b.checked : null, speaker: s.speaker });
      }
    }
    return items;
  };

  // A `# Title` that names no topic (`# Notes`, `# Friday`, `# Daily log`) over sections of its
  // own names the document: its sections are the entries. One that names a topic (`# Vendor
  // pitch` over `## Context`, `## Decision`) or a type (`# About me [user]`) is the topic of all.
  // Sections that give their own type (`## garden shed [project]`) make any untyped title the
  // document's: whether `# Today` or `# Monday 16 Nov` names a topic is a guess, their tags are not.
  const top = tree.children[0];
  const titleOf =
    top?.depth === 1 &&
    !TYPE_TAG.test(top.heading) &&
    ((parseHeading(top.heading).topic === null && top.children.some((c) => !bucketOfTitle(c.heading))) ||
      top.children.some((c) => TYPE_TAG.test(c.heading)))
      ? top
      : null;
  const visit = (s: Section, inherited: HeadingParts | null, container: number): void => {
    if (s.depth > 0 && rules.isEphemeral(s.heading)) return;
    const bucket = s.depth > 0 && s !== titleOf ? bucketOfTitle(s.heading) : null;
    if (bucket) {
      // A Topics section holds its list only: what follows is the enclosing section's text
      // (topicListLength). Other buckets hold everything under them.
      const listEnd = bucket === 'topics' ? topicListLength(s.blocks) : null;
      out.push({
        source: label,
        heading: s.heading,
        topic: inherited?.topic ?? null,
        type: inherited?.type ?? 'project',
        tagged: inherited?.tagged ?? false,
        bucket,
        items: itemsOf(listEnd === null ? allBlocks(s) : s.blocks.slice(0, listEnd), { speaker: null, assistantChars: 0 }),
        line: s.line,
        container,
        day,
      });
      if (listEnd !== null && (listEnd < s.blocks.length || s.children.length))
        visit(
          { ...s, heading: '', depth: 0, line: s.blocks[listEnd]?.line ?? s.line, blocks: s.blocks.slice(listEnd) },
          inherited,
          container,
        );
      return;
    }
    const structural = s.depth === 0 || s === titleOf || STRUCTURAL.test(s.heading.trim());
    if (structural) {
      const dated = DAY.exec(s.heading.trim());
      if (dated) day = dated[0];
      const items = itemsOf(s.blocks, { speaker: null, assistantChars: 0 });
      // A transcript no heading divides: one entry per conversation in it.
      for (const part of conversationsOf(items, s.line))
        if (part.items.length)
          out.push({
            source: label,
            heading: s.heading,
            topic: inherited?.topic ?? null,
            type: inherited?.type ?? 'project',
            tagged: false,
            bucket: null,
            ...part,
            container: s.line,
            day,
          });
      for (const c of s.children) visit(c, inherited, s.line);
      return;
    }
    // A topic section: its own blocks plus sub-sections, except sub-sections that are buckets or typed.
    const parts = parseHeading(s.heading);
    const state: ItemState = { speaker: null, assistantChars: 0 };
    const items = itemsOf(s.blocks, state);
    const nested: Section[] = [];
    const walk = (sec: Section): void => {
      for (const c of sec.children) {
        if (rules.isEphemeral(c.heading)) continue;
        // A typed sub-section (`## work [project]` under `# About me [user]`) keeps its own type.
        if (bucketOfTitle(c.heading) || TYPE_TAG.test(c.heading)) nested.push(c);
        else {
          items.push(...itemsOf([{ kind: 'heading', depth: c.depth, text: c.heading, line: c.line, endLine: c.line }, ...c.blocks], state));
          walk(c);
        }
      }
    };
    walk(s);
    // A long session whose heading names no topic may hold several conversations.
    for (const part of parts.topic === null ? conversationsOf(items, s.line, LONG_SESSION) : [{ items, line: s.line }])
      out.push({
        source: label,
        heading: s.heading,
        topic: parts.topic,
        type: parts.type,
        tagged: parts.tagged,
        bucket: null,
        ...part,
        container,
        day,
      });
    for (const c of nested) visit(c, parts, container);
  };

  visit(tree, null, 0);
  return mergeAnswerHeadings(out);
}

/**
 * A section's items as the conversations in them (a text with no user turns is one), each with the
 * line it starts at: the section's for the first.
 */
function conversationsOf(items: Item[], sectionLine: number, minExchanges?: number): { items: Item[]; line: number }[] {
  return splitConversations(items, minExchanges).map((part, i) => ({ items: part, line: i === 0 ? sectionLine : part[0]!.line }));
}

/**
 * In a transcript, an assistant's answer may use markdown headings of its own ("## Step 1").
 * Such a section (untagged, no speaker of its own, right after an entry whose last word was
 * the assistant's, in the same day) is part of that answer, not a new entry.
 */
function mergeAnswerHeadings(entries: Entry[]): Entry[] {
  const out: Entry[] = [];
  for (const e of entries) {
    const prev = out[out.length - 1];
    const continues =
      prev !== undefined &&
      !prev.bucket &&
      !e.bucket &&
      !e.tagged &&
      prev.container === e.container &&
      prev.items[prev.items.length - 1]?.speaker === 'assistant' &&
      !e.items.some((i) => i.speaker !== null) &&
      !/^session\b/i.test(e.heading);
    if (continues) {
      prev.items.push(
        { text: e.heading, line: e.line, listed: false, checked: null, speaker: 'assistant' },
        ...e.items.map((i) => ({ ...i, speaker: 'assistant' as const })),
      );
    } else out.push(e);
  }
  return out;
}

function allBlocks(s: Section): Block[] {
  const out: Block[] = [...s.blocks];
  for (const c of s.children)
    out.push({ kind: 'heading', depth: c.depth, text: c.heading, line: c.line, endLine: c.line }, ...allBlocks(c));
  return out;
}
