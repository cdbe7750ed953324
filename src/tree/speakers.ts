// Who speaks in a transcript. Chats reach memory/ in many shapes: hipo's captures and most logs
// write `User:` / `Assistant:`, exporters write `**You:**` / `**ChatGPT:**`, `## Human` /
// `## Claude` or `## Prompt:` / `## Response:` headings. Everything that reads turns (the
// summarizer's entries, the index's user statements, a model's prepared input) asks this module,
// so that a fact is the user's in every one of them or in none.

import { splitLines } from './markdown.js';

export type Speaker = 'user' | 'assistant';

/** Names a line may start with, `Name:` (in bold or not). */
const USERS = ['user', 'human', 'me', 'you'];
const ASSISTANTS = ['assistant', 'ai', 'claude', 'chatgpt', 'gpt', 'gemini', 'copilot', 'bot', 'codex', 'agent'];
/**
 * Names only a heading may give, with its colon (ChatGPT exporters' `## Prompt:` / `## Response:`):
 * as a line's first word, "Response: 200 OK" in a note is not a turn.
 */
const HEADING_USERS = ['prompt'];
const HEADING_ASSISTANTS = ['response'];

const BOLD = '(?:\\*\\*|__)?';
/** A time or date beside the name, as chat exports stamp turns: `[10:42] User:`, `User (2023-05-30 10:42):`. */
const STAMP = '[\\d:./\\-,T ]{3,24}(?:\\s?[AaPp]\\.?[Mm]\\.?)?';
const BEFORE = `(?:\\[${STAMP}\\]\\s*)?`;
const AFTER = `(?:\\s*[[(]${STAMP}[\\])])?`;
const NAMES = [...USERS, ...ASSISTANTS].join('|');
/** `Name:` at a line's start for any of `names` (a group of them), and the rest of the label. */
const label = (names: string, flags: string): RegExp => new RegExp(`^\\s*${BEFORE}${BOLD}${names}${BOLD}${AFTER}\\s*:`, flags);
/** A turn's label and the space after it (the said text follows); the name in group 1. */
const LABEL = new RegExp(`${label(`(${NAMES})`, '').source}${BOLD}\\s*`, 'i');
/** Does some line start a turn, a user's, an assistant's? */
const ANY_LABEL = label(`(?:${NAMES})`, 'im');
const USER_LABEL = label(`(?:${USERS.join('|')})`, 'im');
const ASSISTANT_LABEL = label(`(?:${ASSISTANTS.join('|')})`, 'im');
const HEADING_NAME = `(?:(${NAMES})${BOLD}${AFTER}\\s*:?|(${[...HEADING_USERS, ...HEADING_ASSISTANTS].join('|')})${BOLD}\\s*:)`;
const HEADING_SOURCE = `^\\s{0,3}#{1,6}\\s+${BOLD}${HEADING_NAME}${BOLD}\\s*#*\\s*$`;
const HEADING = new RegExp(HEADING_SOURCE, 'i');
const HEADINGS = new RegExp(HEADING_SOURCE, 'gim');
/** A transcript that names its user "Me" speaks to "You"; elsewhere "You" is how ChatGPT names the user. */
const ME_LABEL = label('me', 'im');

export interface Turn {
  speaker: Speaker;
  /** Characters of the line the label takes (the said text follows). */
  labelLength: number;
}

/** A label that may be a person's name: one or two capitalised words and a colon, at a line's start. */
const NAME_LABEL = /^\s*(?:\*\*|__)?(\p{Lu}[\p{L}'’.-]{0,20}(?: \p{Lu}[\p{L}'’.-]{0,20})?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*/u;
/** Labels notes use that are no one's name. */
const NOT_NAMES = new Set(
  `note notes update summary decision decisions example question answer tip warning step context goal todo done next
  result results reason why how what when where fix issue problem solution idea ideas action actions status plan
  source sources link links date time session topic tags tag title subject re fyi ps nb important edit output input
  error errors response prompt q a`
    .split(/\s+/)
    .filter(Boolean),
);

/** The speaker labels of one document, or of one source in it (speakersByLine). */
export class Speakers {
  private readonly youIsUser: boolean;
  /**
   * Headings are turns only in a document whose headings name both sides: a note's `## User`
   * section (about a data model, say) is a topic.
   */
  private readonly headingTurns: boolean;
  /**
   * The name a transcript gives its user ("Dana: …" answered by "Assistant: …"), when it names
   * the assistant but not the user: the one name label the assistant answers, at least twice and
   * at least half the times it speaks (a label inside an answer, "Monday:", is not answered).
   */
  private readonly userName: string | null;

