// Any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, llama.cpp, vLLM, …) through the
// `openai` package. Vectors are requested as floats: the package's default (base64) comes back
// as empty arrays from servers that answer with floats anyway. Failures become one clear line.
// The package is loaded on first use: it costs ~80 ms to import, which every other command
// would otherwise pay. `timeoutMs` covers the whole request, body too (the SDK's own timeout
// ends at the response headers, and a server that sends them and stalls would hold a search,
// a compaction or a stopping daemon for as long as it keeps the socket open).
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
  /** Aborted when the owner stops (a daemon on SIGTERM): the request in flight is abandoned. */
  signal?: AbortSignal;
}

/**
 * How long an endpoint that failed is not asked again. A command's index update and its query
 * would otherwise each wait out the timeout; a daemon holding the embedder for days asks again
 * after it.
 */
const DOWN_MS = 60_000;
/** The pause before the one retry. */
const RETRY_WAIT_MS = 250;

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly batchSize: number;
  readonly fusionWeight = 1;
  private client: OpenAIClient | null = null;
  private sdk: typeof OpenAIClient | null = null;
  private readonly maxChars: number;
  /** The last failure of the endpoint itself, while it is not asked again. */
  private down: { message: string; until: number } | null = null;

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
        maxRetries: 0,
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
    const data = await this.request(sent);
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

  /**
   * One embeddings request within the deadline, tried once more after a refused connection or a
   * 408/409/429/5xx when time is left (hipo's retry, not the SDK's: the SDK's pause would run
   * past the deadline and hide why the first try failed). A failure of the endpoint is remembered.
   */
  private async request(sent: string[]): Promise<{ index: number; embedding: number[] }[]> {
    const where = this.where();
    const stopping = (): EmbedderError => new EmbedderError(`embeddings request to ${where} abandoned: stopping`);
    if (this.opts.signal?.aborted) throw stopping();
    if (this.down && Date.now() < this.down.until)
      throw new EmbedderError(`${this.down.message} (failed earlier; not asked again for ${DOWN_MS / 1000} s)`);
    this.down = null;
    const client = await this.connect().catch((err: unknown) => {
      throw this.explain(err);
    });
    const abort = new AbortController();
    const deadline = Date.now() + this.opts.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.opts.timeoutMs);
    const stop = (): void => abort.abort();
    this.opts.signal?.addEventListener('abort', stop, { once: true });
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await client.embeddings.create(
            { model: this.opts.model, input: sent, encoding_format: 'float' },
            { signal: abort.signal },
          );
          return res.data;
        } catch (err) {
          if (this.opts.signal?.aborted) throw stopping();
          if (!timedOut && attempt === 0 && this.retryable(err) && deadline - Date.now() > 2 * RETRY_WAIT_MS) {
            await new Promise((r) => setTimeout(r, RETRY_WAIT_MS));
            if (this.opts.signal?.aborted) throw stopping();
            continue;
          }
          const e = timedOut
            ? new EmbedderError(`embeddings endpoint ${where} did not answer within ${this.opts.timeoutMs} ms`)
            : this.explain(err);
          // An input the server refuses says nothing about the endpoint; anything else does.
          const status = (err as { status?: unknown }).status;
          if (!(status === 400 || status === 413 || status === 422)) this.down = { message: e.message, until: Date.now() + DOWN_MS };
          throw e;
        }
      }
    } finally {
      clearTimeout(timer);
      this.opts.signal?.removeEventListener('abort', stop);
    }
  }

  private retryable(err: unknown): boolean {
    const OpenAI = this.sdk;
    if (!OpenAI) return false;
    if (err instanceof OpenAI.APIConnectionTimeoutError || err instanceof OpenAI.APIUserAbortError) return false;
    if (err instanceof OpenAI.APIConnectionError) return true;
    const status = err instanceof OpenAI.APIError ? err.status : undefined;
    return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
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
