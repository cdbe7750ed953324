// The embedder interface: text in, unit vectors out. The index stores the embedder's id and
// dimensions; a different id means every chunk is embedded again rather than mixing two spaces.

export interface Embedder {
  /** Identifies the model and everything that shapes its vectors (changes force re-embedding). */
  readonly id: string;
  /**
   * Weight of its list in hybrid fusion unless the config sets one: how much its nearest
   * neighbours are worth next to keyword ranks (measured on the MemAware dev split).
   */
  readonly fusionWeight: number;
  /** Batch size the index feeds it with. */
  readonly batchSize: number;
  /**
   * One vector per text, L2-normalised; null when the text gives the model nothing to go on
   * (e.g. no known word), which a cosine would turn into NaN.
   */
  embed(texts: readonly string[]): Promise<(Float32Array | null)[]>;
  /** A query's vector (some models embed questions and passages differently). */
  embedQuery(text: string): Promise<Float32Array | null>;
  /** Frees what the model holds (a daemon keeps an index open for days). */
  close(): void;
}

/** An embedder that could not be loaded or reached; the message is for the user. */
export class EmbedderError extends Error {}

/** Scales `v` to unit length in place; null for a zero (or non-finite) vector. */
export function normalise(v: Float32Array): Float32Array | null {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (!(sum > 0) || !Number.isFinite(sum)) return null;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return v;
}
