// Recall, steps 1 and 2: which periods a question is about, from what the tree already knows
// about itself. ROOT's Topics Index names every live topic with a pointer to its latest
// mention; monthly nodes list their topics (a manifest of 12 small headers a year); daily nodes
// of the matching months list theirs. The result is a short list of days to read closely.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { monthDates, parseLocalDate, type LocalDate } from '../time/calendar.js';
import { parseTopicLine } from '../tree/topic.js';
import { readInMemory, splitFrontmatterLight } from './sources.js';
import { stem } from './terms.js';

export interface TopicHit {
  name: string;
  type: string;
  score: number;
  /** Day of the latest mention, from ROOT's pointer. */
  latest: LocalDate | null;
}

export interface Manifest {
  topics: TopicHit[];
  /** Months whose nodes list a matching topic, best first. */
  months: string[];
  /** Days to read closely, best first. */
  days: LocalDate[];
}

const MAX_TOPICS = 8;
const MAX_MONTHS = 6;
const MAX_DAYS = 16;

function words(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3)
      .map(stem),
  );
}

function overlapScore(terms: readonly string[], text: string): number {
  const w = words(text);
  return terms.filter((t) => w.has(t)).length;
}

/** Step 1: topics of ROOT's Topics Index whose name or keywords share words with the question. */
export function matchTopics(rootBody: string, terms: readonly string[]): TopicHit[] {
  const section = rootBody.split(/^## Topics Index\s*$/m)[1] ?? '';
  const out: TopicHit[] = [];
  for (const line of section.split('\n')) {
    if (!/^\s*[-*]\s/.test(line)) continue;
    const t = parseTopicLine(line);
    if (!t) continue;
    const score = 2 * overlapScore(terms, t.name) + overlapScore(terms, t.keywords.join(' '));
    if (score === 0) continue;
    const ptr = /→\s*(?:\[[^\]]*\]\()?(?:daily\/)?(\d{4}-\d{2}-\d{2})\.md/.exec(line);
    out.push({ name: t.name, type: t.type, score, latest: ptr ? parseLocalDate(ptr[1]!) : null });
  }
  return out.sort((a, b) => b.score - a.score || (a.latest && b.latest ? (a.latest < b.latest ? 1 : -1) : 0)).slice(0, MAX_TOPICS);
}

/** The `topics:` list of a node's frontmatter, read without a YAML parser (names only). */
function frontmatterTopics(yaml: string | null): string[] {
  if (!yaml) return [];
  const m = /^topics:[ \t]*(\[.*\])?[ \t]*$/m.exec(yaml);
  if (!m) return [];
  if (m[1])
    return m[1]
      .slice(1, -1)
      .split(',')
      .map((s) =>
        s
          .replace(/["']/g, '')
          .replace(/\s*\[[^\]]*$/, '')
          .replace(/\s*\[.*\]\s*$/, '')
          .trim(),
      )
      .filter(Boolean);
  const out: string[] = [];
  for (const line of yaml.slice(m.index + m[0].length).split('\n')) {
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (!item) {
      if (line.trim() === '') continue;
      break;
    }
    out.push(
      item[1]!
        .replace(/^["']|["']$/g, '')
        .replace(/\s*\[[^\]]*\]\s*$/, '')
        .trim(),
    );
  }
  return out;
}

function nodeTopics(memoryDir: string, rel: string): string[] {
  const r = readInMemory(memoryDir, rel, 8 * 1024);
  return r ? frontmatterTopics(splitFrontmatterLight(r.text).yaml) : [];
}

/** Step 2: the months and days whose nodes list the matched topics (or share the question's words). */
export function buildManifest(memoryDir: string, rootBody: string | null, terms: readonly string[]): Manifest {
  const topics = rootBody ? matchTopics(rootBody, terms) : [];
  const names = new Set(topics.map((t) => t.name));
  const topicScore = (list: readonly string[]): number =>
    list.reduce((n, name) => n + (names.has(name) ? 3 : 0) + overlapScore(terms, name), 0);
  let monthFiles: string[] = [];
  try {
    monthFiles = readdirSync(join(memoryDir, 'monthly')).filter((f) => /^\d{4}-\d{2}\.md$/.test(f));
  } catch {
    /* no monthly nodes yet */
  }
  const months = monthFiles
    .map((f) => ({ month: f.slice(0, 7), score: topicScore(nodeTopics(memoryDir, `monthly/${f}`)) }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || (a.month < b.month ? 1 : -1))
    .slice(0, MAX_MONTHS);
  const days = new Map<LocalDate, number>();
  for (const t of topics) if (t.latest) days.set(t.latest, (days.get(t.latest) ?? 0) + 3 + t.score);
  for (const m of months) {
    for (const d of monthDates(m.month as Parameters<typeof monthDates>[0])) {
      const s = topicScore(nodeTopics(memoryDir, `daily/${d}.md`));
      if (s > 0) days.set(d, (days.get(d) ?? 0) + s);
    }
  }
  const ranked = [...days]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1))
    .slice(0, MAX_DAYS)
    .map(([d]) => d);
  return { topics, months: months.map((m) => m.month), days: ranked };
}
