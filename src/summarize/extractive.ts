// The offline default summarizer: deterministic, extractive, keyword-dense. It sorts every
// entry's lines into the template's sections and keeps the most informative sentences.
// Type rules (spec): `user` entries are kept verbatim, `feedback` keeps rule, why and how to
// apply verbatim, `reference` keeps the pointer and one line, `project` is condensed.
import type { TemplateSet } from '../write/template.js';
import { renderTemplate } from '../write/template.js';
import { formatTopicTag } from '../tree/topic.js';
import { analyzeSources, type Analysis } from './analyze.js';
import { addEntities, clip, cueOf, emptyEntities, isSelfStatement, sentences, type Entities } from './classify.js';
import { parseHeading, type Bucket, type Entry } from './entries.js';
import type { Item } from './item.js';
import { factsOfEntry as factsOf } from './facts/extract.js';
import { formatUserFact } from './facts/fact.js';
import type { ExclusionRules } from './exclusion.js';
import type { TermStats } from './keywords.js';
import { lineEntities, lineKey, shapeOf } from './line-shapes.js';
import type { SummaryMemo } from './memo.js';
import type { SummaryRequest, SummaryResult, Summarizer } from './summarizer.js';
import { withoutRestatements } from './facts/restatement.js';

type Level = SummaryRequest['level'];
type ListBucket = Exclude<Bucket, 'topics' | 'entities'>;
const LIST_BUCKETS: readonly ListBucket[] = [
  'user',
  'said',
  'feedback',
  'decisions',
  'tasks',
  'lessons',
  'open',
  'references',
  'highlights',
];

/**
 * Lines kept per section, by level. Typed user facts (`user`) and feedback are preserved (the
 * spec's rule): their caps are only a bound on a runaway input. User facts found in what the
 * user said (`said`) are many more, so their cap grows with what the sources hold (below).
 * Parents spend their lines on user facts rather than highlights: on the MemAware corpus this
 * keeps more facts per token (bench:summaries).
 */
const CAPS: Record<Level, Record<ListBucket, number>> = {
  daily: { user: 1000, said: 80, feedback: 200, decisions: 25, tasks: 25, lessons: 20, open: 20, references: 25, highlights: 70 },
  weekly: { user: 1000, said: 180, feedback: 200, decisions: 30, tasks: 30, lessons: 25, open: 25, references: 30, highlights: 40 },
  monthly: { user: 1000, said: 220, feedback: 300, decisions: 40, tasks: 40, lessons: 30, open: 30, references: 40, highlights: 50 },
};
/**
 * User facts and references grow with what the sources hold: at least the cap above, or this
 * share of the candidates (a day of fifty chat sessions states far more about the user than a
 * day of notes), but never more than the ceiling, so a node stays bounded whatever the input.
 */
const GROWING: Record<Level, { share: number; said: number; references: number }> = {
  daily: { share: 1, said: 800, references: 200 },
  weekly: { share: 0.4, said: 900, references: 150 },
  monthly: { share: 0.31, said: 1200, references: 150 },
};
// (monthly 0.3 → 0.31 when statements that name nothing stopped being facts: MemAware's daily
// nodes hold 4 % fewer (7,907 → 7,572), and at 0.3 its monthly nodes kept fewer real ones; at
// 0.31 they are 1 % larger and keep the answers they kept before.)
const LINE_MAX: Record<ListBucket, number> = {
  user: 400,
  said: 400,
  feedback: 500,
  decisions: 240,
  tasks: 200,
  lessons: 240,
  open: 200,
  references: 240,
  highlights: 320,
};

interface Candidate {
  text: string;
  score: number;
  order: number;
  /** A fact's own words: its line without the origin label and kind. */
  fact?: string;
}

export class ExtractiveSummarizer implements Summarizer {
  readonly id = 'extractive';

  constructor(
    private readonly templates: TemplateSet,
    private readonly rules: ExclusionRules,
    /** A resident process's memo of sources and lines (memo.ts), or null. */
    private readonly memo: SummaryMemo | null = null,
  ) {}

