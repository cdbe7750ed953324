// Sorting an entry's lines into a summary's sections by what they say: decisions, completed
// tasks, lessons, open items; finding entities; spotting facts a user states about themselves.
import { sliceWhole } from '../text/slice.js';

export type Cue = 'decisions' | 'tasks' | 'lessons' | 'open';

const CUES: [Cue, RegExp][] = [
  [
    'lessons',
    /\b(?:lessons?|learn(?:ed|t)|turns? out|gotcha|note to self|root cause|the trick is|pitfall|caveat|mistake was|never again|takeaway)\b|교훈|배운 점|주의/i,
  ],
  [
    'decisions',
    /\b(?:decided|decide to|decision|chose|choose to|chosen|going with|go with|opted|settled on|agreed|will use|switch(?:ed|ing)? to|instead of|picked|selected|rejected|approved|we'll use)\b|결정|선택했/i,
  ],
  [
    'open',
    /\b(?:todo|to-do|tbd|next steps?|follow[- ]up|pending|blocked|waiting (?:on|for)|need(?:s)? to|open question|remaining|not yet|later:|fixme|investigate)\b|할 일|해야|미완|대기/i,
  ],
  [
    'tasks',
    /\b(?:done|completed?|finished|fixed|implemented|shipped|merged|deployed|released|resolved|wrote|created|migrated|set up|refactored|upgraded|published|closed|landed|added)\b|완료|배포|수정함/i,
  ],
];

/** The section a bullet belongs to by its wording, or null for a plain note. */
export function cueOf(text: string, checked: boolean | null): Cue | null {
  if (checked === true) return 'tasks';
  if (checked === false) return 'open';
  for (const [cue, re] of CUES) if (re.test(text)) return cue;
  return null;
}

const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|im|my|me|mine|we|we're|we've|our)\b/i;
const REQUEST =
  /^(?:can|could|would|will|do|does|did|is|are|what|how|why|where|when|which|who|should|please|help|tell|give|suggest|recommend|any|let's)\b/i;

/**
 * True for a sentence in which the speaker states something about themselves ("I moved to
 * Seoul in March", "my sister's wedding is in June"), not a request or a question.
 */
export function isSelfStatement(sentence: string): boolean {
  const s = sentence.trim();
  if (s.length < 15 || s.length > 400 || s.endsWith('?')) return false;
  if (!FIRST_PERSON.test(s)) return false;
  if (REQUEST.test(s) && !/^(?:i|my|we|our)\b/i.test(s)) return false;
  if (
    /^(?:i (?:need|want|would like|wonder|was wondering)|i'm (?:looking|trying|wondering|curious)|can you|could you)\b/i.test(s) &&
    !/\b(?:because|since|as i|my|i have|i've|i'm a)\b/i.test(s.slice(12))
  )
    return false;
  return true;
}

/** Titles and abbreviations, which a sentence goes on after. */
const ABBREVIATIONS = String.raw`Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|vs|etc|e\.g|i\.e|No|Vol|Fig|approx`;
/** Abbreviations written in lower case with a full stop, which a sentence goes on after. */
const LOWER_ABBREVIATIONS =
  'approx|etc|lbs|hrs|mins|secs|min|max|sec|est|dept|govt|misc|incl|excl|ext|tel|vol|fig|cont|tbsp|tsp|pkg|qty|avg|temp|nos|pgs|pp';
/**
 * Where one sentence ends and the next begins, three ways (and at every line break):
 * - after . ! ? and before a capital, a digit, a quote, or a first-person word in lower case
 *   ("amazing! i'm going back. my sister loved it"), not after a title or an abbreviation;
 * - after a lower-case word's ! or ? and before any lower-case word ("wow! any tips"; "Funko
 *   POP! figure" stays one);
 * - after a full stop ending a lower-case word of three letters or more, or a number, before a
 *   lower-case word ("since 2019. dont suggest fish"), not after an abbreviation ("5 lbs. of").
 * Many people chat without capitals: the second and third are theirs.
 */
const SENTENCE_BREAK = new RegExp(
  [
    String.raw`(?<=[.!?。！？])(?<!\b(?:${ABBREVIATIONS})\.)\s+(?=[\p{Lu}\p{Lo}"'(\d]|i[\s'’,]|(?:my|we|our)\s)`,
    String.raw`(?<=\b\p{Ll}+[!?]+)\s+(?=\p{Ll})`,
    String.raw`(?<=\b(?:\p{Ll}{3,}|\d+)\.)(?<!\b(?:${LOWER_ABBREVIATIONS})\.)\s+(?=\p{Ll}{2,}\b)`,
    String.raw`\n+`,
  ].join('|'),
  'u',
);

/** Splits prose into sentences. Keeps abbreviations like "e.g." and decimals intact enough. */
export function sentences(text: string): string[] {
  return text
    .split(SENTENCE_BREAK)
    .map((s) => s.trim())
    .filter((s) => s.length > 1);
}

export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = sliceWhole(text, 0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.\-–—]+$/, '')}…`;
}

export interface Entities {
  files: Set<string>;
  urls: Set<string>;
  names: Map<string, number>;
  errors: Set<string>;
}

export function emptyEntities(): Entities {
  return { files: new Set(), urls: new Set(), names: new Map(), errors: new Set() };
}

const URL_RE = /\bhttps?:\/\/[^\s)<>\]"'`]+/g;
const FILE_RE =
  /(?<![\w/.@-])((?:[\w.-]+\/)*[\w-][\w.-]*\.(?:ts|tsx|js|mjs|cjs|jsx|py|rb|go|rs|java|kt|swift|c|cc|cpp|h|hpp|cs|php|sh|md|json|ya?ml|toml|sql|html|css|scss|txt|csv|ini|cfg|conf|env|lock|proto|tf|ipynb|pdf|docx?|xlsx?))(?![\w])/g;
const ERROR_RE = /\b(?:[A-Z][A-Za-z]+(?:Error|Exception)|E[A-Z]{3,}|HTTP [45]\d\d|[45]\d\d (?:error|Internal Server Error|Not Found))\b/g;
// Two or more capitalised words ("Architectural Digest", "Civil Act"), not at a sentence start.
const NAME_RE = /(?<=[a-z0-9,;:]\s)(?:[A-Z][a-z]+|[A-Z]{2,})(?:\s+(?:of\s+|&\s+)?(?:[A-Z][a-z]+|[A-Z]{2,}|\d+))+/g;

/** What one line mentions, in order of appearance (names may repeat). */
export interface LineEntities {
  urls: string[];
  files: string[];
  errors: string[];
  names: string[];
}

export function entitiesIn(text: string): LineEntities {
  const found: LineEntities = { urls: [], files: [], errors: [], names: [] };
  for (const m of text.matchAll(URL_RE)) found.urls.push(m[0].replace(/[.,;:]+$/, ''));
  if (text.includes('.'))
    for (const m of text.matchAll(FILE_RE)) if (!/^\d/.test(m[1]!) && !m[1]!.startsWith('http')) found.files.push(m[1]!);
  for (const m of text.matchAll(ERROR_RE)) found.errors.push(m[0]);
  for (const m of text.matchAll(NAME_RE)) {
    const name = m[0].trim();
    if (name.length > 3 && name.length < 50 && !name.includes('REDACTED')) found.names.push(name);
  }
  return found;
}

export function addEntities(found: LineEntities, into: Entities): void {
  for (const u of found.urls) into.urls.add(u);
  for (const f of found.files) into.files.add(f);
  for (const e of found.errors) into.errors.add(e);
  for (const n of found.names) into.names.set(n, (into.names.get(n) ?? 0) + 1);
}
