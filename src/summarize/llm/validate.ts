// Checking a model's answer before anything is written. Invalid output never reaches a node:
// the caller falls back to the extractive summarizer instead.
//   cut off (finish_reason `length`), empty, or no markdown sections (a refusal, JSON, prose);
//   no `## Topics` section with at least one topic, or nothing besides it;
//   under 50 bytes once composed.
// What is cleaned rather than refused: control characters (one NUL makes a node binary to every
// reader), reasoning (`<think>…</think>`), a code fence around the whole answer, frontmatter
// (hipo writes frontmatter, never the model), a preamble before the first heading, the model's
// own title (hipo writes the title), code blocks and stack traces (the exclusion rules hold for
// output too), HTML comments and headings inside a section.
// What holds to the node's structure whatever the model wrote: a section is one of the node
// template's or is dropped, and the Feedback section is hipo's (see NodeFrame).
import { splitFrontmatter } from '../../tree/frontmatter.js';
import { scanBlocks, splitLines } from '../../tree/markdown.js';
import { parseTopicLine, type TopicInfo } from '../../tree/topic.js';
import { withoutControls } from '../../text/controls.js';
import { bucketOfTitle } from '../entries.js';
import { isStackTraceLine } from '../exclusion.js';
import { topicLines } from './request.js';

const MIN_BODY_BYTES = 50;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

interface Section {
  heading: string;
  /** Lines under the heading, up to the next `##` (deeper headings included). */
  lines: string[];
}

