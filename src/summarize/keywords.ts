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

/**
 * Chinese, Japanese and Korean words that carry no topic: pronouns, demonstratives, "can", "have",
 * "because", "very", politeness. A single CJK character is never a keyword (isStopWord), and a
 * Japanese word written in hiragana alone is grammar (particles, endings: が, した, です) or a
 * courtesy (よろしく), so neither needs listing.
 */
const CJK_STOP = new Set(
  `
我们 你们 他们 她们 它们 咱们 大家 自己 什么 怎么 怎样 为什么 这个 那个 这些 那些 这样 那样 这里 那里 一个 一些 一下 可以 能够 应该
需要 没有 不是 就是 还是 但是 因为 所以 如果 虽然 已经 现在 时候 非常 特别 比较 然后 而且 或者 还有 我的 你的 他的 她的 新的 好的 谢谢 你好
請問 我們 你們 他們 這個 那個 這些 那些 什麼 為什麼 沒有 因為 所以 現在 時候 謝謝
今日 明日 昨日 私 僕 自分 皆さん 様 方 事 物 時 所
저는 제가 나는 내가 우리 우리는 저희 그리고 하지만 그래서 그런데 그러면 또는 이것 그것 저것 이거 그거 여기 거기 지금 오늘 내일 어제 정말
너무 아주 많이 조금 있습니다 없습니다 합니다 했습니다 입니다 입니다만 있어요 없어요 해요 했어요 이에요 예요 감사합니다 안녕하세요
`
    .split(/\s+/)
    .filter(Boolean),
);
/**
 * German, French, Spanish, Portuguese and Russian function words, which named the topics of notes written in
 * them ("die, für, und", "la, de, les"). Several are English words or parts of names in English
 * text ("LA", "Las Vegas", "hay", "Dolmen de San Juan"), so they are stop words only in a text
 * written in one of those languages (otherLanguageStops).
 */
const OTHER_STOP = new Set(
  `
aber alle allem allen aller alles als auch auf aus bei beim bis bist bitte da damit danke dann das dass dein deine dem den denn der des die
dich dies diese diesem diesen dieser dieses doch dort du durch ein eine einem einen einer eines er es etwas euch euer für gegen gerne
gibt habe haben hallo hatte hätte heute ich ihm ihn ihnen ihr ihre im ins ist ja jede jeder jetzt kann kannst kein keine können könnte
mein meine mich mir mit muss müssen nach nicht nichts noch nun nur ob oder ohne schon sehr sein seine sich sie sind soll sollte um und
uns unser unsere unter viel vom von vor wann warum weil wenn wer werden wie wieder wir wird wo wurde würde zu zum zur zwischen über
au aux avec bonjour ce cela ces cette ceci comme dans de des du elle elles en est et été être eux fait faire ici il ils je la le les leur
leurs lui ma mais me merci mes moi mon même ne nos notre nous ou où par pas peut peux pour qu que quel quelle qui sa sans se ses sont
sur ta te tes toi très tu un une vos votre vous ça voici voilà
al algo como con del el ella ellas ellos esta está están este esto estos gracias hay hola los las mis muy nos nosotros otra otro para
pero porque por qué sus también tiene todo una unas unos usted yo
não um uma isso isto ele ela eles elas você vocês eu nós meu minha seu sua dos das na nas ao aos com pelo pela mas muito quando onde
ser estar são foi tem ter há já só até sobre entre essa esse
и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от меня еще нет о из ему
теперь когда даже ну ли если уже или ни быть был него до вас опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней
для мы тебя их чем была сам без чего раз тоже себе под будет ж тогда кто этот того потому этого какой здесь этом один мой тем чтобы
нее сейчас были куда можно при об другой хоть после над больше тот через эти нас про всего них какая много разве эту моя свою этой
перед лучше чуть том такой им более всегда конечно всю между это
`
    .split(/\s+/)
    .filter(Boolean),
);
const NO_WORDS: ReadonlySet<string> = new Set();

/**
 * OTHER_STOP when a text's words (with their counts) are those of German, French, Spanish,
 * Portuguese or Russian: a tenth of them or more are such function words, three different ones
 * at least, as in any sentence of those languages; English text naming "LA", "Las Vegas" or
 * "hay" has one or two, and fewer. Else no words.
 */
function otherLanguageStops(counts: Iterable<readonly [string, number]>): ReadonlySet<string> {
  let all = 0;
  let other = 0;
  let distinct = 0;
  for (const [w, n] of counts) {
    all += n;
    // "me", "a", "do" are English function words too: they say nothing of the language.
    if (OTHER_STOP.has(w) && !STOP.has(w)) {
      other += n;
      distinct++;
    }
  }
  return distinct >= 3 && other >= all * 0.1 ? OTHER_STOP : NO_WORDS;
}

const HIRAGANA_ONLY = /^[\p{Script=Hiragana}\u30fc]+$/u;

