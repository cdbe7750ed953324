// Grouping transcript messages into turns: a user's prompt and everything the assistant did
// until the next prompt. A turn is the unit that is archived, once.
import type { ToolCall, TranscriptMessage } from './transcript.js';

type TurnPart = { kind: 'user' | 'assistant'; text: string } | { kind: 'tool'; call: ToolCall };

export interface Turn {
  /** The prompt's uuid, or `@<byte offset>` of the turn's first line. */
  key: string;
  /** Byte range of the turn's lines in the transcript. */
  start: number;
  end: number;
  /** Timestamp of the turn's first message. */
  timestamp: string | null;
  /** Starts mid-turn: the beginning was archived by an earlier hook. */
  continued: boolean;
  /** The user's prompt text ('' for a continuation or an assistant-only turn). */
  prompt: string;
  parts: TurnPart[];
}

/**
 * Groups messages (in file order) into turns. Messages before the first prompt continue the
 * turn `continuing` (a partly archived one) when given, or form a turn of their own.
 */
export function groupTurns(messages: readonly TranscriptMessage[], continuing: string | null): Turn[] {
  const turns: Turn[] = [];
  let cur: Turn | null = null;
  for (const m of messages) {
    if (m.role === 'user' && m.text) {
      cur = {
        key: m.uuid ?? `@${m.offset}`,
        start: m.offset,
        end: m.end,
        timestamp: m.timestamp,
        continued: false,
        prompt: m.text,
        parts: [{ kind: 'user', text: m.text }],
      };
      turns.push(cur);
      continue;
    }
    if (!cur) {
      cur = {
        key: continuing ?? m.uuid ?? `@${m.offset}`,
        start: m.offset,
        end: m.end,
        timestamp: m.timestamp,
        continued: continuing !== null,
        prompt: '',
        parts: [],
      };
      turns.push(cur);
    }
    cur.end = m.end;
    if (m.text) {
      const last = cur.parts[cur.parts.length - 1];
      // Consecutive assistant lines (streamed blocks of one answer) read as one answer.
      if (last && last.kind === m.role) last.text += `\n\n${m.text}`;
      else cur.parts.push({ kind: m.role, text: m.text });
    }
    for (const call of m.tools) cur.parts.push({ kind: 'tool', call });
  }
  return turns;
}