/** The answer without reasoning, wrapping fence, frontmatter or preamble. */
export function cleanAnswer(text: string): string {
  let t = withoutControls(text);
  t = t.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '').trim();
  const fenced = /^(```|~~~)[\w-]*\n([\s\S]*?)\n\1\s*$/.exec(t);
  if (fenced) t = fenced[2]!.trim();
  const doc = splitFrontmatter(t);
  if (doc.data || doc.error) t = doc.body.trim();
  const lines = splitLines(t);
  const first = lines.findIndex((l) => /^#{1,6}\s/.test(l));
  return (first > 0 ? lines.slice(first) : lines).join('\n').trim();
}

/**
 * Splits at `##` headings (outside code); text before the first one is returned apart. A model
 * that wrote its sections one level off (`#` or `###` throughout, no `##`) is read the same way.
 * A heading above that level (a `#` in the middle of the answer) starts a section too: what
 * follows it is not the section before it.
 */
function sections(text: string): { head: string[]; list: Section[] } {
  const lines = splitLines(text);
  const headings = scanBlocks(lines).filter(
    (b): b is Extract<ReturnType<typeof scanBlocks>[number], { kind: 'heading' }> => b.kind === 'heading',
  );
  const depths = new Set(headings.map((h) => h.depth));
  const depth = depths.has(2) || depths.size === 0 ? 2 : depths.has(3) ? 3 : Math.min(...depths);
  const starts = new Map<number, { text: string; endLine: number }>();
  for (const b of headings) if (b.depth <= depth) starts.set(b.line, { text: b.text.trim(), endLine: b.endLine });
  const head: string[] = [];
  const list: Section[] = [];
  // A setext heading is its text lines and the underline: none of them is a line of the section.
  let inHeading = 0;
  lines.forEach((line, i) => {
    const h = starts.get(i + 1);
    if (h !== undefined) {
      list.push({ heading: h.text, lines: [] });
      inHeading = h.endLine;
    } else if (i + 1 <= inHeading) return;
    else if (list.length) list[list.length - 1]!.lines.push(line);
    else head.push(line);
  });
  return { head, list };
}

/** What a section of a node is not: code, HTML comments, headings, thematic breaks. */
const NOT_LISTS = new Set(['code', 'html', 'heading', 'rule']);

/**
 * Code blocks, stack-trace lines, HTML comments, headings and thematic breaks out of a section's
 * lines: a section of a node is a list, and a heading inside it (`### Rules [feedback]`) would
 * be read as a section of its own by every level above.
 */
function plainLines(lines: readonly string[]): string[] {
  const blocks = scanBlocks(lines as string[]);
  const drop = new Set<number>();
  for (const b of blocks) if (NOT_LISTS.has(b.kind)) for (let l = b.line; l <= b.endLine; l++) drop.add(l - 1);
  return lines.filter((l, i) => !drop.has(i) && !isStackTraceLine(l));
}

function hasContent(lines: readonly string[]): boolean {
  return lines.some((l) => l.trim() !== '' && !/^\s*[-*+]?\s*\(?(none|n\/a|nothing)\)?\.?\s*$/i.test(l));
}

function truncated(finishReason: string | null): string | null {
  return finishReason === 'length' ? 'the answer was cut off at llm.maxOutputTokens' : null;
}

type ModelTopic = NonNullable<ReturnType<typeof parseTopicLine>>;

/** A model answer that passed the checks: its topic lines and its other sections. */
export interface NodeAnswer {
  topics: ModelTopic[];
  sections: { heading: string; lines: string[] }[];
}

/**
 * What hipo decides of a model-written node, whatever the model wrote. Its sections are the node
 * template's: another is dropped (a `# ROOT` or `## Rules` an injected line asked for). Its
 * Feedback is the feedback the extractive summarizer finds in the same sources, not the model's:
 * every level above reads a node's Feedback as rules the user gave, and ROOT shows them as how
 * the user wants the agent to work, so a rule must be one the user typed, never text the model
 * was talked into writing (what a model writes there is dropped).
 */
export interface NodeFrame {
  /** The node template's `##` headings, in order (prompts.ts `nodeShape`). */
  sections: readonly string[];
  /** The node's feedback lines, without the `- ` (extractive.ts `feedbackLines`). */
  feedback: readonly string[];
}

const isFeedback = (heading: string): boolean => bucketOfTitle(heading) === 'feedback';

/**
 * The template heading a model's section heading stands for: the same words, or the same kind
 * of section (`Decisions` for `Key Decisions`, as every level reads it); null for none.
 */
function templateHeading(heading: string, sections: readonly string[]): string | null {
  const same = sections.find((s) => s.toLowerCase() === heading.toLowerCase());
  if (same) return same;
  const bucket = bucketOfTitle(heading);
  return bucket && bucket !== 'topics' ? (sections.find((s) => bucketOfTitle(s) === bucket) ?? null) : null;
}

/** Checks one answer for a node (or for a part of one), keeping the sections `headings` names. */
export function checkNodeAnswer(
  answer: string,
  finishReason: string | null,
  hipoTopics: number,
  headings: readonly string[],
): Checked<NodeAnswer> {
  const cut = truncated(finishReason);
  if (cut) return { ok: false, reason: cut };
  const text = cleanAnswer(answer);
  if (!text) return { ok: false, reason: 'empty answer' };
  const { list } = sections(text);
  if (list.length === 0) return { ok: false, reason: 'no markdown sections in the answer' };
  const topicSec = list.find((s) => /^topics$/i.test(s.heading));
  if (!topicSec) return { ok: false, reason: 'no `## Topics` section' };
  const modelTopics = topicSec.lines.map((l) => (/^\s*[-*+]\s/.test(l) ? parseTopicLine(l) : null)).filter((t) => t !== null);
  if (modelTopics.length === 0 && hipoTopics === 0) return { ok: false, reason: '`## Topics` lists no topic' };
  const rest = list.flatMap((s) => {
    const heading = /^topics$/i.test(s.heading) ? null : templateHeading(s.heading, headings);
    return heading ? [{ heading, lines: plainLines(s.lines) }] : [];
  });
  const filled = rest.filter((s) => hasContent(s.lines));
  if (filled.length === 0) return { ok: false, reason: 'nothing besides `## Topics`' };
  return { ok: true, value: { topics: modelTopics, sections: filled } };
}

/**
 * A node body from one or more checked answers (the parts of a node too large for one request,
 * in order): hipo's title, hipo's topics (names and types from the frontmatter, sub-keywords
 * merged with the model's), then the model's sections in the template's order, same headings
 * merged, repeated lines once, with hipo's Feedback in place of the model's.
 */
export function composeNodeBody(
  answers: readonly NodeAnswer[],
  title: string,
  topics: readonly TopicInfo[],
  frame: NodeFrame,
): Checked<string> {
  const merged = new Map<string, { heading: string; lines: string[]; seen: Set<string> }>();
  for (const a of answers) {
    for (const sec of a.sections) {
      if (isFeedback(sec.heading)) continue;
      const key = sec.heading.toLowerCase();
      let m = merged.get(key);
      if (!m) merged.set(key, (m = { heading: sec.heading, lines: [], seen: new Set() }));
      for (const line of trimBlank(sec.lines)) {
        const k = line.trim().toLowerCase();
        if (k && /^\s*[-*+]\s/.test(line) && m.seen.has(k)) continue;
        m.seen.add(k);
        m.lines.push(line);
      }
    }
  }
  const feedback = frame.sections.find(isFeedback);
  if (feedback && frame.feedback.length)
    merged.set(feedback.toLowerCase(), { heading: feedback, lines: frame.feedback.map((l) => `- ${l}`), seen: new Set() });
  if (merged.size === 0) return { ok: false, reason: "nothing besides `## Topics` (the Feedback section is hipo's)" };
  const order = (heading: string): number => frame.sections.findIndex((s) => s.toLowerCase() === heading.toLowerCase());
  const parts = [
    title,
    `## Topics\n${mergeTopicLines(
      topics,
      answers.flatMap((a) => a.topics),
    )}`,
  ];
  for (const m of [...merged.values()].sort((a, b) => order(a.heading) - order(b.heading)))
    parts.push(`## ${m.heading}\n${m.lines.join('\n').trim()}`);
  const body = `${parts
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
  if (Buffer.byteLength(body) < MIN_BODY_BYTES) return { ok: false, reason: `answer too short (${Buffer.byteLength(body)} bytes)` };
  return { ok: true, value: body };
}

function trimBlank(lines: readonly string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a]!.trim()) a++;
  while (b > a && !lines[b - 1]!.trim()) b--;
  return lines.slice(a, b);
}

/** One answer, checked and composed. */
export function validateNodeAnswer(
  answer: string,
  finishReason: string | null,
  title: string,
  topics: readonly TopicInfo[],
  frame: NodeFrame,
): Checked<string> {
  const checked = checkNodeAnswer(answer, finishReason, topics.length, frame.sections);
  return checked.ok ? composeNodeBody([checked.value], title, topics, frame) : checked;
}

/** hipo's topics first (their names and types are the frontmatter's), then the model's extras. */
function mergeTopicLines(topics: readonly TopicInfo[], model: readonly ModelTopic[]): string {
  // The same topic from several parts of a node: one line, sub-keywords together.
  const byName = new Map<string, ModelTopic>();
  for (const m of model) {
    const cur = byName.get(m.name);
    byName.set(m.name, cur ? { ...cur, keywords: [...new Set([...cur.keywords, ...m.keywords])] } : m);
  }
  const merged = topics.map((t) => ({
    ...t,
    keywords: [...new Set([...(byName.get(t.name)?.keywords ?? []), ...t.keywords])].slice(0, 8),
  }));
  const known = new Set(topics.map((t) => t.name));
  const extra = [...byName.values()]
    .filter((m) => !known.has(m.name))
    .map((m) => `- ${m.name} [${m.type}]${m.keywords.length ? `: ${m.keywords.slice(0, 8).join(', ')}` : ''}`);
  return [topicLines(merged), ...extra].filter(Boolean).join('\n');
}

export interface RootNarrative {
  active: string;
  patterns: string;
  history: string;
}

const NARRATIVE_SECTIONS: readonly [keyof RootNarrative, RegExp, string][] = [
  ['active', /^active context\b/i, 'Active Context'],
  ['patterns', /^recent patterns\b/i, 'Recent Patterns'],
  ['history', /^historical summary\b/i, 'Historical Summary'],
];

/** ROOT's three narrative sections from an answer (or from an existing ROOT.md body). */
export function parseNarrative(text: string): Checked<RootNarrative> {
  const { list } = sections(cleanAnswer(text));
  const out: Partial<RootNarrative> = {};
  for (const [key, re, name] of NARRATIVE_SECTIONS) {
    const s = list.find((x) => re.test(x.heading));
    if (!s) return { ok: false, reason: `no \`## ${name}\` section` };
    const lines = plainLines(s.lines);
    if (!lines.some((l) => l.trim())) return { ok: false, reason: `\`## ${name}\` is empty` };
    out[key] = lines.join('\n').trim();
  }
  return { ok: true, value: out as RootNarrative };
}

export function validateRootAnswer(answer: string, finishReason: string | null): Checked<RootNarrative> {
  const cut = truncated(finishReason);
  if (cut) return { ok: false, reason: cut };
  if (!cleanAnswer(answer)) return { ok: false, reason: 'empty answer' };
  return parseNarrative(answer);
}

/** The `## Topics Index` section's lines of a ROOT body hipo built. */
function topicsIndexLines(rootBody: string): string {
  return sectionLines(rootBody, /^topics index\b|^topics$/i);
}

/** The lines of the ROOT section whose heading matches (sub-headings included), or ''. */
function sectionLines(rootBody: string, heading: RegExp): string {
  const { list } = sections(rootBody);
  const s = list.find((x) => heading.test(x.heading));
  return s ? s.lines.join('\n').trim() : '';
}

/** The sections hipo keeps deterministic in a model-written ROOT: Profile, Rules, Topics Index. */
export interface KeptRootSections {
  profile: string;
  rules: string;
  topics: string;
}

export function keptRootSections(rootBody: string): KeptRootSections {
  return { profile: sectionLines(rootBody, /^profile\b/i), rules: sectionLines(rootBody, /^rules\b/i), topics: topicsIndexLines(rootBody) };
}
