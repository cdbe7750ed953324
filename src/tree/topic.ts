// Topics: the keywords a node is about, each with its memory type. Written in frontmatter as
// `name [type]` and in a node's `## Topics` section as `- name [type]: sub-keywords`.
import type { MemoryType } from './layout.js';
import type { Block } from './markdown.js';
import type { LocalDate } from '../time/calendar.js';

export interface TopicRef {
  readonly name: string;
  readonly type: MemoryType;
}

export interface TopicInfo extends TopicRef {
  /** Sub-keywords, most salient first. */
  keywords: string[];
  /** Most recent day the topic was mentioned in a raw log. */
  lastSeen: LocalDate;
  /** Days it was mentioned on (within the node's period). */
  days: number;
}

const TAG = /\s*\[(user|feedback|project|reference)(?:\s*,[^\]]*)?\]\s*$/i;

/** Canonical topic name: lower case, single spaces, no surrounding punctuation. */
export function normaliseTopic(s: string): string {
  return s
    .toLowerCase()
    .replace(/[`*_~"“”]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\-–—:;,.#]+|[\s\-–—:;,.#]+$/g, '')
    .slice(0, 60)
    .trim();
}

export function formatTopicTag(t: TopicRef): string {
  return `${t.name} [${t.type}]`;
}

/** `auth [project]` → {auth, project}; an untagged name is a project topic. */
export function parseTopicTag(s: string): TopicRef | null {
  const m = TAG.exec(s);
  const name = normaliseTopic(m ? s.slice(0, m.index) : s);
  if (!name) return null;
  const type = m ? (m[1]!.toLowerCase() as MemoryType) : 'project';
  return { name, type };
}

/** `auth [project, 5d]: jwt, refresh-token → daily/x.md` → topic and its sub-keywords. */
export function parseTopicLine(line: string): (TopicRef & { keywords: string[] }) | null {
  const text = line.replace(/^\s*[-*+]\s+/, '').replace(/\s*→.*$/, '');
  const colon = text.search(/\]:\s|\]:$/);
  const head = colon >= 0 ? text.slice(0, colon + 1) : text;
  const rest = colon >= 0 ? text.slice(colon + 2) : '';
  const ref = parseTopicTag(head);
  if (!ref) return null;
  const keywords = rest
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return { ...ref, keywords };
}

/**
 * How many of a `## Topics` section's blocks are its topic list: the leading list items, or one
 * paragraph (hipocampus writes `a, b, c`). Whatever follows belongs to the enclosing section:
 * daily copies used to put the section first, so a log of plain lines sits under it there.
 */
export function topicListLength(blocks: readonly Block[]): number {
  if (blocks[0]?.kind === 'paragraph') return 1;
  let n = 0;
  while (blocks[n]?.kind === 'item') n++;
  return n;
}
