// Any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, llama.cpp, vLLM, …) through the
// `openai` package. Vectors are requested as floats: the package's default (base64) comes back
// as empty arrays from servers that answer with floats anyway. Failures become one clear line.
// The package is loaded on first use: it costs ~80 ms to import, which every other command
// would otherwise pay.
import type OpenAIClient from 'openai';
import type { Redactor } from '../../redact/redactor.js';
import { redactorFor } from '../../redact/workspace.js';
import { EmbedderError, normalise, type Embedder } from './embedder.js';

/** The innermost cause's code or message: "ECONNREFUSED" rather than "fetch failed". */
function rootCause(err: unknown): string {
  let why = (err as Error).message;
  let e = (err as { cause?: unknown }).cause;
  for (let depth = 0; e && depth < 5; depth++) {
    const c = e as { code?: string; message?: string; cause?: unknown };
    why = c.code ?? c.message ?? why;
    if (c.code) break;
    e = c.cause;
  }
  return why;
}

export interface OpenAiEmbedderOptions {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Sent as `openai-organization` / `openai-project`; only with a key of OpenAI's own (select.ts). */
  organization?: string | null;
  project?: string | null;
  batchSize: number;
  timeoutMs: number;
  /** Characters sent per input at most (long inputs fail on small-context models). */
  maxChars?: number;
  /** Redacts every input before it is sent (indexed text arrives redacted; queries do not). */
  redactor?: Redactor;
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly batchSize: number;
  readonly fusionWeight = 1;
  private client: OpenAIClient | null = null;
  private sdk: typeof OpenAIClient | null = null;
  private readonly maxChars: number;

  constructor(private readonly opts: OpenAiEmbedderOptions) {
    if (!opts.model) throw new EmbedderError('the "openai" embedder needs a model: set "search.openai.model" or HIPO_EMBED_MODEL');
    this.id = `openai:${opts.model}@${opts.baseUrl || 'api.openai.com'}`;
    this.batchSize = opts.batchSize;
    this.maxChars = opts.maxChars ?? 8000;
  }

  private async connect(): Promise<OpenAIClient> {
    if (!this.client) {
      const OpenAI = (await import('openai')).default;
      this.sdk = OpenAI;
      // Everything explicit: the SDK would otherwise read OPENAI_API_KEY, OPENAI_BASE_URL,
      // OPENAI_ORG_ID and OPENAI_PROJECT_ID from the environment and send them to this endpoint.
      this.client = new OpenAI({
        // Local servers ignore the key, but the client refuses to start without one.
        apiKey: this.opts.apiKey || 'no-key',
        baseURL: this.where(),
        organization: this.opts.organization ?? null,
        project: this.opts.project ?? null,
        timeout: this.opts.timeoutMs,
        maxRetries: 1,
      });
    }
    return this.client;
  }

  private where(): string {
    return this.opts.baseUrl || 'https://api.openai.com/v1';
  }

  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    const redactor = this.opts.redactor ?? redactorFor();
    const input = texts.map((t) => redactor.redact(t).text.slice(0, this.maxChars));
    const nonEmpty = input.map((t) => t.trim() !== '');
    const sent = input.filter((_, i) => nonEmpty[i]);
    if (sent.length === 0) return input.map(() => null);
    let data: { index: number; embedding: number[] }[];
    try {
      const client = await this.connect();
      const res = await client.embeddings.create({ model: this.opts.model, input: sent, encoding_format: 'float' });
      data = res.data;
    } catch (err) {
      throw this.explain(err);
    }
    if (!Array.isArray(data) || data.length !== sent.length) {
      throw new EmbedderError(
        `embeddings endpoint ${this.where()} returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${sent.length} inputs`,
      );
    }
    const byIndex = [...data].sort((a, b) => a.index - b.index);
    const dims = byIndex[0]!.embedding?.length ?? 0;
    if (dims === 0 || byIndex.some((d) => !Array.isArray(d.embedding) || d.embedding.length !== dims)) {
      throw new EmbedderError(`embeddings endpoint ${this.where()} returned empty or uneven vectors (model "${this.opts.model}")`);
    }
    let k = 0;
    return input.map((_, i) => (nonEmpty[i] ? normalise(Float32Array.from(byIndex[k++]!.embedding)) : null));
  }

  async embedQuery(text: string): Promise<Float32Array | null> {
    return (await this.embed([text]))[0] ?? null;
  }

  private explain(err: unknown): EmbedderError {
    const where = this.where();
    const OpenAI = this.sdk;
    if (!OpenAI) return new EmbedderError(`embeddings endpoint ${where}: ${(err as Error)?.message ?? String(err)}`);
    if (err instanceof OpenAI.APIConnectionTimeoutError)
      return new EmbedderError(`embeddings endpoint ${where} did not answer within ${this.opts.timeoutMs} ms`);
    if (err instanceof OpenAI.APIConnectionError)
      return new EmbedderError(`cannot reach the embeddings endpoint ${where} (${rootCause(err)})`);
    if (err instanceof OpenAI.APIError) {
      const status = err.status;
      if (status === 401 || status === 403)
        return new EmbedderError(
          `embeddings endpoint ${where} refused the API key (HTTP ${status}); set "search.openai.apiKey" or HIPO_EMBED_API_KEY`,
        );
      if (status === 404)
        return new EmbedderError(`embeddings endpoint ${where} has no model "${this.opts.model}" or no /embeddings route (HTTP 404)`);
      return new EmbedderError(`embeddings endpoint ${where} answered HTTP ${status ?? '?'}: ${err.message.replace(/^\d{3}\s+/, '')}`);
    }
    return new EmbedderError(`embeddings endpoint ${where}: ${(err as Error)?.message ?? String(err)}`);
  }

  close(): void {
    /* nothing held between requests */
  }
}
