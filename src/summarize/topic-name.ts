// Naming an untitled section (a chat session, a note without a heading) by what the user talked
// about: the best key phrase that reads as a name. A topic name is a noun phrase someone would
// look up ("golden retriever", "road bike", "tokyo trip"), never a verb, a filler word, an id or
// a word of the conversation itself ("continue", "week", "offering", "x1").
import { IRREGULAR_PAST, isPastForm, keyphrases, type TermStats } from './keywords.js';

// Words that never name a topic on their own: conversation and request words, time words,
// vague nouns, and common verbs and adjectives that slip past the stop-word list (past forms
// are caught by isPastForm: these are the irregular ones that are nouns too, wrong alone).
const NEVER_ALONE = new Set(
  `
continue continued continues continuing write writing written rewrite edit help helping answer answers question questions response responses
reply replies request requests conversation chat message messages prompt prompts task tasks list lists example examples option options step steps
detail details point points part parts piece pieces section sections paragraph paragraphs sentence sentences text texts article articles essay essays
story stories word words topic topics content version versions format formats style styles type types kind kinds sort thing things stuff way ways
lot lots bit bits number numbers amount amounts area areas level levels place places day days week weeks weekend weekends month months year years
time times today tomorrow yesterday morning evening night hour hours minute minutes moment moments date dates
order orders offer offers offering offerings display displays formula formulas player players game games family friends people person someone
watch watched watching heard hear hearing teach teaching taught learn learning learned mention mentioned mentioning talk talked talking discuss discussed
tell told telling ask asked asking share shared sharing explain explained create created creating generate generated provide provided
include included including follow following list listed listing suggest suggested suggesting consider considered considering check checked checking
find found finding choose chose chosen pick picked decide decided plan planned planning start started starting finish finished finishing
try tried trying keep kept keeping feel felt feeling think thought thinking wonder wondering curious interested sure excited happy glad
great good nice better best bad new old big small little long short high low easy hard different similar specific general certain various
important main major minor recent current previous next last first second third final additional extra overall total
idea ideas thought thoughts opinion opinions advice tip tips suggestion suggestions recommendation recommendations information info resources resource
benefits benefit issue issues problem problems thing situation case cases experience experiences process result results
thanks thank hello please sorry okay yes redacted
saw left lost sat spoke
buy buying sell selling use using make making get getting go going need needs want wants add adding change changing compare comparing
recommend recommending prepare preparing organize organizing organise organising manage managing handle handling improve improving
incorporate incorporating introduce introducing prefer preferring enjoy enjoying love loving like liking seem seems look looking
see seeing know knowing become becoming remember remembering understand understanding
pretend pretending translate translating playing top item items instruction instructions line lines
`
    .split(/\s+/)
    .filter(Boolean),
);

const neverAlone = (w: string): boolean => NEVER_ALONE.has(w) || IRREGULAR_PAST.has(w);

// Endings of source and config files that are no word a person names a topic by: at either end
// of a name they are what is left of a file name cut at its dot ("py gives wrong", "shed py").
// Formats people do name things by (csv, pdf, json, html, sql) are not among them.
const FILE_EXTENSIONS = new Set('py pyc ipynb md mdx yml toml tsx jsx mjs cjs rs rb sh txt ini cfg'.split(' '));

