// How much a statement tells about the person who made it, from its words alone (so a fact
// carried up from a summary node scores as it did below). Specific statements outrank vague
// ones: names, numbers and amounts; things the speaker did, has or is; asides ("by the way, I
// just adopted a kitten") that people make about their own lives. Recurrence and recency are
// added by whoever sees the fact over time (profile.ts).
import { anyOf, wordsOf, wordsRegex } from './alternation.js';

const NAME = /(?<=[^.!?]\s)(?:[A-Z][a-z'’]+(?:[-\s](?:[A-Z][a-z'’]+|of|de|la|the|\d+))*|[A-Z]{2,}[a-z]*\d*)\b/g;
const NOT_NAMES = new Set(['I', 'I’m', "I'm", "I've", "I'd", "I'll", 'OK', 'AM', 'PM', 'Mr', 'Mrs', 'Ms', 'Dr']);
const NUMBER_WORDS = wordsOf(
  'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred dozen half',
);
const NUMBER = new RegExp(
  anyOf(
    '[$€£¥]\\s?\\d[\\d,.]*\\s?[kKmM]?',
    '\\b\\d[\\d,.:/]*\\s?(?:%|percent|k\\b|am\\b|pm\\b|[a-z]{1,5}\\b)?',
    `\\b${NUMBER_WORDS}\\s+(?!of\\b|or\\b|and\\b|to\\b|the\\b|a\\b)[a-z]{3,}`,
  ),
  'gi',
);
const QUOTED = /["“][^"”]{2,40}["”]/;
// The speaker did, has, is: the stuff of a personal fact.
const DID = wordsRegex(
  `(?:i|we)\\s+(?:${wordsOf('just recently finally actually also already even first')}\\s+)?${wordsOf(`
  bought purchased got adopted visited moved started finished completed graduated joined attended ran ordered upgraded
  redeemed volunteered booked signed took made created built painted repainted assembled sold won received tried met went
  watched read saw learned learnt switched decided picked chose found lost quit retired married traveled travelled flew
  drove hiked cooked baked planted knitted wrote published launched organized organised hosted celebrated spent paid saved
  earned donated returned rescued named called set added installed downloaded subscribed renewed passed failed broke
  fixed replaced repaired`)}`,
);
const HAVE = new RegExp(
  anyOf(
    `\\b(?:i|we)\\s*(?:'ve|have|had|'d)?\\s*${wordsOf(`been have has own owned live lived work worked study studied teach
    taught play played use used drive drove keep kept practice practise collect prefer love like enjoy hate speak
    grew\\sup was\\sborn`)}\\b`,
    `\\b(?:i'm|i am|i was|we're|we are|we were)\\s+${wordsOf(`a an the from in at on into allergic vegan vegetarian married
    single divorced pregnant retired based currently still now \\d`)}`,
  ),
  'i',
);
const MY = /\b(?:my|our)\s+(?:[a-z'’-]+\s+){0,2}[a-z'’-]{3,}/i;
const ASIDE = wordsRegex(
  anyOf(
    'by the way',
    'btw',
    'actually',
    'recently',
    'just',
    'ago',
    'since',
    'used to',
    'fun fact',
    'speaking of',
    `last ${wordsOf('week month year weekend night monday tuesday wednesday thursday friday saturday sunday summer spring fall winter time')}`,
    'for (?:the past |about |almost |over )?(?:\\w+ )?(?:years?|months?|weeks?)',
  ),
);
const VAGUE =
  /\b(?:something|anything|stuff|things|somewhere|some kind of|kind of|sort of|a bit|maybe|perhaps|probably|might|could|would|if i|whether)\b/i;

interface SalienceParts {
  names: number;
  numbers: number;
  did: boolean;
  have: boolean;
  my: boolean;
  aside: boolean;
  vague: boolean;
}

function salienceParts(text: string, raw = text): SalienceParts {
  let names = 0;
  for (const m of text.matchAll(NAME)) if (!NOT_NAMES.has(m[0])) names++;
  let numbers = 0;
  for (const m of text.matchAll(NUMBER)) if (!/^(?:one|a)\b/i.test(m[0])) numbers++;
  if (QUOTED.test(text)) names++;
  return { names, numbers, did: DID.test(text), have: HAVE.test(text), my: MY.test(text), aside: ASIDE.test(raw), vague: VAGUE.test(text) };
}

/**
 * A score around 1 for a plain personal statement, higher for specific ones. Each sign adds
 * about its weight of evidence: something the speaker did or an aside are the strongest; a
 * second name or number adds little (long lists are not more personal, only longer).
 */
export function salience(text: string, raw = text): number {
  const p = salienceParts(text, raw);
  let s = 1;
  if (p.names >= 1) s += 0.7;
  if (p.names >= 2) s += 0.3;
  if (p.numbers >= 1) s += 0.8;
  if (p.numbers >= 2) s += 0.2;
  if (p.did) s += 1.2;
  else if (p.have) s += 0.5;
  if (p.my) s += 0.5;
  if (p.aside) s += 0.9;
  if (p.vague) s -= 0.7;
  const len = text.length;
  if (len < 40) s -= 1.2;
  else if (len > 200) s -= 0.5;
  return Math.round(s * 100) / 100;
}
