// Words and key phrases for the extractive summarizer: a tokenizer that keeps technical terms
// whole (node.js, gpt-4, c++), its stop words, and TF-IDF over the sections being summarized.
import { stopWords } from '../text/stopwords.js';
import { plainApostrophes } from '../text/apostrophes.js';
import { isRandomWord } from '../redact/entropy.js';

/**
 * Besides the common list: contractions as this tokenizer keeps them (whole), more function
 * words, and the filler of chat answers ("great tips", "happy to help", "user", "session") that
 * would otherwise name topics.
 */
const STOP = stopWords(`
absolutely add added additionally almost already although always amazing among another anybody
anyways appreciate aren't assistant awesome back based became become becomes best better can't
certainly consider couldn't date definitely didn't different directly doesn't don't done enough
especially everyone everything example examples feel find first fun give given glad go goes gone
good gotten great hadn't happy hasn't haven't he'd he'll he's helpful here's hope how's i'd i'll
i'm i've idea ideas important including info information interested interesting isn't it's keep
kind last least less let's likely little look looking love made make makes making many mention
mentioned mine mostly mustn't neither never new next nice nobody none note nothing often oh ones
onto otherwise ought particular per perhaps plan possible pretty provide put question questions
quite rather recommend recommendations related remember right said say says see seem seemed seems
session several shan't share she'd she'll she's shouldn't similar somebody someone something
sometimes somewhat soon specific start suggest suggestions take that's there's they'd they'll
they're they've thing things thus tips today totally toward towards try trying two use used user
uses using wasn't way ways we'd we'll we're we've well went weren't what's when's where's who's
why's within without won't wonderful work working works wouldn't wow yeah yes you'd you'll you're
you've
`);

/** True for words that carry no topic: function words and chat filler. */
export function isStopWord(w: string): boolean {
  if (w.length < 2) return true;
  if (w.length === 2 && w.charCodeAt(0) < 58 && w.charCodeAt(1) < 58) return true; // "12"
  return STOP.has(w);
}

