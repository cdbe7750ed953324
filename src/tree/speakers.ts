// Who speaks in a transcript. Chats reach memory/ in many shapes: hipo's captures and most logs
// write `User:` / `Assistant:`, exporters write `**You:**` / `**ChatGPT:**`, `## Human` /
// `## Claude` or `## Prompt:` / `## Response:` headings. Everything that reads turns (the
// summarizer's entries, the index's user statements, a model's prepared input) asks this module,
// so that a fact is the user's in every one of them or in none.

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
const LABEL = new RegExp(`^\\s*${BEFORE}${BOLD}(${NAMES})${BOLD}${AFTER}\\s*:${BOLD}\\s*`, 'i');
const ANY_LABEL = new RegExp(`^\\s*${BEFORE}${BOLD}(?:${NAMES})${BOLD}${AFTER}\\s*:`, 'im');
const HEADING_NAME = `(?:(${NAMES})${BOLD}${AFTER}\\s*:?|(${[...HEADING_USERS, ...HEADING_ASSISTANTS].join('|')})${BOLD}\\s*:)`;
const HEADING_SOURCE = `^\\s{0,3}#{1,6}\\s+${BOLD}${HEADING_NAME}${BOLD}\\s*#*\\s*$`;
const HEADING = new RegExp(HEADING_SOURCE, 'i');
const HEADINGS = new RegExp(HEADING_SOURCE, 'gim');
/** A transcript that names its user "Me" speaks to "You"; elsewhere "You" is how ChatGPT names the user. */
const ME_LABEL = new RegExp(`^\\s*${BEFORE}${BOLD}me${BOLD}${AFTER}\\s*:`, 'im');

export interface Turn {
  speaker: Speaker;
  /** Characters of the line the label takes (the said text follows). */
  labelLength: number;
}

/** The speaker labels of one document. */
export class Speakers {
  private readonly youIsUser: boolean;
  /**
   * Headings are turns only in a document whose headings name both sides: a note's `## User`
   * section (about a data model, say) is a topic.
   */
  private readonly headingTurns: boolean;

  constructor(text: string) {
    this.youIsUser = !ME_LABEL.test(text);
    const named = new Set<Speaker>();
    for (const m of text.matchAll(HEADINGS)) named.add(this.speakerOf(m[1] ?? m[2]!));
    this.headingTurns = named.size === 2;
  }

  private speakerOf(name: string): Speaker {
    const n = name.toLowerCase();
    if (n === 'you') return this.youIsUser ? 'user' : 'assistant';
    return USERS.includes(n) || HEADING_USERS.includes(n) ? 'user' : 'assistant';
  }

  /** The turn a line starts (`User: …`, `**ChatGPT:** …`), or null. */
  turn(line: string): Turn | null {
    const m = LABEL.exec(line);
    return m ? { speaker: this.speakerOf(m[1]!), labelLength: m[0].length } : null;
  }

  /** The speaker a heading names when it is nothing but a speaker (`### User`, `## ChatGPT:`). */
  heading(line: string): Speaker | null {
    if (!this.headingTurns) return null;
    const m = HEADING.exec(line);
    return m ? this.speakerOf(m[1] ?? m[2]!) : null;
  }
}

/** Does some line of `text` start a turn? */
export function startsTurn(text: string): boolean {
  return ANY_LABEL.test(text);
}
