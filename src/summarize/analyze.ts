// Shared analysis of a node's sources: entries, term statistics and each entry's topic.
// Used for topics (every node) and by the extractive summarizer (nodes above threshold).
import type { LocalDate } from '../time/calendar.js';
import type { MemoryType } from '../tree/layout.js';
import type { TopicInfo } from '../tree/topic.js';
import { collectEntries, type Entry } from './entries.js';
import type { ExclusionRules } from './exclusion.js';
import { contentWords, termFrequencies, TermStats, topWords } from './keywords.js';
import { topicName } from './topic-name.js';
import type { SourceDoc } from './summarizer.js';
import { hashParts } from '../tree/hash.js';
import type { SourceParts, SummaryMemo } from './memo.js';

export interface Analysis {
  entries: Entry[];
  stats: TermStats;
  /** Topic of each non-bucket entry: its heading's, or a key phrase of its text. */
  topicOf: Map<Entry, string>;
  /** Text of each entry, joined once. */
  textOf: Map<Entry, string>;
  /** Term frequencies of each entry's content words (heading included), tokenized once. */
  tfOf: Map<Entry, Map<string, number>>;
  /** What the caller keeps between cycles (its lines' shapes and keys go there too), or null. */
  memo: SummaryMemo | null;
}

function entryText(e: Entry): string {
  return e.items.map((i) => i.text).join('\n');
}

/** Assistant text read per entry for keyword statistics: answers are long and say little
 * about what the user's memory is about, and reading all of them costs most of the time. */
const ASSISTANT_CHARS_FOR_STATS = 3000;

function statsText(e: Entry): string {
  // The heading's topic words count; its tag, time and session id (capture headings) do not.
  const parts = [e.topic ?? (e.bucket ? e.heading : '')];
  let assistant = 0;
  for (const i of e.items) {
    if (i.speaker === 'assistant') {
      if (assistant >= ASSISTANT_CHARS_FOR_STATS) continue;
      assistant += i.text.length;
    }
    // Feedback labels ("rule:", "why:", "how to apply:") are structure, not topic words, and a
    // redaction marker is no word of the text at all.
    parts.push(i.text.replace(/^(?:rule|why|how to apply)\s*:\s*/i, '').replace(REDACTION_MARKER, ' '));
  }
  return parts.join('\n');
}

const REDACTION_MARKER = /\[REDACTED(?::[^\]]*)?\]/gi;

// By the sources list itself (identity): the steps that share one list share its analysis.
const analysesOf = new WeakMap<readonly SourceDoc[], Analysis>();

/**
 * Analyses a node's sources once, however many steps (topics, summary) ask for it. `memo` is a
 * resident process's SummaryMemo (memo.ts): sources and lines it has seen are not parsed again.
 */
export function analyzeSources(sources: readonly SourceDoc[], rules: ExclusionRules, memo: SummaryMemo | null = null): Analysis {
  let a = analysesOf.get(sources);
  if (!a) {
    a = analyze(sources, rules, memo);
    analysesOf.set(sources, a);
  }
  return a;
}

function computeParts(s: SourceDoc, rules: ExclusionRules): SourceParts {
  const entries = collectEntries(s.label, s.text, rules, s.firstLine);
  return {
    entries,
    texts: entries.map(entryText),
    tfs: entries.map((e) => termFrequencies(contentWords(statsText(e)))),
    chars: s.text.length,
  };
}

function partsOf(s: SourceDoc, rules: ExclusionRules, memo: SummaryMemo | null): SourceParts {
  // No memo (one-shot commands): no digest to compute on a catch-up's hot path.
  if (!memo) return computeParts(s, rules);
  // A digest, not the text, as the key: the memo must not hold every source twice.
  return memo.sourceParts(hashParts([rules.key, s.label, String(s.firstLine), s.text]), () => computeParts(s, rules));
}