// One simple character class, with trailing joiners trimmed after: much faster than lookaheads.
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}_'’+#.\-/\u0001]*/gu;
const ASCII_TOKEN = /[a-z0-9][a-z0-9_'+#.\-/\u0001]*/g;
/**
 * A thousands separator (`1,900-line`, `$1,200`) joins its number (`1900-line`) instead of
 * splitting it into `1` and `900-line`; the comma goes, since keywords are comma-separated.
 */
const GROUPED = /\d,\d{3}/;
const THOUSANDS = /(?<=\d),(?=\d{3}(?!\d))/g;
const JOINED = /\u0001/g;
const NON_ASCII = /[^\x00-\x7f]/;
const TRAILING = /[.\-/'’]+$/;
const _CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Lower-cased words; possessive 's dropped. CJK runs stay whole (spaces separate Korean words). */
export function tokenize(text: string, dropStopWords = false): string[] {
  const out: string[] = [];
  let lower = plainApostrophes(text.toLowerCase());
  const grouped = GROUPED.test(lower);
  if (grouped) lower = lower.replace(THOUSANDS, '\u0001');
  const re = NON_ASCII.test(lower) ? TOKEN : ASCII_TOKEN;
  re.lastIndex = 0;
  for (let m = re.exec(lower); m !== null; m = re.exec(lower)) {
    let w = grouped ? m[0].replace(JOINED, '') : m[0];
    const last = w.charCodeAt(w.length - 1);
    if (last === 46 || last === 45 || last === 47 || last === 39 || last === 0x2019) w = w.replace(TRAILING, '');
    if (w.endsWith("'s")) w = w.slice(0, -2);
    if (w.length === 0 || w.length > 40) continue; // hashes, base64: not words
    if (dropStopWords && isStopWord(w)) continue;
    out.push(w);
  }
  return out;
}

export function contentWords(text: string): string[] {
  return tokenize(text, true);
}

export function termFrequencies(words: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}

/** Document frequencies over a set of sections, for TF-IDF weights. */
export class TermStats {
  private readonly df = new Map<string, number>();
  private docs = 0;

  /** Adds one document by its distinct words. */
  addDocument(distinct: Iterable<string>): void {
    this.memo.clear();
    this.docs++;
    for (const w of distinct) this.df.set(w, (this.df.get(w) ?? 0) + 1);
  }

  private readonly memo = new Map<string, number>();

  idf(w: string): number {
    let v = this.memo.get(w);
    if (v === undefined) {
      v = Math.log(1 + (this.docs + 1) / ((this.df.get(w) ?? 0) + 1));
      this.memo.set(w, v);
    }
    return v;
  }

  get documents(): number {
    return this.docs;
  }
}

export interface Keyphrase {
  phrase: string;
  score: number;
}

// A sentence ends at a dot that no letter or digit follows: a dot inside a word (`shed.py`,
// `node.js`, `e.g`) is looked at with the word.
const PHRASE_BREAK = /[\n,;:!?()[\]{}"“”<>|*=]+|\.(?![\p{L}\p{N}])|\s[-–—]\s/u;
const URL_SCHEMES = new Set(['http', 'https']);
/** A file name or a dotted name, one word: `shed.py`, `package.json`, `node.js`, `github.com`. */
const DOTTED_NAME = /^[\p{L}\p{N}_-]{2,}(?:\.[\p{L}\p{N}_-]+)*\.\p{L}[\p{L}\p{N}]{0,5}$/u;

/**
 * RAKE-style key phrases: runs of 1-3 content words between stop words and punctuation, scored
 * by the TF-IDF of their words; a phrase seen twice or more scores higher. A path or URL
 * (`src/shed.py`, `https://…`) is no phrase word: it ends a run, as a number does, and its
 * pieces (`src`, `py`, `https`) never become words. `notFirst`: words that never open a phrase
 * (a verb whose subject came before the run), left out there.
 */
export function keyphrases(text: string, stats: TermStats, limit: number, notFirst?: ReadonlySet<string>): Keyphrase[] {
  const counts = new Map<string, number>();
  const tf = new Map<string, number>();
  for (const chunk of text.toLowerCase().split(PHRASE_BREAK)) {
    let run: string[] = [];
    const flush = (): void => {
      for (let i = 0; i < run.length; i += 3) {
        const phrase = run.slice(i, i + 3).join(' ');
        counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
      }
      run = [];
    };
    const step = (w: string): void => {
      if (isStopWord(w) || /^\d+$/.test(w) || w.includes('/') || URL_SCHEMES.has(w) || (run.length === 0 && notFirst?.has(w))) flush();
      else {
        run.push(w);
        tf.set(w, (tf.get(w) ?? 0) + 1);
      }
    };
    for (const w of tokenize(chunk)) {
      if (!w.includes('.') || w.includes('/') || DOTTED_NAME.test(w)) step(w);
      // Abbreviations and numbers (`e.g`, `u.s`, `3.12`): their pieces, each dot a break.
      else
        for (const piece of w.split('.')) {
          flush();
          if (piece) step(piece);
        }
    }
    flush();
  }
  const scored: Keyphrase[] = [];
  for (const [phrase, n] of counts) {
    const words = phrase.split(' ');
    const weight = words.reduce((s, w) => s + Math.log(1 + (tf.get(w) ?? 1)) * stats.idf(w), 0) / Math.sqrt(words.length);
    scored.push({ phrase, score: weight * (n > 1 ? 1 + Math.log(n) : 1) });
  }
  scored.sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase));
  return scored.slice(0, limit);
}

/** A plural's singular, enough to see that "cucumbers" and "cucumber" are one keyword. */
function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(?:ches|shes|sses|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Top single words by TF-IDF, excluding `exclude`; a plural and its singular are one word. */
export function topWords(
  tfs: readonly ReadonlyMap<string, number>[],
  stats: TermStats,
  limit: number,
  exclude: ReadonlySet<string> = new Set(),
): string[] {
  const tf = new Map<string, number>();
  // Numbers, URLs and paths make poor sub-keywords (they stay searchable in the text).
  for (const m of tfs)
    for (const [w, n] of m)
      if (!exclude.has(w) && !/^[\d.,:-]+$/.test(w) && !w.includes('/') && w !== 'https' && w !== 'http') tf.set(w, (tf.get(w) ?? 0) + n);
  const seen = new Set([...exclude].map(singular));
  const out: string[] = [];
  for (const { w } of [...tf]
    .map(([w, n]) => ({ w, s: Math.log(1 + n) * stats.idf(w) }))
    .sort((a, b) => b.s - a.s || a.w.localeCompare(b.w))) {
    if (out.length >= limit) break;
    // Hashes, ids and random tokens (what is left of a secret a line break cut) name nothing:
    // asked of the few words that reach the top, not of every word of every section.
    if (isRandomWord(w)) continue;
    const one = singular(w);
    if (seen.has(one)) continue;
    seen.add(one);
    out.push(w);
  }
  return out;
}

/**
 * The part of the smaller set's words the other holds: 0.6 or more, and two statements say
 * nearly the same thing ("I took Lola to the vet, $50" and "the vet fee for Lola was $50").
 */
export function wordOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return common / Math.max(1, Math.min(a.size, b.size));
}
