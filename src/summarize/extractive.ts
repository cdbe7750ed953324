// The offline default summarizer: deterministic, extractive, keyword-dense. It sorts every
// entry's lines into the template's sections and keeps the most informative sentences.
// Type rules (spec): `user` entries are kept verbatim, `feedback` keeps rule, why and how to
// apply verbatim, `reference` keeps the pointer and one line, `project` is condensed.
import type { TemplateSet } from '../write/template.js';
import { renderTemplate } from '../write/template.js';
import { formatTopicTag } from '../tree/topic.js';
import { analyzeSources, type Analysis } from './analyze.js';
import { addEntities, clip, cueOf, emptyEntities, isSelfStatement, sentences, type Entities } from './classify.js';
import type { Bucket, Entry } from './entries.js';
import type { ExclusionRules } from './exclusion.js';
import type { TermStats } from './keywords.js';
import { lineEntities, lineKey, shapeOf } from './line-shapes.js';
import type { SummaryRequest, SummaryResult, Summarizer } from './summarizer.js';

type Level = SummaryRequest['level'];
type ListBucket = Exclude<Bucket, 'topics' | 'entities'>;
const LIST_BUCKETS: readonly ListBucket[] = ['user', 'feedback', 'decisions', 'tasks', 'lessons', 'open', 'references', 'highlights'];

/**
 * Lines kept per section, by level. `user` and `feedback` are preserved: their caps are wide,
 * and a day's `user` cap grows with its entries (a day of fifty chat sessions states far more
 * about the user than a day of notes). Parents spend their lines on user facts rather than
 * highlights: on the MemAware corpus this keeps more facts per token (bench:summaries).
 */
const CAPS: Record<Level, Record<ListBucket, number>> = {
  daily: { user: 80, feedback: 200, decisions: 25, tasks: 25, lessons: 20, open: 20, references: 25, highlights: 70 },
  weekly: { user: 180, feedback: 200, decisions: 30, tasks: 30, lessons: 25, open: 25, references: 30, highlights: 40 },
  monthly: { user: 220, feedback: 300, decisions: 40, tasks: 40, lessons: 30, open: 30, references: 40, highlights: 50 },
};
/** A day's `user` lines: at least its cap, or this many per entry (section, chat session)... */
const DAILY_USER_PER_ENTRY = 4;
/** ...but never more than this, so a day of thousands of sessions still makes a bounded node. */
const DAILY_USER_MAX = 300;
const LINE_MAX: Record<ListBucket, number> = { user: 400, feedback: 500, decisions: 240, tasks: 200, lessons: 240, open: 200, references: 240, highlights: 320 };

interface Candidate {
  text: string;
  score: number;
  order: number;
}

export class ExtractiveSummarizer implements Summarizer {
  readonly id = 'extractive';

  constructor(
    private readonly templates: TemplateSet,
    private readonly rules: ExclusionRules,
  ) {}

  async summarize(req: SummaryRequest): Promise<SummaryResult> {
    return { body: this.summarizeSync(req), summarizer: this.id };
  }

  summarizeSync(req: SummaryRequest): string {
    const analysis = analyzeSources(req.sources, this.rules);
    const draft = buildDraft(analysis, req.level, req.sources.length > 1);
    const vars: Record<string, string> = { title: req.title, topics: req.topics.map((t) => `- ${formatTopicTag(t)}${t.keywords.length ? `: ${t.keywords.join(', ')}` : ''}`).join('\n') };
    for (const b of LIST_BUCKETS) vars[b] = draft[b].map((l) => `- ${l}`).join('\n');
    vars.entities = renderEntities(draft.entities);
    return renderTemplate(this.templates.get(req.level), vars);
  }
}

export interface Draft extends Record<ListBucket, string[]> {
  entities: Entities;
}

function sentenceScore(s: string, stats: TermStats, speakerBonus: number): number {
  const shape = shapeOf(s);
  if (shape.words === 0) return 0;
  let sum = 0;
  for (const w of shape.distinct) sum += stats.idf(w);
  let score = (sum / Math.sqrt(shape.words + 2)) * speakerBonus;
  if (shape.digit) score *= 1.1;
  if (shape.name) score *= 1.1;
  if (shape.words < 4) score *= 0.6;
  return score;
}

