// What a user said about themselves: in a transcript (`User:` / `Assistant:` turns), the user's
// statements about the speaker ("I moved to Lisbon in March", "my cat Luna scratches
// everything"), found as the tree's user facts are (summarize/facts/statement.ts), as the user
// said them. They are what a memory is for, and the index weighs them more (a column of their
// own). Sections typed `[user]` hold such facts by definition and count whole.
import { userStatements } from '../summarize/facts/statement.js';

const SPEAKER = /^\s*(?:\*\*)?(user|human|me|you|assistant|ai|claude|bot|gpt|codex|agent)(?:\*\*)?\s*:(?:\*\*)?\s*/i;

/** For each 1-based line spoken by the user, its self-statements (lines without any are absent). */
export function userFactsByLine(lines: readonly string[], firstLine = 1): Map<number, string[]> {
  const out = new Map<number, string[]>();
  let speaker: 'user' | 'assistant' | null = null;
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) return;
    const m = SPEAKER.exec(line);
    let text = line;
    if (m) {
      speaker = /^(user|human|me)$/i.test(m[1]!) ? 'user' : 'assistant';
      text = line.slice(m[0].length);
    } else if (/^#{1,6}\s/.test(line)) {
      // A new section starts a new exchange; its first turn names its speaker.
      speaker = null;
    }
    if (speaker !== 'user') return;
    const facts = userStatements(text).map((st) => st.raw);
    if (facts.length) out.set(firstLine + i, facts);
  });
  return out;
}
