// A fact's digest: the few words that name what it is about (the proper names, titles, amounts
// and the user's own people and things), for a profile that names far more of a user's life
// than whole sentences could in the same room. "I recently got a new Orthopedic Memory Foam dog
// bed for my golden retriever, Max, about three weeks ago from Petco" digests to
// "Orthopedic Memory Foam dog bed, my golden retriever, Max, Petco": enough for an agent to know
// the user has a golden retriever called Max and to search memory for the rest. A name keeps the
// nouns that say what it is ("dog bed", "pickup truck"): a later request names the kind of thing
// ("a vacuum for dog hair", "tires for my truck"), seldom the brand.
import { isStopWord } from '../keywords.js';

// A token: a word, a number with its signs ("$1,200", "3.8", "27:42", "1915-S", "WH-1000XM4").
const TOKEN = /[\p{L}\p{N}$£€][\p{L}\p{N}'’.,:/$%&+-]*[\p{L}\p{N}%]|[\p{L}\p{N}]/gu;
// Words that join two capitalised words into one name ("Ticket to Ride", "University of Illinois").
const JOINERS = new Set(['of', 'the', 'and', 'to', 'de', 'la', 'du', 'von', 'van', '&']);
const NUMBER_WORDS = new Set([
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'fifteen',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'hundred',
  'half',
  'a couple',
  'several',
]);
// Capitalised at a sentence's start, never a name.
const NOT_NAMES = new Set([
  'i',
  "i'm",
  "i've",
  "i'd",
  "i'll",
  'my',
  'our',
  'we',
  'they',
  'he',
  'she',
  'you',
  'his',
  'her',
  'their',
  'your',
  'it',
  "it's",
  'this',
  'that',
  'these',
  'those',
  'the',
  'a',
  'an',
  'and',
  'but',
  'so',
  'also',
  'just',
  'oh',
  'well',
  'yes',
  'no',
  'hey',
  'hi',
  'thanks',
  'btw',
  'ok',
  'okay',
  'actually',
  'anyway',
  'speaking',
  'by',
  'back',
  'recently',
  'lately',
  'today',
  'yesterday',
  'last',
  'next',
  'since',
  'after',
  'before',
  'when',
  'if',
  'as',
  'at',
  'in',
  'on',
  'for',
  'to',
  'of',
  'with',
  'what',
  'how',
  'can',
  'do',
  'does',
  'is',
  'was',
  'are',
]);

// After "my", words that name nothing on their own.
const VAGUE = new Set([
  'old',
  'new',
  'own',
  'current',
  'first',
  'last',
  'favorite',
  'favourite',
  'little',
  'big',
  'whole',
  'entire',
  'total',
  'recent',
  'usual',
]);

// After "my", nouns that name no thing of the user's life ("my progress", "my mind").
const ABSTRACT = new Set(
  (
    'progress skills skill time expenses schedule area project projects tasks goals goal thoughts thought habits audience ' +
    'finances day days mind life endurance spending experience experiences knowledge attention energy stress options ' +
    'needs preferences interests abilities ability performance results efforts focus productivity understanding way ways'
  ).split(' '),
);

// Verbs that follow a name as its subject ("Max loves the bed", "Lola eats a lot"): never the
// name's head noun. Past forms and participles are told by their ending (-ed), as are adverbs.
const VERBS = new Set(
  (
    'is was are were has have had does did goes went gets got makes made takes took loves loved likes hates wants needs says said ' +
    'seems looks feels thinks knows gave gives came comes starts begins ends runs ran plays works lives eats sleeps uses helps ' +
    'keeps kept told tells asks sent sends bought buys sells sold costs cost paid pays offers calls shows brings brought left leaves ' +
    'became becomes lets puts sits sat stands stood wins won loses lost meets met sees saw tries sound sounds turns grew grows ' +
    'caught lit move moves ' +
    'love like want need say see make take know think feel look come go give get play use run'
  ).split(' '),
);
// When, how often or where to, and prepositions the stop words leave out: they end a name's
// phrase, never head it ("Petco yesterday", "saw Glass Animals live").
const ADVERBS = new Set(
  (
    'tonight tomorrow today yesterday now soon later ago already again together too here there home anymore instead ever ' +
    'still first earlier once right away back live non-stop near across behind beside beyond inside outside onto toward ' +
    'towards within without along among per'
  ).split(' '),
);

// Nouns that end like an adverb or a verb's -ing form, common after a name ("Michael's wedding").
const LY_NOUNS = new Set(['family', 'supply', 'jelly', 'lily', 'rally', 'assembly', 'butterfly', 'belly']);
const ING_NOUNS = new Set(
  (
    'wedding building clothing painting morning evening meeting training ring string spring king ceiling parking pudding ' +
    'dumpling filling bedding stuffing frosting booking listing housing lighting flooring seating setting recording'
  ).split(' '),
);

interface Tok {
  text: string;
  start: number;
  end: number;
}

const lower = (t: string): string => t.toLowerCase().replace(/’/g, "'");
const isCapital = (t: string): boolean => /^[\p{Lu}]/u.test(t) && !NOT_NAMES.has(lower(t));
const hasDigit = (t: string): boolean => /\p{N}/u.test(t);
/** Nothing but spaces between two tokens: punctuation ends a name or an amount. */
const adjacent = (text: string, a: Tok, b: Tok): boolean => /^[ \t]+$/.test(text.slice(a.end, b.start));
const content = (t: string): boolean => /^[\p{L}]/u.test(t) && !isStopWord(lower(t)) && !NOT_NAMES.has(lower(t));

const ACRONYM = /^\p{Lu}{2,5}s?$/u;

/** A word that can be the head noun of a name's phrase: lower-case, and no verb, adverb or count. */
const nounLike = (t: string): boolean => {
  const w = lower(t);
  return (
    /^\p{Ll}[\p{Ll}-]*\p{Ll}$/u.test(t) &&
    w.length >= 3 &&
    !((w.length >= 5 && /(?<!e)ed$/.test(w)) || (/ly$/.test(w) && !LY_NOUNS.has(w)) || (/ing$/.test(w) && !ING_NOUNS.has(w))) &&
    content(t) &&
    !VERBS.has(w) &&
    !ADVERBS.has(w) &&
    !NUMBER_WORDS.has(w)
  );
};

/**
 * Where a name's phrase ends with the one or two lower-case nouns that say what the name is
 * ("Philips LED bulb", "Ford F-150 pickup truck", "Michael's engagement party"): without them a
 * digest names a brand, not the thing the user has. The nouns must end the phrase (punctuation,
 * the text's end or a function word next), so "Lola eats wet food" keeps "Lola" alone.
 */
function headNounEnd(text: string, toks: readonly Tok[], j: number): number {
  for (let k = 2; k >= 1; k--) {
    let ok = true;
    for (let n = 1; n <= k && ok; n++) {
      const w = toks[j + n];
      // The head may end in an acronym after a noun: "Samsung 55-inch 4K smart TV".
      ok = w !== undefined && adjacent(text, toks[j + n - 1]!, w) && (nounLike(w.text) || (n === 2 && ACRONYM.test(w.text)));
    }
    if (!ok) continue;
    const next = toks[j + k + 1];
    const last = toks[j + k]!;
    const nextWord = next ? lower(next.text) : '';
    if (!next || !adjacent(text, last, next) || isStopWord(nextWord) || NOT_NAMES.has(nextWord) || ADVERBS.has(nextWord)) return j + k;
  }
  return j;
}

/** The spans of `text` a digest keeps, in the order they appear. */
function spans(text: string): string[] {
  const toks: Tok[] = [...text.matchAll(TOKEN)].map((m) => ({ text: m[0], start: m.index!, end: m.index! + m[0].length }));
  const out: { start: number; end: number }[] = [];
  const take = (from: number, to: number): void => {
    out.push({ start: toks[from]!.start, end: toks[to]!.end });
  };
  // Quoted titles whole.
  for (const m of text.matchAll(/["“]([^"”\n]{2,80})["”]/g)) out.push({ start: m.index!, end: m.index! + m[0].length });
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (isCapital(t.text) || (hasDigit(t.text) && /^[\p{L}]/u.test(t.text))) {
      // A name: capitalised words (and word-number models like "S22"), through joiners that
      // sit between two of them.
      let j = i;
      for (;;) {
        const n = toks[j + 1];
        if (n && adjacent(text, toks[j]!, n) && (isCapital(n.text) || hasDigit(n.text))) {
          j++;
          continue;
        }
        // "Bed Bath & Beyond", "Barnes & Noble": an ampersand is no token, and joins.
        if (n && /^[ \t]+&[ \t]+$/.test(text.slice(toks[j]!.end, n.start)) && isCapital(n.text)) {
          j++;
          continue;
        }
        const after = toks[j + 2];
        if (n && after && JOINERS.has(lower(n.text)) && adjacent(text, toks[j]!, n) && adjacent(text, n, after) && isCapital(after.text)) {
          j += 2;
          continue;
        }
        break;
      }
      j = headNounEnd(text, toks, j);
      take(i, j);
      i = j;
    } else if (hasDigit(t.text) || NUMBER_WORDS.has(lower(t.text))) {
      // An amount with what it counts: "15 jars", "$225", "three weeks", "55-inch".
      const n = toks[i + 1];
      // A name after it is read as one ("$50 Amazon gift card"), with its own head noun.
      const unit = n && adjacent(text, t, n) && content(n.text) && !isCapital(n.text) ? 1 : 0;
      // "three weeks ago" says when, as a date does, and only against a day the line no longer shows.
      const ago = /^[ \t]+ago\b/i.test(text.slice(toks[i + unit]!.end));
      const named = n !== undefined && adjacent(text, t, n) && isCapital(n.text); // "four Marvel movies"
      if ((unit || named || hasDigit(t.text)) && !ago) take(i, i + unit);
      i += unit;
    } else if (lower(t.text) === 'my') {
      // The user's own people and things: "my golden retriever", "my mom", "my home office".
      // Two words after "my", one more past an owner's 's: "my niece's high school", not "my niece's high".
      let j = i;
      while (
        j - i < (j > i && /['’]s$/i.test(toks[i + 1]!.text) ? 3 : 2) &&
        toks[j + 1] &&
        adjacent(text, toks[j]!, toks[j + 1]!) &&
        content(toks[j + 1]!.text) &&
        !isCapital(toks[j + 1]!.text)
      )
        j++;
      // "my old", "my own": a word that says nothing without the noun that follows.
      const head = lower(toks[j]!.text);
      if (j > i && !(j === i + 1 && VAGUE.has(head)) && !ABSTRACT.has(head)) take(i, j);
      i = j;
    }
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  // Spans with nothing but spaces between them were one phrase of the text: "my white" and
  // "Adidas sneakers" are "my white Adidas sneakers".
  const joined: { start: number; end: number }[] = [];
  for (const s of out) {
    const last = joined[joined.length - 1];
    if (last && s.end <= last.end) continue; // inside a span already kept (a name within a title)
    if (last && s.start >= last.end && /^[ \t]*$/.test(text.slice(last.end, s.start))) last.end = s.end;
    else joined.push({ ...s });
  }
  const phrases = joined.map((s) => text.slice(s.start, s.end).replace(/\s+/g, ' '));
  // A phrase said again, or inside a longer one, is said once: "Spider-Man collection" holds
  // "Spider-Man", "Marriott Hotel" holds "Marriott".
  const words = phrases.map(wordRun);
  return phrases.filter((_, i) => !words.some((w, k) => k !== i && w.includes(words[i]!) && (w.length > words[i]!.length || k < i)));
}

/** A phrase's words, lower-case, space-separated and padded: " marriott hotel ". */
const wordRun = (p: string): string =>
  ` ${lower(p)
    .replace(/[^\p{L}\p{N}$%']+/gu, ' ')
    .trim()} `;

/** The fact's digest, "" when it names nothing (then the fact is not worth a digest line). */
export function factDigest(text: string): string {
  const kept = spans(text);
  // Dates, times and bare amounts ("June 27th", "5 pm", "$1,200") say when or how much, but not
  // of what: a digest needs a name, a title, a counted thing or the user's own.
  return kept.every((k) => isWhen(k) || isBareAmount(k)) ? '' : kept.join(', ');
}

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays';
const DAY_PART = '(?:morning|afternoon|evening|night)s?';
const WHEN = new RegExp(
  `^(?:(?:${MONTHS}|${DAYS})\\b[\\s\\d,thsndr]*(?:${DAY_PART})?` +
    `|[\\d:.,/-]+\\s*(?:st|nd|rd|th|am|pm|a\\.m\\.|p\\.m\\.)?(?:\\s+(?:of\\s+)?(?:${MONTHS}))?)$`,
  'i',
);
const isWhen = (span: string): boolean => WHEN.test(span.trim());
const isBareAmount = (span: string): boolean => /^[$£€]?[\d.,:/%-]+$/.test(span.trim());
