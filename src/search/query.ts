// A search query as the full-text index sees it: terms (OR-ed, never AND-ed: a plain-English
// question must find the passage that answers only part of it), "quoted phrases", -excluded
// words, and Korean/Japanese/Chinese runs as character bigrams. Stop words are dropped unless
// nothing else is left.
import { cjkQueryTerms, cjkRuns } from '../index/cjk.js';
import { searchFold } from '../text/search-fold.js';
import { isStopWord } from '../text/stopwords.js';

interface QueryTerm {
  /** An FTS5 MATCH expression for this one term. */
  match: string;
  /**
   * What the user typed (for snippets and the PostgreSQL store: lower-case words in NFC, or CJK
   * text); `match` searches it folded (searchFold), as the index holds it, and so does the store.
   */
  words: string[];
  kind: 'word' | 'phrase' | 'cjk';
  /** Typed between double quotes. */
  quoted: boolean;
}

export interface ParsedQuery {
  /** The query as given, trimmed. */
  text: string;
  terms: QueryTerm[];
  /** Chunks matching any of these are left out. */
  excluded: string[];
  /** The -excluded words themselves (for stores that do not speak FTS5). */
  excludedWords: string[];
}

/** At most this many terms are searched: a pasted page of text must not cost a second. */
const MAX_TERMS = 48;
/**
 * A quoted run of more words than this is a quotation (an agent quoting a whole request), not a
 * phrase to look for word for word: its words are searched as free text.
 */
const MAX_PHRASE_WORDS = 8;
/** Text beyond this is ignored (for terms and for the query vector alike). */
export const MAX_QUERY_CHARS = 4000;

const WORD = /[\p{L}\p{N}]+/gu;

/** Quotes a string for an FTS5 MATCH expression, folded as the indexed text is. */
function quote(s: string): string {
  return `"${searchFold(s).replace(/"/g, '""')}"`;
}

/** Words as the index's tokenizer cuts them (letters and digits), lower-cased, CJK runs removed. */
function queryWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (cjkRuns(w).join('') === w) continue;
    out.push(w);
  }
  return out;
}

/** A word worth searching: not a stop word, and not a lone letter or digit. */
function meaningful(w: string): boolean {
  return !isStopWord(w) && w.length > 1;
}

export function parseQuery(input: string): ParsedQuery {
  const text = input.trim().slice(0, MAX_QUERY_CHARS);
  const terms: QueryTerm[] = [];
  const excluded: string[] = [];
  const excludedWords: string[] = [];
  const seen = new Set<string>();
  const add = (t: QueryTerm): void => {
    if (terms.length >= MAX_TERMS || seen.has(t.match)) return;
    seen.add(t.match);
    terms.push(t);
  };
  // "Exact phrases" and -excluded words first; what is left is free text.
  // Composed (NFC) before words are cut: a decomposed ё or é is a letter and a mark, and the
  // mark would cut the word in two.
  let rest = text.normalize('NFC').replace(/"([^"]+)"/g, (quoted, phrase: string) => {
    const words = queryWords(phrase);
    if (words.length > MAX_PHRASE_WORDS) return ` ${phrase} `;
    const cjk = cjkQueryTerms(phrase);
    if (words.length > 1) add({ match: `{heading body facts} : ${quote(words.join(' '))}`, words, kind: 'phrase', quoted: true });
    else if (words.length === 1) add({ match: `{heading body facts} : ${quote(words[0]!)}`, words, kind: 'word', quoted: true });
    for (const c of cjk) add({ match: `cjk : ${quote(c)}`, words: [c], kind: 'cjk', quoted: true });
    return words.length || cjk.length ? ' ' : quoted;
  });
  rest = rest.replace(/(^|\s)-([\p{L}\p{N}][\p{L}\p{N}_-]*)/gu, (_, lead: string, word: string) => {
    for (const w of queryWords(word)) {
      excluded.push(`{heading body facts} : ${quote(w)}`);
      excludedWords.push(w);
    }
    for (const c of cjkQueryTerms(word)) {
      excluded.push(`cjk : ${quote(c)}`);
      excludedWords.push(c);
    }
    return lead;
  });
  const words = queryWords(rest);
  const kept = words.filter(meaningful);
  // A query of nothing but stop words ("who are you") still searches for them.
  for (const w of kept.length ? kept : words) add({ match: `{heading body facts} : ${quote(w)}`, words: [w], kind: 'word', quoted: false });
  for (const c of cjkQueryTerms(rest)) add({ match: `cjk : ${quote(c)}`, words: [c], kind: 'cjk', quoted: false });
  return { text, terms, excluded, excludedWords };
}
