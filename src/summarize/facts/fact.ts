// A fact: one thing memory should keep about the user (who they are, what they have and do),
// about how they want the agent to work (feedback), or a pointer to something (reference).
// Facts are written one per line, in one format at every level of the tree:
//   `- 05-29 · pets: My dog Max is a Golden Retriever`
// (the origin label only where a node covers more than one day), so that a parent reading a
// child's line gets back the same fact, with the same category and the same salience.
import { CATEGORIES, categoryOf, type Category } from './category.js';
import { salience } from './salience.js';

type FactType = 'user' | 'feedback' | 'reference';

export interface Fact {
  type: FactType;
  /** What a user fact is about; feedback and references have none. */
  category: Category | null;
  text: string;
  salience: number;
  /** Facts with the same key say the same thing (case, punctuation and asides aside). */
  key: string;
  /** What the fact is a value of ("commute", "cat name"): a later fact of the same slot replaces it. */
  slot: string | null;
  /**
   * A user fact the writer typed as one (a `[user]` section, a node's User Facts), as opposed to
   * one hipo found in what the user said. Typed facts are always kept, at every level.
   */
  typed?: boolean;
}

/** A user fact the writer typed as such is worth more than one hipo found in a chat. */
const TYPED_BONUS = 1.5;

const CATEGORY_SET = new Set<string>(CATEGORIES);
const CATEGORY_PREFIX = new RegExp(`^(${CATEGORIES.join('|')}):\\s+`);

/** The words of a fact, for telling restatements apart from new facts. */
function factKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const POSSESSIVE_SLOT =
  /\bmy\s+((?:[a-z’'-]+\s+){0,2}?[a-z’'-]+)\s+(?:is|are|was|were|takes|took|costs|cost|has been|became|lives|weighs|turned)\b/i;
const FIXED_SLOTS: [string, RegExp][] = [
  ['name', /\bmy name(?:'s| is)\b/i],
  ['age', /\bi(?:'m| am) \d{1,3}(?: years old)?\b|\bi turned \d{1,3}\b/i],
  ['home', /\bi (?:live|am living|'m living) in\b|\bi(?:'ve| have)? (?:just |recently )?moved to\b|\bi(?:'m| am) based in\b/i],
  ['work', /\bi work (?:as|at|for)\b|\bi(?:'m| am) (?:a|an) [a-z]+ (?:at|for)\b|\bmy (?:job|role|position) (?:is|as)\b/i],
];
const WEAK_HEADS = new Set(['name', 'one', 'thing', 'favorite', 'favourite', 'new', 'old', 'first', 'last']);

/** The slot a fact fills, when it states a value that can change: `my commute takes ...`. */
export function slotOf(text: string): string | null {
  for (const [slot, re] of FIXED_SLOTS) if (re.test(text)) return slot;
  const m = POSSESSIVE_SLOT.exec(text);
  if (!m) return null;
  // The head noun decides the slot ("my daily commute" and "my commute" are one slot); an
  // owner before 's stays ("my cat's name" is not "my name").
  const words = m[1]!
    .toLowerCase()
    .replace(/[’']s\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const head = words[words.length - 1]!;
  if (words.length > 1 && WEAK_HEADS.has(head)) return `${words[words.length - 2]} ${head}`;
  if (WEAK_HEADS.has(head)) return null;
  return words.length > 1 && /[’']s\b/.test(m[1]!) ? `${words[0]} ${head}` : head;
}

export function userFact(text: string, raw = text, category?: Category): Fact {
  return {
    type: 'user',
    category: category ?? categoryOf(text),
    text,
    salience: salience(text, raw),
    key: factKey(text),
    slot: slotOf(text),
  };
}

export function feedbackFact(text: string): Fact {
  return { type: 'feedback', category: null, text, salience: salience(text), key: factKey(text), slot: null };
}

export function referenceFact(text: string): Fact {
  return { type: 'reference', category: null, text, salience: salience(text), key: factKey(text), slot: null };
}

/** `pets: My dog Max ...`: how a user fact is written in a node's User Facts section. */
export function formatUserFact(f: Fact): string {
  return f.category && f.category !== 'other' ? `${f.category}: ${f.text}` : f.text;
}

/**
 * A User Facts line back into its fact (origin label already taken off): a typed one (from a
 * node's User Facts) gets the same bonus it had when it was found, so it ranks as it did below.
 */
export function parseUserFactLine(line: string, typed = false): Fact {
  const m = CATEGORY_PREFIX.exec(line);
  const f = m && CATEGORY_SET.has(m[1]!) ? userFact(line.slice(m[0].length), undefined, m[1] as Category) : userFact(line);
  return typed ? typedFact(f) : f;
}

export function typedFact(f: Fact): Fact {
  return { ...f, typed: true, salience: Math.round((f.salience + TYPED_BONUS) * 100) / 100 };
}
