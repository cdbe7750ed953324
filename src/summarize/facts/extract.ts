// Typed facts from an entry of any level (spec, type-aware rules):
//   - a section tagged `[user]`, `[feedback]` or `[reference]` holds facts of that type;
//   - in a conversation, the user's statements about themselves are `user` facts, the user's
//     standing instructions to the agent are `feedback`, and what the assistant recommended by
//     name is a `reference` ("suggested: ..."); the assistant's words are never a user fact;
//   - in untyped notes, a first-person statement ("I prefer pnpm") or one about "the user" is a
//     `user` fact; decisions and tasks stay `project`;
//   - a summary node's User Facts, Feedback and References sections are read back line by line.
import type { Entry } from '../entries.js';
import type { Item } from '../item.js';
import { feedbackFact, parseUserFactLine, referenceFact, typedFact, userFact, type Fact } from './fact.js';
import { tidy, turnParts, userStatements } from './statement.js';
import { anyOf, wordsOf, wordsRegex } from './alternation.js';

export interface EntryFact {
  fact: Fact;
  item: Item;
  /** The day or week a summary node's line named (`05-29 · ...`), kept when it is carried up. */
  origin?: string;
}

const ORIGIN = /^((?:\d{2}-\d{2}|W\d{2}) · )/;

/** A summary line's origin label and the rest. */
function splitOrigin(text: string): { origin: string | undefined; rest: string } {
  const m = ORIGIN.exec(text);
  return m ? { origin: m[1]!, rest: text.slice(m[0].length) } : { origin: undefined, rest: text };
}

// A standing instruction: said to the agent, meant beyond this one answer. It is an order
// ("Always answer in English", "Please don't use emojis from now on"), a wish addressed to the
// agent ("I'd like you to keep answers short"), or a preference about answers ("I prefer code
// first"); a remark that merely contains "always" ("you're always so helpful") is none.
const ORDER = new RegExp(
  `^(?:please\\s+)?${wordsOf(`always never don't do\\snot stop avoid keep use write respond reply answer
  format give include call\\sme remind\\sme make\\ssure only`)}\\b`,
  'i',
);
const DURABLE = wordsRegex(
  anyOf(
    'from now on',
    'going forward',
    'in (?:the )?future',
    '(?:every|each) time',
    'whenever',
    'always',
    'never',
    'by default',
    'in general',
    'as a rule',
    'for all (?:my|our|future)',
    'in (?:all|every|any|your) (?:of )?(?:your )?(?:answers?|responses?|replies|messages)',
  ),
);
const WISH = new RegExp(
  `^${anyOf(
    "i(?:'d| would)? (?:like|want|need|prefer) (?:you|it if you|that you)",
    // What the agent makes, wanted a certain way: "I always want commit messages to explain why".
    `i(?: always| never)? (?:like|want|need|prefer) (?:the |my |our |your )?(?:${wordsOf(`commit\\smessages? answers? responses?
    replies code comments tests docs documentation pull\\srequests prs diffs changes output explanations? summaries
    variable\\snames function\\snames`)})`,
    `(?:from now on|going forward|in (?:the )?future),?\\s+(?:please\\s+)?${wordsOf("you always never don't do\\snot use write answer respond reply keep call\\sme")}`,
  )}\\b`,
  'i',
);
const PREFERS_ANSWERS = new RegExp(
  `^i(?:'d| would)? prefer ${wordsOf(`short brief concise detailed longer shorter bullet code answers
  responses replies explanations examples`)}\\b`,
  'i',
);

const ACCEPTED_THEN = /^(?:yes|yeah|yep|sure|ok(?:ay)?|great|perfect|thanks)(?:\s+please)?[,.!]?\s+(?=(?:and|also)\s)/i;