/** True when `phrase` (lower case, content words) can name a topic. */
export function isTopicName(phrase: string): boolean {
  const words = phrase.split(' ').filter(Boolean);
  if (words.length === 0) return false;
  if (FILE_EXTENSIONS.has(words[0]!) || FILE_EXTENSIONS.has(words[words.length - 1]!)) return false;
  for (const w of words) {
    // A path or URL is where something is, not what it is (`src/shed.py`, `docs/setup`); a file
    // name alone is a name like any technical term (`shed.py`, `package.json`, `node.js`).
    if (w.includes('/')) return false;
    // Ids, codes and variables: x1, a3, 0x1f, abc123def; a two-letter word only inside a name
    // ("ford mustang gt"), never alone ("br").
    if (/^[a-z]{1,2}\d+$|^\d|^(?=.*\d)[0-9a-f]{6,}$|\d[a-z]+\d/.test(w) || (w.length <= 2 && words.length === 1)) return false;
  }
  // A citation's "et al" is no subject.
  if (/\bet al\b/.test(phrase)) return false;
  const last = words[words.length - 1]!;
  if (words.length === 1) {
    if (neverAlone(last)) return false;
    // A lone -ly word is an adverb; a lone -ed word is a verb or an adjective.
    if (/(?:ly|ed)$/.test(last) && last.length > 4) return false;
    return true;
  }
  // A phrase ends in its head noun, not an adverb or a verb's past form ("friend told"); one
  // made only of such words ("great tips") names nothing.
  if (/ly$/.test(last) || isPastForm(last)) return false;
  return !words.every(neverAlone);
}

/**
 * The name of an untitled section from what it says (`text`: the user's words when it is a
 * chat): the best-scoring key phrase that reads as a name. Phrases of two or three words and
 * names written with capitals ("Tokyo", "Game of Thrones") are preferred over single common
 * words. Null when nothing fits: an unnamed topic is better than a misleading one.
 */
export function topicName(text: string, stats: TermStats): string | null {
  const candidates = keyphrases(text, stats, 12, CLOSING_VERBS);
  let best: { phrase: string; score: number } | null = null;
  let names: Set<string> | null = null;
  for (const c of candidates) {
    const phrase = withoutVerbs(c.phrase);
    if (!isTopicName(phrase)) continue;
    const words = phrase.split(' ');
    let score = c.score * (words.length > 1 ? 1.35 : 1);
    names ??= capitalisedWords(text);
    if (names.has(words[0]!)) score *= 1.25;
    if (!best || score > best.score) best = { phrase, score };
  }
  return best?.phrase ?? null;
}

// A key phrase is a run of words between stop words, so a verb can open or close one: "fix login
// bug" (from "please fix the login bug"), "daughter lea starts" ("My daughter Lea starts
// school"). Verbs that open an instruction and are seldom a noun or an adjective there are cut
// ("review", "open", "book", "run", "commit" are left: "review process", "open mics", "book
// club", "run club", "commit message"), and so are third-person forms that end a clause. Those
// never open a phrase either: their subject came before ("src/shed.py gives wrong slab counts"
// names "wrong slab counts").
const OPENING_VERBS = new Set(
  `fix add rename refactor remove delete implement install deploy rebase revert migrate optimize improve simplify restart
  send keep make get take give tell ask find buy convert extract replace upgrade`
    .split(/\s+/)
    .filter(Boolean),
);
// Words that introduce a name ("my cat is called Miso", "a puppy named Biscuit"): the name after
// them is the topic, never the word itself ("called miso", "puppy named biscuit").
const NAMING_WORDS = new Set(['called', 'named', 'nicknamed', 'titled', 'entitled', 'dubbed']);
const CLOSING_VERBS = new Set(
  `starts begins ends wants needs says seems looks feels thinks knows likes loves hates gets makes takes gives keeps goes comes
  fails crashes hangs throws`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * A past participle closing a clause ("my car oil changed", "the ring appraised", "Lola
 * microchipped"), and not a name that ends so ("Manchester United").
 */
const closesClause = (w: string): boolean => CLOSING_VERBS.has(w) || isPastForm(w);

function withoutVerbs(phrase: string): string {
  let words = phrase.split(' ');
  const naming = words.findLastIndex((w) => NAMING_WORDS.has(w));
  if (naming >= 0 && naming < words.length - 1) words = words.slice(naming + 1);
  while (words.length > 1 && OPENING_VERBS.has(words[0]!)) words.shift();
  while (words.length > 1 && closesClause(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

/** Words written with a capital inside a sentence (proper names), not only at its start; lower-cased. */
function capitalisedWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[a-z,;]\s+([A-Z][\p{L}\p{N}'’-]*)/gu)) out.add(m[1]!.toLowerCase());
  return out;
}
