// Which parts of what a user says are durable statements about themselves. A chat turn mixes
// them with requests and reactions ("By the way, I adopted Max last month — any tips for
// crate training?"): a turn is cut into sentences, a sentence into clauses, and a statement is a
// run of clauses that starts with the speaker saying something about themselves and stops at the
// first request, question or reaction. Questions the user asks, what they ask the agent to write,
// and text they paste or quote are not facts about them.
import { sentences } from '../classify.js';
import { anyOf, wordsOf } from './alternation.js';
import { tokenize } from '../keywords.js';
import { plainSpeech } from '../../text/apostrophes.js';

const STATEMENT_MIN = 12;

// Words that open a clause without saying anything (discourse markers, thanks, reactions).
const DISCOURSE = new RegExp(
  `^(?:${anyOf(
    'i was (?:just )?thinking (?:about|of) how',
    "i(?:'ve| have) been thinking (?:about|of) how",
    'when',
    'since',
    'as for',
    'i think',
    'i guess',
    'i suppose',
    'i believe',
    'i feel like',
    'i realized',
    'i realised',
    'i remember',
    'i noticed',
    'i just wanted to (?:mention|say|add|share|let you know)',
    'i wanted to (?:mention|say|add|share|let you know)',
    'i should mention',
    'i forgot to mention',
    'as (?:we|i) (?:discussed|mentioned)(?: earlier| before)?',
    'speaking of which',
    "speaking of (?:[\\w'-]+\\s?){1,4}",
    'oh and',
    'also,? by the way',
    'by the way',
    'fun fact',
    'got it',
    'i see',
    'thank you',
    wordsOf(`oh ah well so also and but anyway anyways actually btw plus yes yeah no ok okay hmm hey hi hello great thanks
    perfect cool awesome interesting right sure honestly basically incidentally now then finally`),
  )}\\s*[,:;!.\\-–—]*\\s+)+`,
  'i',
);

