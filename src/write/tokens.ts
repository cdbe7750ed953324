// Token counts with a real BPE tokenizer, loaded on first use (most commands never pay for it).
// Default cl100k_base: it loads in about half the time of o200k_base and counts slightly more
// tokens for English, so a cap held under it also holds under o200k. Configurable.
export type CountTokens = (text: string) => number;
export type TokenizerName = 'cl100k_base' | 'o200k_base';
export const TOKENIZERS: readonly TokenizerName[] = ['cl100k_base', 'o200k_base'];

const counters = new Map<TokenizerName, CountTokens>();

export async function loadTokenCounter(name: TokenizerName = 'cl100k_base'): Promise<CountTokens> {
  let c = counters.get(name);
  if (!c) {
    const mod = name === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
    c = (text: string) => (text ? mod.countTokens(text) : 0);
    counters.set(name, c);
  }
  return c;
}