/** Lines that differ only in case, punctuation or origin label count as one. */
function dedupeKey(text: string): string {
  return lineKey(text, (t) => t.replace(HAS_ORIGIN, '').toLowerCase().replace(/[\s.,;:!?'"()\-–—…*_`]+/g, ' ').trim());
}

/** Short label for a line's origin in a weekly or monthly node: `03-15` or `W11`. */
function shortLabel(source: string): string {
  const d = /^\d{4}-(\d{2}-\d{2})\b/.exec(source);
  if (d) return d[1]!;
  const w = /^\d{4}-(W\d{2})\b/.exec(source);
  return w ? w[1]! : source;
}

const HAS_ORIGIN = /^(?:\d{2}-\d{2}|W\d{2}) · /;

export function buildDraft(a: Analysis, level: Level, labelLines: boolean): Draft {
  const pools: Record<ListBucket, Candidate[]> = { user: [], feedback: [], decisions: [], tasks: [], lessons: [], open: [], references: [], highlights: [] };
  const seen: Record<ListBucket, Set<string>> = Object.fromEntries(LIST_BUCKETS.map((b) => [b, new Set<string>()])) as never;
  const entities = emptyEntities();
  let order = 0;

  const add = (bucket: ListBucket, e: Entry, text: string, score: number): void => {
    const body = clip(text.trim(), LINE_MAX[bucket]);
    if (body.length < 3) return;
    const key = dedupeKey(body);
    if (!key || seen[bucket].has(key)) return;
    seen[bucket].add(key);
    const line = labelLines && !HAS_ORIGIN.test(body) ? `${shortLabel(e.source)} · ${body}` : body;
    pools[bucket].push({ text: line, score, order: order++ });
  };

  for (const e of a.entries) {
    // Entities from what the user and the notes say; an assistant's suggestions are noise here.
    for (const item of e.items) if (item.speaker !== 'assistant') addEntities(lineEntities(item.text), entities);
    if (e.bucket === 'topics') continue;
    if (e.bucket === 'entities') {
      parseEntityLines(e, entities);
      continue;
    }
    if (e.bucket) {
      // Already sorted by a summary node below: carry the lines up.
      for (const item of e.items) add(e.bucket, e, item.text, sentenceScore(item.text, a.stats, 1));
      continue;
    }
    const topic = a.topicOf.get(e);
    const tag = topic ? `${topic} [${e.type}]` : `[${e.type}]`;
    const prefix = topic ? `${topic}: ` : '';

    if (e.type === 'user') {
      for (const item of e.items) add('user', e, prefix + item.text, 100);
      continue;
    }
    if (e.type === 'feedback') {
      // Rule, why and how-to-apply stay together and verbatim.
      const lines = e.items.map((i) => i.text);
      if (lines.length) add('feedback', e, `${prefix}${lines.join(' | ')}`, 100);
      continue;
    }
    if (e.type === 'reference') {
      const pointers = e.items.filter((i) => /https?:\/\/|[\w-]+\/[\w./-]+|\.\w{2,4}\b|→/.test(i.text));
      const first = (pointers[0] ?? e.items[0])?.text;
      if (first) add('references', e, `${prefix}${first}`, 50);
      continue;
    }

    // project (and untagged): classify notes, keep the best sentences.
    const highlight: Candidate[] = [];
    for (const item of e.items) {
      const inChat = item.speaker !== null;
      const cue = inChat ? null : cueOf(item.text, item.checked);
      if (cue) {
        add(cue, e, prefix + item.text, sentenceScore(item.text, a.stats, 1.2));
        continue;
      }
      const isUser = item.speaker === 'user';
      // Long assistant answers: score a bounded number of sentences (user lines all count).
      if (!isUser && inChat && highlight.length > 60) continue;
      for (const s of item.listed && !inChat ? [item.text] : sentences(item.text)) {
        if (isUser && isSelfStatement(s)) {
          // Kept as a user fact; the highlight picks something the facts do not already say.
          add('user', e, prefix + s, sentenceScore(s, a.stats, 1.5));
          continue;
        }
        highlight.push({ text: s, score: sentenceScore(s, a.stats, isUser ? 1.4 : 1), order: highlight.length });
      }
    }
    const best = highlight.sort((x, y) => y.score - x.score).slice(0, e.items.length > 12 ? 3 : 2).sort((x, y) => x.order - y.order);
    if (best.length) add('highlights', e, `${tag}: ${best.map((c) => clip(c.text, 160)).join(' … ')}`, best.reduce((s, c) => s + c.score, 0));
  }

  const draft = { entities } as Draft;
  const caps = { ...CAPS[level] };
  if (level === 'daily') caps.user = Math.min(DAILY_USER_MAX, Math.max(caps.user, a.entries.length * DAILY_USER_PER_ENTRY));
  for (const b of LIST_BUCKETS) draft[b] = select(pools[b], caps[b]);
  return draft;
}

/** The `cap` best lines, kept in their original order. */
function select(pool: Candidate[], cap: number): string[] {
  const chosen = pool.length <= cap ? pool : [...pool].sort((x, y) => y.score - x.score || x.order - y.order).slice(0, cap);
  return chosen.sort((x, y) => x.order - y.order).map((c) => c.text);
}

function parseEntityLines(e: Entry, into: Entities): void {
  for (const item of e.items) {
    const m = /^(files|urls|names|errors|people|services|users|patterns)\s*:\s*(.*)$/i.exec(item.text);
    if (!m) continue;
    const values = m[2]!.split(/,\s*/).map((v) => v.trim()).filter(Boolean);
    const kind = m[1]!.toLowerCase();
    for (const v of values) {
      if (kind === 'files') into.files.add(v);
      else if (kind === 'urls') into.urls.add(v);
      else if (kind === 'errors') into.errors.add(v);
      else into.names.set(v, (into.names.get(v) ?? 0) + 2);
    }
  }
}

function renderEntities(e: Entities): string {
  const lines: string[] = [];
  const names = [...e.names].filter(([, n]) => n >= 1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 25).map(([n]) => n);
  if (names.length) lines.push(`names: ${names.join(', ')}`);
  if (e.files.size) lines.push(`files: ${[...e.files].slice(0, 30).join(', ')}`);
  if (e.urls.size) lines.push(`urls: ${[...e.urls].slice(0, 20).join(', ')}`);
  if (e.errors.size) lines.push(`errors: ${[...e.errors].slice(0, 15).join(', ')}`);
  return lines.join('\n');
}