// A clause that asks for something or asks a question.
const QUESTION = new RegExp(
  `^${wordsOf(`can could would will do does did is are was were what what's how why where when which
  who whom whose should shall may might`)}\\b`,
  'i',
);
/** A word that softens an ask without changing it: "I'm also looking for…", "I was just wondering…". */
const SOFTENER = '(?: also| just| really| still)?';
/** "I'd like a few opening lines": something for the assistant to make ("I'd love a dog" is a wish). */
const LIKE_A_THING = `i(?:'d| would) like ${wordsOf(
  'you a an the your any some help ideas advice tips suggestions recommendations feedback',
)}`;
const REQUEST = new RegExp(
  `^${anyOf(
    wordsOf(`please help tell give suggest recommend list explain describe write rewrite create generate make provide show find
    compare summari[sz]e translate edit draft compose design outline brainstorm recap reprint repeat let's`),
    'come up with',
    'walk me through',
    'remind me',
    'let us',
    // An instruction to a coding agent: a bare verb and its object ("fix my failing test", "run npm
    // test", "update the README with my new steps"), not a noun ("Test coverage in my repo is 80%").
    `${wordsOf(`fix add update rename refactor run remove delete move change implement install build deploy commit push merge
    rebase revert debug review open use set convert format lint clean split extract replace document bump upgrade migrate
    optimize improve simplify stop restart start send save print check test try read`)} ` +
      wordsOf('the a an my our your this that these those it them me us all some up out down back npm pnpm yarn git'),
    'let me know',
    // A negative imperative ("Don't mention my friend") and asking the assistant to ask.
    "(?:don't|do not) (?!worry\\b|know\\b|think\\b|have\\b|like\\b|want\\b|need\\b)[a-z]+",
    `ask ${wordsOf('if what how whether me them him her about for the a')}`,
    'any (?:ideas?|tips?|suggestions?|advice|recommendations?|thoughts?)',
    'is there',
    'are there',
    'if (?:so|not|you)',
    'i need (?:help|some|you|to know|a list|advice|ideas|suggestions|recommendations)',
    'i want (?:you|to know|some|a list|to learn more)',
    "i(?:'d| would) (?:like|love) (?:you|to know|some|to learn|to get|to hear|to see|more)",
    LIKE_A_THING,
    // What the user wants the conversation to do: "I'd like to ask about travel insurance".
    "i(?:'d| would) like to (?:ask|explore|discuss|consider|brainstorm|go over|talk about|find out|look into)",
    // "I'm curious about the games you mentioned"; hoping only for the agent's help ("I'm hoping
    // to run a marathon next year" is the user's plan).
    `(?:i(?: was| am|'m)|was|am)${SOFTENER} ` +
      '(?:wondering|curious|hoping (?:you|to get (?:some )?(?:advice|help|ideas|tips|suggestions|recommendations)))',
    'i wonder',
    `i(?:'m| am)${SOFTENER} (?:looking for|interested in (?:learning|finding|getting|knowing))`,
    'i have a (?:question|request)',
    "i(?:'m| am) not sure (?:what|how|which|where|if|whether)",
    "i don't know (?:what|how|which|where|if|whether)",
    "i can't decide",
  )}\\b`,
  'i',
);

// A clause that reacts to the conversation rather than telling something.
const REACTION = new RegExp(
  `^${anyOf(
    "i(?:'m| am) (?:glad|excited|happy to|going to (?:try|check|look|give)|sure|not sure|thinking (?:of|about)|so excited|looking forward)",
    "i(?:'ll| will) (?:try|check|look|keep|definitely|probably|make sure|consider|give|go ahead|go with|start|think)",
    "i(?:'ll| will) (?:take (?:a look|your|that|those|these)|do (?:that|this|it)|use (?:that|this|it|those|these|your))",
    "i (?:agree|understand|see|appreciate|totally|completely|hope|can't wait)",
    // Hearsay and surprise at what the assistant said: "I've heard great things about it".
    "i(?:'ve| have) heard",
    "i (?:didn't|did not) know",
    'i had no idea',
    'i (?:love|like) (?:that|this|the idea|these|those|your|it|how)',
    'i really (?:like|love|appreciate)',
    "i think (?:i'll|i will|that's|it's|this|that)",
    "that(?:'s| is| was| sounds| makes| helps| seems)",
    'this (?:is|sounds|helps|seems)',
    'these (?:are|sound|seem)',
    'sounds',
    "it(?:'s| is) (?:great|good|helpful|interesting|important|a good|worth)",
    "you(?:'re| are) (?:right|welcome)",
    'thanks',
    'thank you',
    'great',
    'good',
    'nice',
    'wow',
    'cool',
    'perfect',
    'awesome',
    'for (?:example|instance)',
  )}\\b`,
  'i',
);

/** A quotation, closed or running to the end of a clause cut inside it. */
const QUOTED = /["“][^"”]*(?:["”]|$)/g;
/** Words by which a clause is about the speaker. */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|im|ive|my|me|mine|myself|we|we're|we've|we'd|our|ours|us)\b/i;

// Where a user starts pasting someone else's text ("Here is my draft:", "proofread this: ...").
const PASTE_CUE = new RegExp(
  anyOf(
    "\\b(?:here(?:'s| is| are)|below is|following is|this is)\\b[^.!?:]{0,60}:",
    `\\b${wordsOf('proofread rewrite edit translate summari[sz]e review check improve paraphrase shorten correct')}\\b[^.!?:]{0,60}:`,
  ) + '\\s*',
  'i',
);

/** The part of a user turn that is the user's own words: what follows a paste cue is quoted. */
function ownWords(turn: string): string {
  const m = PASTE_CUE.exec(turn);
  let text = m ? turn.slice(0, m.index) : turn;
  // A quoted passage of more than a few words is someone else's text.
  text = text.replace(/["“][^"”]*["”]/g, (q) => (q.length > 42 ? ' ' : q));
  return text;
}

export interface Statement {
  /** The statement as it is kept: discourse openers and dangling punctuation off. */
  text: string;
  /** As the user said it ("By the way, I ..."): asides tell how personal it is. */
  raw: string;
}

interface Clause {
  text: string;
  kind: 'self' | 'continuation' | 'request' | 'reaction';
}

/** `first`: the clause opens its sentence (after an "Okay,"), where "which", "what" or "do" start a question. */
function classifyClause(raw: string, first: boolean): Clause {
  const text = raw.trim();
  const bare = text.replace(DISCOURSE, '');
  if (bare.endsWith('?') || REQUEST.test(bare) || (first && QUESTION.test(bare))) return { text, kind: 'request' };
  if (REACTION.test(bare)) return { text, kind: 'reaction' };
  // An "I" in quotation marks is someone else speaking ("The first logician says, "I don't know"").
  if (FIRST_PERSON.test(bare.replace(QUOTED, ' '))) return { text, kind: 'self' };
  return { text, kind: 'continuation' };
}

// Clause boundaries: commas and semicolons before a new clause, dashes, and "but/so/and" joins.
const CLAUSE_SPLIT = new RegExp(
  anyOf(
    `(?<=[,;:])\\s+(?=(?:${wordsOf('and but so which because since as although though while plus or where who then')} )?["“']?[a-z'’]+\\b)`,
    '\\s+[-–—]\\s+',
    // "I'm planning a trip to LA and was wondering if you could recommend…": the ask is a clause.
    "\\s+(?=and (?:i(?:'m| am| was)? |was |am )?(?:wondering|hoping|curious)\\b)",
    `\\s+(?=and ${LIKE_A_THING})`,
  ),
  'i',
);

