// Token counts with a real tokenizer (o200k, as used by current OpenAI models; a fair proxy for
// others). Loaded on first use: it costs ~100 ms, which most commands never pay.
export type CountTokens = (text: string) => number;

let counter: CountTokens | null = null;

export async function loadTokenCounter(): Promise<CountTokens> {
  if (!counter) {
    const mod = await import('gpt-tokenizer');
    counter = (text: string) => (text ? mod.countTokens(text) : 0);
  }
  return counter;
}
