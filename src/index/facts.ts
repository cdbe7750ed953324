// What a user said about themselves: in a transcript (`User:` / `Assistant:` turns), the user's
// statements about the speaker ("I moved to Lisbon in March", "my cat Luna scratches
// everything"), found as the tree's user facts are (summarize/facts/statement.ts), as the user
// said them. They are what a memory is for, and the index weighs them more (a column of their
// own). Sections typed `[user]` hold such facts by definition and count whole.
import { userStatements } from '../summarize/facts/statement.js';
import { speakersByLine, type Speaker } from '../tree/speakers.js';

/** For each 1-based line spoken by the user, its self-statements (lines without any are absent). */
export function userFactsByLine(lines: readonly string[], firstLine = 1): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const speakersAt = speakersByLine(lines.join('\n'));
  let speaker: Speaker | null = null;
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) return;
    const speakers = speakersAt(i);
    const turn = speakers.turn(line);
    let text = line;
    if (turn) {
      speaker = turn.speaker;
      text = line.slice(turn.labelLength);
    } else if (/^#{1,6}\s/.test(line)) {
      // A heading that names a speaker starts a turn; any other starts a new exchange, whose
      // first turn names its speaker.
      speaker = speakers.heading(line);
      if (speaker) return;
    }
    if (speaker !== 'user') return;
    const facts = userStatements(text).map((st) => st.raw);
    if (facts.length) out.set(firstLine + i, facts);
  });
  return out;
}
