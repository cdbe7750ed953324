// The summarizer interface: the extractive default and (later) LLM summarizers plug in here.
// A summarizer writes a node's body for a level above its smart threshold; frontmatter, topics,
// redaction and the copy/concat path below the threshold are hipo's, not the summarizer's.
import type { LocalDate } from '../time/calendar.js';
import type { Level, Period } from '../tree/layout.js';
import type { TopicInfo } from '../tree/topic.js';

export interface SourceDoc {
  /** What the source covers: `2026-03-15` or `2026-W11`. */
  label: string;
  /** Path relative to the workspace, e.g. `memory/daily/2026-03-15.md`. */
  path: string;
  level: Level;
  /** Body text, already redacted, without frontmatter. */
  text: string;
  /** File line of the body's first line. */
  firstLine: number;
}

export interface SummaryRequest {
  level: 'daily' | 'weekly' | 'monthly';
  period: Period;
  /** `2026-03-15`, `2026-W11 (2026-03-09 to 2026-03-15)`, `2026-03`. */
  title: string;
  sources: SourceDoc[];
  /** The node's topics, computed by hipo (the summarizer may use them as hints). */
  topics: TopicInfo[];
  today: LocalDate;
  /** Hash of the node's sources (as recorded in its frontmatter), for caches keyed by input. */
  sourceHash?: string;
}

export interface SummaryUsage {
  model: string;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  /** Answered from the cache: no call was made. */
  cached?: boolean;
}

export interface SummaryResult {
  /** Markdown body without frontmatter. */
  body: string;
  /** Recorded in the node's frontmatter: `extractive`, `llm:<model>`… */
  summarizer: string;
  usage?: SummaryUsage;
  /** Set when this result is a fallback; the node stays eligible for a better pass. */
  fallbackReason?: string;
}

export interface Summarizer {
  readonly id: string;
  summarize(req: SummaryRequest): Promise<SummaryResult>;
}