/** True for a user's sentence that tells the agent how to work from now on. */
export function isStandingInstruction(sentence: string): boolean {
  const s = sentence
    .trim()
    // "Yes please, and from now on ...": a reply to the agent's offer, then the instruction.
    .replace(ACCEPTED_THEN, '')
    .replace(/^(?:ok(?:ay)?|also|and|oh|btw|by the way|one more thing|finally|lastly)[,:]?\s+/i, '');
  if (s.endsWith('?') || s.length < 12 || s.length > 300) return false;
  if (PREFERS_ANSWERS.test(s)) return true;
  if (WISH.test(s)) return DURABLE.test(s) || /\b(?:always|never|keep|call me)\b/i.test(s);
  return ORDER.test(s) && DURABLE.test(s);
}

// A statement whose value was a secret ("my API key is …", "I set the wifi password to …"): what is
// left of it says only that the user has one, which is not worth a place in the profile.
const SECRET_HELD = /\[REDACTED(?::[\w-]*)?\]/;

const THIRD_PERSON_USER = /^(?:the )?user(?:'s|’s)?\s+(?!asked|wants to know|requested|said|says)/i;
const LIST_HEAD = /^(?:\d{1,2}[.)]\s*)?(?:\*\*([^*]{2,60}?)\*\*|([A-Z][^:–—]{1,60}?))\s*(?::|\s[–—-]\s)\s*(.*)$/;
const SUGGESTIONS_PER_ENTRY = 12;