/** True for words that carry no topic: function words and chat filler. */
export function isStopWord(w: string): boolean {
  if (w.length < 2) return true;
  if (w.length === 2 && w.charCodeAt(0) < 58 && w.charCodeAt(1) < 58) return true; // "12"
  if (STOP.has(w)) return true;
  return w.charCodeAt(0) >= 0x3040 && (CJK_STOP.has(w) || HIRAGANA_ONLY.test(w));
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
/** Accented Latin and Cyrillic letters: German, French, Spanish, Portuguese, Russian text has them. */
const OTHER_LETTERS = /[\u00c0-\u024f\u0400-\u04ff]/;
const TRAILING = /[.\-/'’]+$/;
/** Han (with its supplementary planes), kana and Hangul, as ranges: a plain class is tested fastest. */
const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]|[\ud840-\ud87f][\udc00-\udfff]/;

let wordSegmenter: Intl.Segmenter | null = null;

/**
 * The words of a token holding Chinese or Japanese, which are written without spaces: a run
 * such as 本番環境のデータベース移行が完了しました is one token to the regex, a sentence.
 * Intl.Segmenter cuts it by its dictionary (本番 環境 の データベース 移行 …), and cuts a token
 * that changes script (`gateway의`, `redis캐시`) where the script changes. Korean is spaced by
 * words already.
 */
function cjkWords(token: string): string[] {
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const out: string[] = [];
  for (const s of wordSegmenter.segment(token)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/** Lower-cased words; possessive 's dropped. Chinese and Japanese runs are cut into words (cjkWords). */
export function tokenize(text: string, dropStopWords = false): string[] {
  const out: string[] = [];
  let lower = plainApostrophes(text.toLowerCase());
  const grouped = GROUPED.test(lower);
  if (grouped) lower = lower.replace(THOUSANDS, '\u0001');
  const nonAscii = NON_ASCII.test(lower);
  // Asked of the text once: most texts with a non-ASCII character (a curly quote) have no CJK.
  const cjk = nonAscii && CJK.test(lower);
  const re = nonAscii ? TOKEN : ASCII_TOKEN;
  re.lastIndex = 0;
  for (let m = re.exec(lower); m !== null; m = re.exec(lower)) {
    if (cjk && CJK.test(m[0])) {
      for (const w of cjkWords(m[0])) if (w.length <= 40 && !(dropStopWords && isStopWord(w))) out.push(w);
      continue;
    }
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
  // Those languages write accented Latin or Cyrillic letters: an English text, curly quotes and
  // all, is not tokenized twice.
  const other = OTHER_LETTERS.test(text) ? otherLanguageStops(termFrequencies(tokenize(text))) : NO_WORDS;
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
      // A Chinese or Japanese word is no phrase word: the words of a request ("请用 中文 再说",
      // "please say it in Chinese") outscored what it was about, and nothing tells them apart yet.
      if (
        isStopWord(w) ||
        other.has(w) ||
        /^\d+$/.test(w) ||
        w.includes('/') ||
        URL_SCHEMES.has(w) ||
        (run.length === 0 && notFirst?.has(w)) ||
        CJK.test(w)
      )
        flush();
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

// Nouns that end like an adverb.
const LY_NOUNS = new Set([
  'family',
  'supply',
  'jelly',
  'lily',
  'rally',
  'assembly',
  'butterfly',
  'belly',
  'italy',
  'july',
  'ally',
  'holly',
]);
// Words that end like a past form but are none.
const NOT_PAST = new Set(['united', 'limited', 'hundred', 'kindred', 'sacred', 'wicked', 'naked', 'rugged']);
/**
 * Irregular past forms and participles that are seldom anything else. Left out, as they are also
 * a noun, a name or a present form people name things by: left, lost, saw, sat (SAT), led (LED),
 * fed (the Fed), read, set, put, cut, hit, let, shot, spoke, found, bound, ground, rose, wound.
 */
export const IRREGULAR_PAST = new Set(
  `wrote written made went gone got gotten took taken gave given came seen said did done ran bought brought sent spent met paid
  sold kept won began begun became ate eaten drank drunk drove driven flew flown forgot forgotten grew grown knew known rode ridden
  sang sung slept spoken stood swam threw thrown understood woke woken wore worn told taught thought felt heard built caught sought
  fought chose chosen broke broken hid hidden shook shaken stole stolen tore torn meant dealt dug hung laid lent struck swore wept`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * A past form or participle: six letters or more ending in -ed (not -eed: speed, breed, need;
 * not "limited"), or an irregular one ("wrote", "built", "known").
 */
export const isPastForm = (w: string): boolean => (/^[a-z]{4,}(?<!e)ed$/.test(w) && !NOT_PAST.has(w)) || IRREGULAR_PAST.has(w);

/**
 * A verb's past form ("changed", "tested") or an adverb ("automatically"): frequent in notes of
 * what was done, and no name of what a topic is about.
 */
const verbLike = (w: string): boolean => isPastForm(w) || (/^[a-z]{3,}ly$/.test(w) && !LY_NOUNS.has(w));

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
  const other = otherLanguageStops(tf);
  const out: string[] = [];
  for (const { w } of [...tf]
    .filter(([w]) => !other.has(w))
    .map(([w, n]) => ({ w, s: Math.log(1 + n) * stats.idf(w) }))
    .sort((a, b) => b.s - a.s || a.w.localeCompare(b.w))) {
    if (out.length >= limit) break;
    // Hashes, ids and random tokens (what is left of a secret a line break cut) name nothing:
    // asked of the few words that reach the top, not of every word of every section.
    if (isRandomWord(w) || verbLike(w)) continue;
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