function analyze(sources: readonly SourceDoc[], rules: ExclusionRules, memo: SummaryMemo | null): Analysis {
  const entries: Entry[] = [];
  const stats = new TermStats();
  const textOf = new Map<Entry, string>();
  const tfOf = new Map<Entry, Map<string, number>>();
  for (const s of sources) {
    const parts = partsOf(s, rules, memo);
    parts.entries.forEach((e, i) => {
      entries.push(e);
      textOf.set(e, parts.texts[i]!);
      tfOf.set(e, parts.tfs[i]!);
      stats.addDocument(parts.tfs[i]!.keys());
    });
  }
  const topicOf = new Map<Entry, string>();
  for (const e of entries) {
    if (e.bucket) continue;
    if (e.topic) {
      topicOf.set(e, e.topic);
      continue;
    }
    // Untitled sections (chat sessions, notes): name them by what the user talked about.
    // The opening of what the user said names the session well enough, and is cheap.
    const userText = e.items
      .filter((i) => i.speaker === 'user')
      .map((i) => i.text)
      .join('\n')
      .slice(0, 2000);
    const name = topicName((userText || textOf.get(e)!.slice(0, 2000)).replace(REDACTION_MARKER, ' '), stats);
    if (name) topicOf.set(e, name);
  }
  return { entries, stats, topicOf, textOf, tfOf, memo };
}

/** A link in a reference entry: a URL, with no comma (a topic line's keywords are comma-separated). */
const POINTER_ALL = /\bhttps?:\/\/[^\s,<>()[\]"'`]+[^\s,<>()[\]"'`.;:!?]/g;

/**
 * A reference topic's keywords lead with where it points (the spec: "keep URL/pointer + 1-line
 * description"): the first link of its entries, so the Topics Index up to ROOT names the runbook's
 * address, not only the day that mentioned it. A link redacted in part is no pointer.
 */
function withPointer(type: MemoryType, texts: readonly string[], keywords: string[]): string[] {
  if (type !== 'reference') return keywords;
  for (const t of texts) {
    for (const m of t.matchAll(POINTER_ALL)) {
      // Redacted in part (`https://admin:[REDACTED:…]@db…`, `…?api_key=[REDACTED:…]`): what is
      // left points nowhere, or somewhere else.
      const word = t.slice(m.index).match(/^\S*/)![0];
      if (!/\[REDACTED/i.test(word)) return [m[0], ...keywords.slice(0, 4)];
    }
  }
  return keywords;
}

const TYPE_RANK: Record<MemoryType, number> = { user: 0, feedback: 1, project: 2, reference: 3 };

/**
 * The topics of a day from its raw log: one per named section (same names merged), with
 * sub-keywords. Capped at `limit`, keeping every `user` and `feedback` topic.
 */
export function dayTopics(a: Analysis, date: LocalDate, limit: number): TopicInfo[] {
  const byName = new Map<string, { type: MemoryType; tagged: boolean; weight: number; tfs: Map<string, number>[]; texts: string[] }>();
  for (const e of a.entries) {
    const name = a.topicOf.get(e);
    if (!name) continue;
    const cur = byName.get(name);
    const tf = a.tfOf.get(e)!;
    const text = e.items.map((i) => i.text).join('\n');
    if (!cur)
      byName.set(name, {
        type: e.type,
        tagged: e.tagged,
        weight: e.items.length + (e.tagged ? 5 : 0),
        tfs: [tf],
        texts: [text],
      });
    else {
      cur.weight += e.items.length;
      cur.tfs.push(tf);
      cur.texts.push(text);
      if (e.tagged && !cur.tagged) {
        cur.type = e.type;
        cur.tagged = true;
      }
    }
  }
  const all = [...byName].map(([name, v]) => ({
    name,
    type: v.type,
    keywords: withPointer(v.type, v.texts, topWords(v.tfs, a.stats, 5, new Set(name.split(' ')))),
    lastSeen: date,
    days: 1,
    weight: v.weight,
  }));
  return capTopics(all, limit);
}

/** Keeps `limit` topics by weight, never dropping `user` or `feedback` ones. */
export function capTopics<T extends TopicInfo & { weight: number }>(all: T[], limit: number): TopicInfo[] {
  const keep = all.filter((t) => t.type === 'user' || t.type === 'feedback');
  const rest = all
    .filter((t) => t.type !== 'user' && t.type !== 'feedback')
    .sort(
      (x, y) => y.weight - x.weight || (x.lastSeen < y.lastSeen ? 1 : x.lastSeen > y.lastSeen ? -1 : 0) || x.name.localeCompare(y.name),
    );
  const chosen = [...keep, ...rest.slice(0, Math.max(0, limit - keep.length))];
  return chosen
    .sort((x, y) => TYPE_RANK[x.type] - TYPE_RANK[y.type] || y.weight - x.weight || x.name.localeCompare(y.name))
    .map(({ weight: _w, ...t }) => t);
}
