// Token counts with a real BPE tokenizer, loaded on first use (most commands never pay for it).
// Default cl100k_base: it counts slightly more tokens for English than o200k_base, so a cap held
// under it also holds under o200k. Configurable. The ranks come from the binary table the build
// makes (bpe.ts), else from gpt-tokenizer itself; the counts are the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BpeCounter, parseRankTable, type TokenizerName } from './bpe.js';

export type CountTokens = (text: string) => number;
export type { TokenizerName };

const counters = new Map<TokenizerName, CountTokens>();

/**
 * Special-token strings (`<|endoftext|>`) in memory are text: an agent's notes about models
 * quote them. Counted as ordinary text, as an API counts a user's text; by default the library
 * throws on them, which once made ROOT.md unbuildable.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Pieces longer than this are counted but not remembered. */
const MAX_REMEMBERED_PIECE = 4096;
const MAX_REMEMBERED = 50_000;

export async function loadTokenCounter(name: TokenizerName = 'cl100k_base'): Promise<CountTokens> {
  let c = counters.get(name);
  if (!c) {
    c = rememberingCounter(tableCounter(name) ?? libraryCountSync(name));
    counters.set(name, c);
  }
  return c;
}

/** Where the build puts the rank tables: `dist/tokenizers/` beside `dist/text/`. */
function rankTableUrl(name: TokenizerName): URL {
  return new URL(`../tokenizers/${name}.bin`, import.meta.url);
}

/** A counter over the build's rank table, or null without one (running from source). */
function tableCounter(name: TokenizerName): CountTokens | null {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(rankTableUrl(name));
  } catch {
    return null;
  }
  const table = parseRankTable(bytes);
  if (!table) return null;
  let library: CountTokens | null = null;
  const counter = new BpeCounter(table, name, (piece) => (library ??= libraryCountSync(name))(piece));
  return (text) => counter.count(text);
}

/** gpt-tokenizer's own counter, loaded synchronously (its CommonJS build) when first needed. */
function libraryCountSync(name: TokenizerName): CountTokens {
  const mod = createRequire(import.meta.url)(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens(text: string, o: object): number };
  return (text) => mod.countTokens(text, AS_TEXT);
}

/**
 * Counts text piece by piece (see linePieces), remembering each piece's count: ROOT is
 * re-measured line by line while it is held under its cap, and again on every rebuild, with
 * most lines unchanged. The total is exactly the count of the whole text.
 */
export function rememberingCounter(count: CountTokens): CountTokens {
  const known = new Map<string, number>();
  return (text: string): number => {
    let total = 0;
    for (const piece of linePieces(text)) {
      let n = known.get(piece);
      if (n === undefined) {
        n = piece ? count(piece) : 0;
        if (piece.length <= MAX_REMEMBERED_PIECE) {
          if (known.size >= MAX_REMEMBERED) known.clear();
          known.set(piece, n);
        }
      }
      total += n;
    }
    return total;
  };
}

/**
 * Splits text where a line starts with a character other than white space or `/`. The BPE
 * tokenizers' pre-tokenizers (cl100k and o200k) never join characters across such a point: the
 * run of line breaks before it ends a piece, and no pattern looks behind. BPE works within a
 * piece, so the counts of the parts add up to the count of the whole (o200k lets `/` follow
 * punctuation and line breaks in one piece, hence the exception; checked in tokens.test.ts).
 */
export function linePieces(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let nl = text.indexOf('\n');
  while (nl !== -1 && nl + 1 < text.length) {
    const next = text.charCodeAt(nl + 1);
    // space, tab, \r, \n, \v, \f and '/' continue the piece; so does any other white space.
    if (next > 32 && next !== 47 && !/\s/.test(text[nl + 1]!)) {
      out.push(text.slice(start, nl + 1));
      start = nl + 1;
    }
    nl = text.indexOf('\n', nl + 1);
  }
  out.push(text.slice(start));
  return out;
}
