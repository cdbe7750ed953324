// What of a node's sources is sent to the model. First the exclusion rules, applied to the text
// itself (the prompt asks for them too, but what is not sent cannot leak into a summary and
// costs nothing): fenced code blocks, stack traces, and ephemeral sections and lines go.
// Then the sources are fitted to the input budget, losing the least valuable text first:
//   1. long assistant answers in chat transcripts are cut to their opening (facts about the
//      user are in the user's turns; answers are mostly general advice), ever shorter, and at
//      last left out;
//   2. if that is not enough, every source keeps its share of the budget from its start,
//      with a marker saying how much was left out (the raw log keeps it all). A node's request
//      builder tries sending it in parts (parts.ts) before accepting that.
import { scanBlocks, splitLines } from '../../tree/markdown.js';
import { isStackTraceLine, type ExclusionRules } from '../exclusion.js';
import type { SourceDoc } from '../summarizer.js';
import type { CountTokens } from '../../text/tokens.js';
import { sliceWhole } from '../../text/slice.js';
import { speakersByLine } from '../../tree/speakers.js';

/** The source text without code blocks, stack traces, and ephemeral sections or lines. */
export function applyExclusions(text: string, rules: ExclusionRules): string {
  const lines = splitLines(text);
  const drop = new Uint8Array(lines.length);
  const blocks = scanBlocks(lines);
  let skipDepth = 0; // inside an ephemeral section of this heading depth
  for (const b of blocks) {
    if (b.kind === 'heading') {
      if (skipDepth && b.depth <= skipDepth) skipDepth = 0;
      if (!skipDepth && rules.isEphemeral(b.text)) skipDepth = b.depth;
    }
    if (skipDepth || b.kind === 'code') for (let l = b.line; l <= b.endLine; l++) drop[l - 1] = 1;
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (drop[i] || isStackTraceLine(line) || rules.isEphemeral(line)) continue;
    out.push(line);
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const HEADING = /^\s{0,3}#{1,6}\s/;

/** Cuts every assistant turn to about `max` characters (whole lines, at least the first); 0 leaves them out. */
export function capAssistantTurns(text: string, max: number): string {
  const out: string[] = [];
  let inAssistant = false;
  let used = 0;
  let omitted = 0;
  const flush = (): void => {
    if (omitted && max > 0) out.push(`[… ${omitted} more line${omitted === 1 ? '' : 's'} of the answer]`);
    omitted = 0;
  };
  const speakersAt = speakersByLine(text);
  for (const [i, line] of splitLines(text).entries()) {
    const speakers = speakersAt(i);
    const heading = HEADING.test(line);
    // A heading starts a new part; one that names a speaker (`## Assistant`) starts a turn.
    const sp = speakers.turn(line)?.speaker ?? (heading ? speakers.heading(line) : null);
    if (sp || heading) {
      flush();
      inAssistant = sp === 'assistant';
      used = 0;
      if (inAssistant && max === 0) {
        omitted++;
        continue;
      }
      if (inAssistant && line.length > max) {
        out.push(`${sliceWhole(line, 0, max).replace(/\s+\S*$/, '')} …`);
        used = max;
        continue;
      }
      out.push(line);
      used = line.length;
      continue;
    }
    if (inAssistant && max === 0) {
      if (line.trim()) omitted++;
      continue;
    }
    if (inAssistant && used + line.length > max) {
      if (line.trim()) omitted++;
      continue;
    }
    used += line.length;
    out.push(line);
  }
  flush();
  return out.join('\n');
}

export interface Fitted {
  sources: SourceDoc[];
  tokens: number;
  /** How the sources were shortened, if they were (for the journal and --dry-run). */
  condensed: string | null;
}

/**
 * Fits sources to `budget` tokens (as `render` lays them out). Returns them unchanged when
 * they fit.
 */
export function fitSources(
  sources: readonly SourceDoc[],
  budget: number,
  count: CountTokens,
  render: (s: readonly SourceDoc[]) => string,
): Fitted {
  let current = [...sources];
  let tokens = count(render(current));
  if (tokens <= budget) return { sources: current, tokens, condensed: null };
  for (const cap of [1500, 700, 300, 120, 0]) {
    current = sources.map((s) => ({ ...s, text: capAssistantTurns(s.text, cap) }));
    tokens = count(render(current));
    if (tokens <= budget)
      return { sources: current, tokens, condensed: cap ? `assistant answers cut to ~${cap} characters` : 'assistant answers left out' };
  }
  // Still too long: every source keeps its share, from its start.
  const base = current;
  for (let ratio = budget / tokens, round = 0; round < 6 && tokens > budget; round++, ratio *= 0.9) {
    current = base.map((s) => ({ ...s, text: truncateText(s.text, Math.max(200, Math.floor(s.text.length * ratio))) }));
    tokens = count(render(current));
  }
  return { sources: current, tokens, condensed: 'sources truncated to fit llm.maxInputTokens' };
}

function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  const kept = cut > maxChars * 0.5 ? text.slice(0, cut) : sliceWhole(text, 0, maxChars);
  const omitted = splitLines(text.slice(kept.length)).filter((l) => l.trim()).length;
  return `${kept.trimEnd()}\n[… ${omitted} more line${omitted === 1 ? '' : 's'} not sent: over the input budget]`;
}
