// Conversations in a transcript no heading divides. A day of chats pasted into one file, or a
// log that only says who spoke, reads as one entry: one topic, one highlight, for what were a
// dozen conversations about a dozen things. Here such a run of turns is cut where what the user
// talks about changes: exchanges (a user turn and its answer) are compared, a window on each
// side of every gap, by the words they share (TextTiling's idea, on exchanges instead of
// sentences), and cut where the two sides have almost nothing in common.
import type { Item } from './item.js';
import { tokenize } from './keywords.js';

/** Exchanges compared on each side of a gap. */
const WINDOW = 2;
/**
 * Cosine of the two sides' words below which they are two conversations. On MemAware's days with
 * their session headings taken out (1,307 sessions in 91 days), the share of session starts found
 * and of cuts that are one: 0.03 72 % / 87 %, 0.05 80 % / 84 %, 0.08 84 % / 80 %, 0.1 84 % / 75 %.
 * 0.05 and 0.08 balance them equally; the tree keeps a little more at 0.08 (more highlights).
 */
const CUT = 0.08;
/** An answer's first characters tell its subject; the rest is advice in general words. */
const ANSWER_CHARS = 400;
/** Fewer exchanges than this are never cut. */
const MIN_EXCHANGES = 2 * WINDOW;
/**
 * A session under a heading of its own that names no topic ("## Conversation · 14:05 · session
 * …", "## Session 12") is cut only when it is long: an agent's session of an afternoon moves from
 * task to task, a chat of a few turns is one conversation. MemAware's sessions are one
 * conversation each: 11 of its 1,307 reach ten user turns, and cutting them changes none of its
 * figures; cutting every session measured worse (weekly −1.4).
 */
export const LONG_SESSION = 10;

/** Items from each user turn that follows another speaker's, to the next such turn. */
function exchanges(items: readonly Item[]): Item[][] {
  const out: Item[][] = [];
  for (const item of items) {
    const prev = out.at(-1)?.at(-1);
    if (!prev || (item.speaker === 'user' && prev.speaker !== 'user')) out.push([item]);
    else out.at(-1)!.push(item);
  }
  return out;
}

function exchangeWords(exchange: readonly Item[]): Map<string, number> {
  const counts = new Map<string, number>();
  let answer = 0;
  for (const item of exchange) {
    let text = item.text;
    if (item.speaker === 'assistant') {
      if (answer >= ANSWER_CHARS) continue;
      text = text.slice(0, ANSWER_CHARS - answer);
      answer += text.length;
    }
    for (const w of tokenize(text, true)) if (w.length > 2 && !/^\d+$/.test(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

function cosine(a: readonly Map<string, number>[], b: readonly Map<string, number>[]): number {
  const sum = (maps: readonly Map<string, number>[]): Map<string, number> => {
    const out = new Map<string, number>();
    for (const m of maps) for (const [w, c] of m) out.set(w, (out.get(w) ?? 0) + c);
    return out;
  };
  const x = sum(a);
  const y = sum(b);
  let dot = 0;
  let nx = 0;
  let ny = 0;
  for (const [w, c] of x) {
    nx += c * c;
    dot += c * (y.get(w) ?? 0);
  }
  for (const c of y.values()) ny += c * c;
  return nx && ny ? dot / Math.sqrt(nx * ny) : 0;
}

/**
 * A transcript's items as conversations, in order: unchanged (one part) unless the user speaks
 * in at least `minExchanges` exchanges (and MIN_EXCHANGES). A gap between two exchanges is cut
 * where the WINDOW exchanges on either side share almost no words.
 */
export function splitConversations(items: readonly Item[], minExchanges = MIN_EXCHANGES): Item[][] {
  const ex = exchanges(items);
  if (ex.filter((e) => e[0]!.speaker === 'user').length < Math.max(minExchanges, MIN_EXCHANGES)) return [items.slice()];
  const words = ex.map(exchangeWords);
  // Gap i lies before exchange i. Deepest valleys first: where one conversation ends and the next
  // begins, several gaps in a row can fall below the bar, and the right one is the lowest (ties:
  // the two exchanges beside it share the fewest words).
  const gaps: { i: number; sim: number; near: number }[] = [];
  for (let i = WINDOW; i <= ex.length - WINDOW; i++) {
    const sim = cosine(words.slice(i - WINDOW, i), words.slice(i, i + WINDOW));
    if (sim < CUT) gaps.push({ i, sim, near: cosine([words[i - 1]!], [words[i]!]) });
  }
  gaps.sort((a, b) => a.sim - b.sim || a.near - b.near || a.i - b.i);
  // A conversation is at least WINDOW exchanges long.
  const cut = new Set<number>();
  for (const g of gaps) if ([...cut].every((c) => Math.abs(c - g.i) >= WINDOW)) cut.add(g.i);
  const parts: Item[][] = [[]];
  ex.forEach((e, i) => {
    if (cut.has(i)) parts.push([]);
    parts.at(-1)!.push(...e);
  });
  return parts;
}