// List heads that name a step or a part of an answer, not a thing someone could go and get.
const GENERIC_HEADS = new Set(
  `step tip note example option ingredient ingredients instruction instructions directions
  method tips notes examples options summary conclusion overview introduction benefit benefits pros cons cost price budget
  time timeline location day week phase part a an the for if when you your this these it consider check use try make get
  be do choose prepare apply add keep avoid look research examine consult start set find create build plan focus practice
  learn take ask read visit join follow contact reach stay remember don't always never
  total subtotal here verse chorus pre-chorus bridge outro intro`.split(/\s+/),
);
const generic = (head: string): boolean =>
  GENERIC_HEADS.has(
    head
      .split(/\s+/)[0]!
      .toLowerCase()
      .replace(/[^a-z'-]/g, ''),
  );

const ABSTRACT = /(?:tion|sion|ity|ness|ment|ance|ence|ing|ship|ism|ics)$/i;
const ADVICE_WORDS = new Set(
  `objective objectives platforms platform tactics tactic strategy strategies goal goals
  audience budget timeline overview conclusion summary materials equipment safety cost costs price prices location duration
  difficulty comfort style fit size color colour value research design quality features benefits tools resources rest
  hydration nutrition stretching recovery warmup practice patience support content format tone structure length themes
  theme message purpose scope context background setting characters plot ending opening introduction`.split(/\s+/),
);

/** A list head that names something (a place, product, title, app), not a step of advice. */
function isNameLike(head: string): boolean {
  const words = head.split(/\s+/);
  if (words.length > 6 || generic(head)) return false;
  // A name: every longer word capitalised ("International Budget Hostel"), or a capital after
  // the first word ("the Ringed City DLC"), or a single capitalised word ("Absinthe", "Veja").
  // One word that is an abstract noun ("Quality", "Sustainability", "Measurement") heads a
  // paragraph of advice, not a thing.
  if (words.length === 1 && (ABSTRACT.test(head) || ADVICE_WORDS.has(head.toLowerCase()))) return false;
  const long = words.filter((w) => w.length > 3 && /^[a-z]/i.test(w));
  if (long.length && long.every((w) => /^[A-Z]/.test(w))) return true;
  return words.slice(1).some((w) => /^[A-Z][a-z]|^[A-Z]{2,}/.test(w));
}

/** The names an assistant's list items open with ("4. International Budget Hostel: ..."). */
export function suggestedNames(items: readonly Item[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const i of items) {
    if (i.speaker !== 'assistant') continue;
    // A numbered list can come as one paragraph ("1. Duolingo - ... 2. Babbel - ...").
    const pieces = /\d[.)]\s/.test(i.text) ? i.text.split(/\s+(?=\d{1,2}[.)]\s+(?:\*\*)?[A-Z])/) : [i.text];
    for (const piece of pieces) {
      const m = LIST_HEAD.exec(piece.trim());
      if (!m) continue;
      let head = (m[1] ?? m[2] ?? '').trim().replace(/[*_`]/g, '');
      const rest = m[3]!.trim();
      // A short value after the head is part of what was suggested; an amount makes even a
      // plain head worth keeping ("Influencer marketing: $2,000").
      const value = rest.length > 0 && rest.length <= 30 && !/[.!?]$/.test(rest) ? rest : null;
      // ("Total: $80" sums up the list; it names nothing.)
      if (!isNameLike(head) && !(value && /\d/.test(value) && head.split(/\s+/).length <= 5 && !generic(head))) continue;
      if (value) head = `${head}: ${value}`;
      const k = head.toLowerCase();
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(head);
    }
  }
  return out.slice(0, SUGGESTIONS_PER_ENTRY);
}

/** Every fact of one entry, in the order its items came. */
export function factsOfEntry(e: Entry): EntryFact[] {
  const out: EntryFact[] = [];
  if (e.bucket === 'user' || e.bucket === 'said' || e.bucket === 'feedback' || e.bucket === 'references') {
    const bucket = e.bucket;
    const make = (t: string): Fact =>
      bucket === 'feedback' ? feedbackFact(t) : bucket === 'references' ? referenceFact(t) : parseUserFactLine(t, bucket === 'user');
    for (const item of e.items) {
      const { origin, rest } = splitOrigin(item.text);
      out.push({ fact: make(rest), item, ...(origin ? { origin } : {}) });
    }
    return out;
  }
  if (e.bucket) return out;

  if (e.type === 'user') {
    // A sub-section's heading (`## Family` under `# About me [user]`) labels facts; it is not one.
    for (const item of e.items) if (!item.heading) out.push({ fact: typedFact(userFact(tidy(item.text), item.text)), item });
    return out;
  }
  if (e.type === 'feedback') {
    // Rule, why and how-to-apply stay together and verbatim.
    if (e.items.length) out.push({ fact: feedbackFact(e.items.map((i) => i.text).join(' | ')), item: e.items[0]! });
    return out;
  }
  if (e.type === 'reference') {
    const pointers = e.items.filter((i) => /https?:\/\/|[\w-]+\/[\w./-]+|\.\w{2,4}\b|→/.test(i.text));
    const first = pointers[0] ?? e.items[0];
    if (first) out.push({ fact: referenceFact(first.text), item: first });
    return out;
  }

  const chat = e.items.some((i) => i.speaker !== null);
  for (const item of e.items) {
    if (item.speaker === 'assistant') continue;
    if (chat) {
      // A long turn is a task given to the agent (a role to play, a document to write): its
      // "always ..." belongs to that task, not to how the user wants to be answered.
      const parts = turnParts(item.text, item.text.length <= 800 ? isStandingInstruction : undefined);
      for (const r of parts.instructions) out.push({ fact: feedbackFact(r), item });
      for (const st of parts.statements) if (!SECRET_HELD.test(st.text)) out.push({ fact: userFact(st.text, st.raw), item });
    } else if (THIRD_PERSON_USER.test(item.text)) {
      out.push({ fact: userFact(tidy(item.text)), item });
    } else if (/^\s*(?:i|i'm|i've|my)\b/i.test(item.text)) {
      for (const st of userStatements(item.text)) if (!SECRET_HELD.test(st.text)) out.push({ fact: userFact(st.text, st.raw), item });
    }
  }
  if (chat) {
    const names = suggestedNames(e.items);
    const first = e.items.find((i) => i.speaker === 'assistant');
    if (names.length && first) out.push({ fact: referenceFact(`suggested: ${names.join('; ')}`), item: first });
  }
  return out;
}