  async summarize(req: SummaryRequest): Promise<SummaryResult> {
    return { body: this.summarizeSync(req), summarizer: this.id };
  }

  summarizeSync(req: SummaryRequest): string {
    const analysis = analyzeSources(req.sources, this.rules, this.memo);
    const draft = buildDraft(analysis, req.level, req.sources.length > 1);
    const vars: Record<string, string> = {
      title: req.title,
      topics: req.topics.map((t) => `- ${formatTopicTag(t)}${t.keywords.length ? `: ${t.keywords.join(', ')}` : ''}`).join('\n'),
    };
    for (const b of LIST_BUCKETS) vars[b] = draft[b].map((l) => `- ${l}`).join('\n');
    vars.entities = renderEntities(draft.entities);
    return renderTemplate(this.templates.get(req.level), vars);
  }

  /**
   * The Feedback lines this summarizer writes for `req`: what a model-written node holds as
   * Feedback too, so that a rule is always one the sources hold (llm/validate.ts `NodeFrame`).
   */
  feedbackLines(req: SummaryRequest): string[] {
    return buildDraft(analyzeSources(req.sources, this.rules, this.memo), req.level, req.sources.length > 1).feedback;
  }
}

export interface Draft extends Record<ListBucket, string[]> {
  entities: Entities;
}

function sentenceScore(s: string, stats: TermStats, speakerBonus: number, memo: SummaryMemo | null): number {
  const shape = shapeOf(s, memo);
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
function dedupeKey(text: string, memo: SummaryMemo | null): string {
  return lineKey(
    text,
    (t) =>
      t
        .replace(HAS_ORIGIN, '')
        .toLowerCase()
        .replace(/[\s.,;:!?'"()\-–—…*_`]+/g, ' ')
        .trim(),
    memo,
  );
}

/** The words of a sentence, numbers left out: `retry (pass 2)` and `retry (pass 3)` say one thing. */
function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/\p{L}{2,}/gu) ?? []);
}

/**
 * Whether two sentences say the same thing in nearly the same words (a request repeated with a
 * counter, a line pasted twice with a typo): a highlight quotes each thing once.
 */