  constructor(text: string) {
    this.youIsUser = !ME_LABEL.test(text);
    const named = new Set<Speaker>();
    for (const m of text.matchAll(HEADINGS)) named.add(this.speakerOf(m[1] ?? m[2]!));
    this.headingTurns = named.size === 2;
    this.userName = this.nameOfUser(text);
  }

  private nameOfUser(text: string): string | null {
    // Only a document that names its assistant and not its user has one to find: two scans tell,
    // before a look at every line (most documents name no speaker, or both).
    if (!ASSISTANT_LABEL.test(text) || USER_LABEL.test(text)) return null;
    // Labels in document order: a known speaker, or a name.
    const order: (Speaker | string)[] = [];
    for (const line of text.split('\n')) {
      const known = LABEL.exec(line);
      if (known) {
        order.push(this.speakerOf(known[1]!));
        continue;
      }
      const m = NAME_LABEL.exec(line);
      if (m && !NOT_NAMES.has(m[1]!.toLowerCase())) order.push(m[1]!);
    }
    if (order.includes('user') || !order.includes('assistant')) return null;
    const said = new Map<string, { turns: number; answered: number }>();
    order.forEach((label, i) => {
      if (label === 'user' || label === 'assistant') return;
      const c = said.get(label) ?? { turns: 0, answered: 0 };
      c.turns++;
      if (order[i + 1] === 'assistant') c.answered++;
      said.set(label, c);
    });
    // The assistant answers its user, twice at least and most times; where it answers several
    // (a meeting it minutes), which one is the user is a guess.
    const users = [...said].filter(([, c]) => c.answered >= 2 && c.answered * 2 >= c.turns);
    return users.length === 1 ? users[0]![0] : null;
  }

  private speakerOf(name: string): Speaker {
    const n = name.toLowerCase();
    if (n === 'you') return this.youIsUser ? 'user' : 'assistant';
    return USERS.includes(n) || HEADING_USERS.includes(n) ? 'user' : 'assistant';
  }

  /** The turn a line starts (`User: …`, `**ChatGPT:** …`), or null. */
  turn(line: string): Turn | null {
    const m = LABEL.exec(line);
    if (m) return { speaker: this.speakerOf(m[1]!), labelLength: m[0].length };
    if (this.userName === null) return null;
    const n = NAME_LABEL.exec(line);
    return n && n[1] === this.userName ? { speaker: 'user', labelLength: n[0].length } : null;
  }

  /** Does some line of `text` start a turn? */
  startsTurn(text: string): boolean {
    return ANY_LABEL.test(text) || (this.userName !== null && text.split('\n').some((l) => this.turn(l) !== null));
  }

  /** The speaker a heading names when it is nothing but a speaker (`### User`, `## ChatGPT:`). */
  heading(line: string): Speaker | null {
    if (!this.headingTurns) return null;
    const m = HEADING.exec(line);
    return m ? this.speakerOf(m[1] ?? m[2]!) : null;
  }
}

/**
 * A heading that opens one source's text in a node that concatenates several: a day
 * (`## 2026-11-12 (Thu)`, a raw log's `# 2026-11-12`), a week or a month. Only the bare date: a
 * heading that adds a time (`### 2026-11-12 14:05`) stamps a turn within the day.
 */
const SOURCE_HEADING = /^\s{0,3}#{1,6}\s+(?:\d{4}-\d{2}-\d{2}(?:\s+\(\p{L}{2,9}\.?\))?|\d{4}-W\d{2}|\d{4}-\d{2})\s*#*\s*$/u;
const FENCE = /^\s{0,3}(?:```|~~~)/;

/**
 * The speakers of each line of a text that may join several sources (a weekly node's days, a
 * monthly node's weeks): each source's labels are read on their own terms. A day that calls its
 * user "Dana" stays so beside a day that says `User:`, as it is when its own log is read.
 * Returns the Speakers of the source holding a 0-based line.
 */
export function speakersByLine(text: string): (line: number) => Speakers {
  const lines = splitLines(text);
  const starts: number[] = [0];
  let fenced = false;
  lines.forEach((line, i) => {
    if (FENCE.test(line)) fenced = !fenced;
    else if (!fenced && i > 0 && SOURCE_HEADING.test(line)) starts.push(i);
  });
  if (starts.length === 1) {
    const one = new Speakers(text);
    return () => one;
  }
  const parts = starts.map((from, k) => new Speakers(lines.slice(from, starts[k + 1] ?? lines.length).join('\n')));
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= line) lo = mid;
      else hi = mid - 1;
    }
    return parts[lo]!;
  };
}