/** "Okay," "So," "Also,": a clause that only opens the sentence, as its first word would. */
const isOpener = (clause: string): boolean => /^[\p{L}']+[\s,.!:;-]*$/u.test(clause.trim()) && DISCOURSE.test(`${clause.trim()} x`);

/** A sentence cut into clauses, each marked by what it does. */
function clauses(sentence: string): Clause[] {
  // A trailing question mark belongs to the last clause only: "I have a dog, any tips?"
  return sentence
    .split(CLAUSE_SPLIT)
    .filter((c) => c.trim() !== '')
    .map((c, i, all) => classifyClause(c, all.slice(0, i).every(isOpener)));
}

/** "For my Japanese Zero fighter plane", cut from "…, I think I'll start by adding a pilot": no one says anything. */
const isFragment = (text: string): boolean =>
  /^(?:for|with|about|on|in|at|from|of|to|like)\b/i.test(text) && !/\b(?:i|i'm|i've|i'd|i'll|we|we're|we've)\b/i.test(text);

/**
 * A clause that hangs on a noun of the one before it ("which I got from my sister", "for my
 * Japanese Zero"); one that gives a reason ("as I've been building a model") is whole.
 */
const DEPENDENT = new RegExp(`^${wordsOf('which who whom whose that where for like')}\\b`, 'i');

/**
 * The statements about the speaker in one sentence: each run of clauses that starts with a
 * first-person clause and goes on through continuations, up to a request or a reaction.
 */
function statementsIn(sentence: string): Statement[] {
  const out: Statement[] = [];
  let run: string[] = [];
  // Clauses that open a sentence before its subject ("Before the upgrade to 16GB, I was ...").
  let lead: string[] = [];
  const flush = (): void => {
    lead = [];
    if (run.length) {
      const raw = run.join(' ');
      const text = tidy(raw);
      if (text.length >= STATEMENT_MIN && !saysNothing(text) && !isFragment(text)) out.push({ text, raw });
    }
    run = [];
  };
  let afterAsk = false;
  for (const c of clauses(sentence)) {
    // "..., and it's been working out great": once the statement has said something, a clause
    // that only comments on it ends it.
    if (run.length && c.kind !== 'request' && c.kind !== 'reaction' && isComment(c.text)) {
      flush();
      continue;
    }
    // "I'm wondering if I should repot my snake plant, which I got from my sister": a clause
    // that hangs on the ask says nothing without it.
    if (afterAsk && !run.length && DEPENDENT.test(c.text)) continue;
    afterAsk = c.kind === 'request' || c.kind === 'reaction';
    if (c.kind === 'self') {
      // A new first-person clause continues the statement ("I have a dog, his name is Max").
      run.push(...lead, c.text);
      lead = [];
    } else if (c.kind === 'continuation') {
      if (run.length) run.push(c.text);
      else lead.push(c.text);
    } else flush();
  }
  flush();
  return out;
}

const COMMENT = new RegExp(
  `^(?:${wordsOf('and but so which that as because')} )?${anyOf(
    'i think',
    'i feel',
    'i guess',
    "i(?:'m| am) (?:feeling|hoping|glad|happy|excited|not sure|pretty sure|trying to (?:figure|decide|find))",
    "it(?:'s| has) been",
    'it was',
    'it seems',
    "it's",
    'it is',
    "that's",
    'that was',
    'this is',
    'which (?:was|is|has been|made|makes|means)',
    "i(?:'d| would) (?:like|love)",
    'i want',
    'i need',
    "i(?:'ll| will)",
    "i(?:'m| was) wondering",
    'i hope',
    "i can't wait",
    "i'm looking forward",
    'i loved? it',
    'i really (?:like|love|enjoy)ed?',
  )}\\b`,
  'i',
);

/** A clause that says how the speaker feels about what they said, with nothing specific in it. */
function isComment(clause: string): boolean {
  const t = clause.trim();
  return COMMENT.test(t) && !/\d/.test(t) && !/\s[A-Z][a-z]/.test(t);
}

const PREAMBLE = new RegExp(
  `^${anyOf(
    'i was (?:just |also )?thinking (?:about|of)',
    "i(?:'ve| have) been thinking (?:about|of)",
    'i (?:just )?remember(?:ed)?(?: that)?',
    'i realized(?: that)?',
    'i just wanted to (?:mention|say|add|share|let you know)(?: that)?',
    'i wanted to (?:mention|say|add|share)(?: that)?',
    'including',
    'especially since',
    'especially',
    'that(?=\\s+(?:i|we|my)\\b)',
  )}\\s+`,
  'i',
);

/** Discourse openers and dangling punctuation off; a statement reads as one clean clause run. */
export function tidy(s: string): string {
  let t = s.trim().replace(DISCOURSE, '');
  t = t.replace(/^(?:and|but|so|or|plus|which|because|(?:as|since)(?=\s+(?:i|my|we|our)\b))\s+/i, '');
  // "I was just thinking about our trip..." says "our trip..."; a leading "That I ..." or
  // "Including ..." is a fragment's hook, not part of the fact.
  t = t.replace(PREAMBLE, '');
  t = t.replace(/[\s,;:\-–—]+$/, '').replace(/\s+/g, ' ');
  if (/^[a-z]/.test(t) && !/^i\b/.test(t)) t = t[0]!.toUpperCase() + t.slice(1);
  if (/^i\b/.test(t)) t = `I${t.slice(1)}`;
  return t;
}

// A sentence that goes on with the story just told: short, no question, no new subject of its
// own, and something specific in it ("Over a year of uncertainty was really tough.").
const NUMBER_OR_TIME = new RegExp(
  `\\b${wordsOf(`one two three four five six seven eight nine ten twelve twenty hundred
  dozen half years? months? weeks? days? hours? minutes?`)}\\b`,
  'i',
);
const SPECIFIC = { test: (s: string): boolean => /\d|\s[A-Z][a-z]/.test(s) || NUMBER_OR_TIME.test(s) };

function continuesStory(sentence: string): boolean {
  return (
    sentence.length <= 100 &&
    !sentence.endsWith('?') &&
    SPECIFIC.test(sentence) &&
    clauses(sentence).every((c) => c.kind === 'continuation')
  );
}

// What a statement points back at instead of naming: "I've had it before", "a few of those".
const POINTER = /\b(?:it|that|this|those|these|them)\b/i;
// "my favorites", "my mind": a possessive that names no thing of the user's.
const MY_THING = /\bmy\s+(?!(?:favou?rites?|mind|opinion|thoughts?|own|best|way)\b)[a-z]/i;

/**
 * A statement about the speaker with nothing in it: no number, name or thing of theirs, and
 * only a word or two of its own or a pointer back at the conversation ("I've been meaning to
 * ask", "I've heard of a few of those, but not all", "I'm really excited to try out this
 * recipe"). In a node, such lines only take the place of facts.
 */
function saysNothing(text: string): boolean {
  if (SPECIFIC.test(text) || MY_THING.test(text)) return false;
  const own = tokenize(text, true).filter((w) => w.length >= 3 && !/^i(?:'|’)/.test(w)).length;
  return own < 2 || (POINTER.test(text) && own < 3);
}

export interface TurnParts {
  statements: Statement[];
  /** Sentences that tell the agent how to work from now on. */
  instructions: string[];
}

/** What a user's turn says about them, and how they want the agent to work, in order. */
export function turnParts(turn: string, isInstruction: (sentence: string) => boolean = () => false): TurnParts {
  const statements: Statement[] = [];
  const instructions: string[] = [];
  let last = -1; // index of the statement the previous sentence ended with
  for (const s of sentences(ownWords(plainSpeech(turn)))) {
    if (s.length > 1200) {
      last = -1; // pasted prose without a cue
      continue;
    }
    if (isInstruction(s)) {
      instructions.push(tidy(s));
      last = -1;
      continue;
    }
    const found = statementsIn(s);
    if (found.length) {
      statements.push(...found);
      last = statements.length - 1;
    } else if (last >= 0 && continuesStory(s)) {
      const prev = statements[last]!;
      statements[last] = { text: `${prev.text}${/[.!]$/.test(prev.text) ? '' : '.'} ${tidy(s)}`, raw: `${prev.raw} ${s}` };
      last = -1;
    } else last = -1;
  }
  return { statements, instructions };
}

/** Every statement the user makes about themselves in one turn, in order. */
export function userStatements(turn: string): Statement[] {
  return turnParts(turn).statements;
}