function restates(a: string, b: string): boolean {
  const x = wordSet(a);
  const y = wordSet(b);
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared >= 0.8 * (x.size + y.size - shared);
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
  const pools: Record<ListBucket, Candidate[]> = {
    user: [],
    said: [],
    feedback: [],
    decisions: [],
    tasks: [],
    lessons: [],
    open: [],
    references: [],
    highlights: [],
  };
  const entities = emptyEntities();
  let order = 0;

  // No sentence twice in a node: a line is kept once, in the first section that takes it.
  const seen = new Set<string>();
  const add = (bucket: ListBucket, e: Entry, text: string, score: number, factKey?: string, fact?: string): void => {
    const body = clip(text.trim(), LINE_MAX[bucket]);
    if (body.length < 3) return;
    const key = factKey ?? dedupeKey(body, a.memo);
    if (!key || seen.has(key)) return;
    seen.add(key);
    const line = labelLines && !HAS_ORIGIN.test(body) ? `${shortLabel(e.source)} · ${body}` : body;
    pools[bucket].push({ text: line, score, order: order++, fact });
  };

  for (const e of a.entries) {
    // Entities from what the user and the notes say; an assistant's suggestions are noise here.
    for (const item of e.items) if (item.speaker !== 'assistant') addEntities(lineEntities(item.text, a.memo), entities);
    if (e.bucket === 'topics') continue;
    if (e.bucket === 'entities') {
      parseEntityLines(e, entities);
      continue;
    }
    const topic = a.topicOf.get(e);
    const prefix = topic ? `${topic}: ` : '';
    // Typed facts first: what the user said about themselves, their rules, pointers.
    const stated = new Set<Item>();
    for (const { fact, item, origin } of factsOf(e)) {
      const o = origin ?? '';
      if (fact.type === 'user') {
        add(fact.typed ? 'user' : 'said', e, o + formatUserFact(fact), fact.salience, fact.key, fact.text);
        if (item.speaker !== null) stated.add(item);
      } else if (fact.type === 'feedback')
        add('feedback', e, o + (e.bucket || e.type !== 'feedback' ? fact.text : prefix + fact.text), 100 + fact.salience);
      else add('references', e, o + (e.bucket ? fact.text : prefix + fact.text), 50 + fact.salience);
    }
    if (e.bucket) {
      // Already sorted by a summary node below: carry the other sections' lines up.
      if (e.bucket !== 'user' && e.bucket !== 'said' && e.bucket !== 'feedback' && e.bucket !== 'references')
        for (const item of e.items) add(e.bucket, e, item.text, sentenceScore(item.text, a.stats, 1, a.memo));
      continue;
    }
    if (e.type !== 'project') continue;
    const tag = topic ? `${topic} [${e.type}]` : `[${e.type}]`;

    // project (and untagged): classify notes, keep the best sentences.
    const highlight: Candidate[] = [];
    // In a conversation, what the user asked and did says what the session was about; the
    // assistant's answer is in the raw log (and what it suggested by name, under References).
    const userSpoke = e.items.some((i) => i.speaker === 'user');
    for (const item of e.items) {
      const inChat = item.speaker !== null;
      if (userSpoke && item.speaker === 'assistant') continue;
      // `Conversation Summary`, `Session 3`: a heading that names no topic says nothing.
      if (item.heading && parseHeading(item.text).topic === null) continue;
      const cue = inChat ? null : cueOf(item.text, item.checked);
      if (cue) {
        add(cue, e, prefix + item.text, sentenceScore(item.text, a.stats, 1.2, a.memo));
        continue;
      }
      const isUser = item.speaker === 'user';
      // Long assistant answers: score a bounded number of sentences (user lines all count).
      if (!isUser && inChat && highlight.length > 60) continue;
      for (const s of item.listed && !inChat ? [item.text] : sentences(item.text)) {
        // What the user said about themselves is a fact above; the highlight says something else.
        if (isUser && stated.has(item) && isSelfStatement(s)) continue;
        highlight.push({ text: s, score: sentenceScore(s, a.stats, isUser ? 1.4 : 1, a.memo), order: highlight.length });
      }
    }
    const best: Candidate[] = [];
    for (const c of highlight.sort((x, y) => y.score - x.score)) {
      if (best.length === (e.items.length > 12 ? 3 : 2)) break;
      if (!best.some((b) => restates(b.text, c.text))) best.push(c);
    }
    best.sort((x, y) => x.order - y.order);
    if (best.length)
      add(
        'highlights',
        e,
        `${tag}: ${best.map((c) => clip(c.text, 160)).join(' … ')}`,
        best.reduce((s, c) => s + c.score, 0),
      );
  }

  const draft = { entities } as Draft;
  const caps = { ...CAPS[level] };
  const g = GROWING[level];
  // The room grows with what was said, restatements included; they then leave it to other facts.
  caps.said = Math.min(g.said, Math.max(caps.said, Math.ceil(pools.said.length * g.share)));
  pools.said = withoutRestatements(
    pools.said,
    (c) => c.fact ?? c.text,
    (c) => c.score,
  );
  caps.references = Math.min(g.references, Math.max(caps.references, Math.ceil(pools.references.length * g.share)));
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
    const values = m[2]!
      .split(/,\s*/)
      .map((v) => v.trim())
      .filter(Boolean);
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
  const names = [...e.names]
    .filter(([, n]) => n >= 1)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 25)
    .map(([n]) => n);
  if (names.length) lines.push(`names: ${names.join(', ')}`);
  if (e.files.size) lines.push(`files: ${[...e.files].slice(0, 30).join(', ')}`);
  if (e.urls.size) lines.push(`urls: ${[...e.urls].slice(0, 20).join(', ')}`);
  if (e.errors.size) lines.push(`errors: ${[...e.errors].slice(0, 15).join(', ')}`);
  return lines.join('\n');
}
