// One chat-completions request to an OpenAI-compatible endpoint, through the `openai` package
// (loaded only when an endpoint is configured). hipo runs its own retry loop instead of the
// SDK's: the SDK sleeps for whatever `retry-after` a server sends (an hour, while hipo holds
// the workspace lock), and its timeout stops at the response headers, not the body.
//   429, 5xx, 408/409, refused connection — retried up to `maxRetries`, honouring
//     `retry-after`/`retry-after-ms` up to `maxRetryWaitMs`; a longer wait is not waited for:
//     the call fails with the time the server asked for, and hipo backs off until then;
//   timeout (whole request, headers and body) — not retried: a slow model stays slow;
//   other 4xx, an unreadable response (a proxy's HTML page, cut-off JSON) — not retried;
//   the caller's signal aborted (a daemon stopping) — the request in flight is abandoned at once.
import { redactorFor } from '../../redact/workspace.js';
import type { LlmSettings } from './settings.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatResponse {
  text: string;
  /** `stop`, `length` (cut at max tokens), … or null when the server does not say. */
  finishReason: string | null;
  /** As the server reports them (usage); null when it does not. */
  tokensIn: number | null;
  tokensOut: number | null;
  /** The model the server says answered. */
  model: string;
  latencyMs: number;
}

/**
 * endpoint — the endpoint is down or refuses us (connection, timeout, 5xx, 401/403/404, 429) or
 *            answers with something that is no chat completion (a proxy's page, cut-off JSON):
 *            back off, do not call it again this run; the nodes get their pass once it is back;
 * input    — this request failed (400/413/422): the same input would fail again; other nodes
 *            may still be summarized;
 * stopped  — the caller gave up (its signal aborted: a daemon stopping): says nothing about the
 *            endpoint or the input, and the node gets its pass in a later run.
 */
export type FailureScope = 'endpoint' | 'input' | 'stopped';

export class LlmCallError extends Error {
  constructor(
    message: string,
    readonly scope: FailureScope,
    readonly latencyMs: number,
    /** When the server asked us to come back (429/503 retry-after), in ms from now. */
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface ChatClient {
  /** `signal`: aborted when the caller stops; the request in flight is abandoned ('stopped'). */
  complete(messages: readonly ChatMessage[], maxOutputTokens: number, signal?: AbortSignal): Promise<ChatResponse>;
}

/** Waits `ms`, or less when `signal` aborts first. */
type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** The request body: hipo's fields, then `extraBody` (a null value removes a field). */
export function requestBody(s: LlmSettings, messages: readonly ChatMessage[], maxOutputTokens: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: s.model,
    messages,
    max_tokens: maxOutputTokens,
    temperature: s.temperature,
    stream: false,
  };
  for (const [k, v] of Object.entries(s.extraBody)) {
    if (v === null) delete body[k];
    else body[k] = v;
  }
  return body;
}

/** Milliseconds a response asks us to wait, from `retry-after-ms` or `retry-after` (seconds or a date). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (!ra) return null;
  if (/^\s*\d+(?:\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export async function openAiChatClient(s: LlmSettings, sleep: Sleep = realSleep): Promise<ChatClient> {
  const { default: OpenAI, APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } = await import('openai');
  // Everything explicit: the SDK would otherwise read OPENAI_API_KEY, OPENAI_BASE_URL,
  // OPENAI_ORG_ID and OPENAI_PROJECT_ID from the environment and send them along.
  const client = new OpenAI({
    baseURL: s.baseUrl,
    apiKey: s.apiKey ?? 'no-key',
    organization: null,
    project: null,
    timeout: s.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
  });

  const once = async (messages: readonly ChatMessage[], maxOutputTokens: number, signal?: AbortSignal): Promise<ChatResponse> => {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const stopped = (): LlmCallError => new LlmCallError('abandoned: stopping', 'stopped', elapsed());
    if (signal?.aborted) throw stopped();
    // The SDK's timeout ends at the headers; this one covers the body too.
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, s.timeoutMs);
    const stop = (): void => abort.abort();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const raw: unknown = await client.chat.completions.create(requestBody(s, messages, maxOutputTokens) as never, {
        signal: abort.signal,
      });
      return parseCompletion(raw, s.model, elapsed());
    } catch (err) {
      if (err instanceof LlmCallError) throw err;
      if (signal?.aborted) throw stopped();
      if (timedOut || err instanceof APIConnectionTimeoutError) {
        throw new LlmCallError(`no answer within ${s.timeoutMs} ms (${s.timeoutSetting ?? 'llm.timeoutMs'})`, 'endpoint', elapsed());
      }
      if (err instanceof APIConnectionError && !(err instanceof APIUserAbortError)) {
        const cause = (err as { cause?: { cause?: { code?: string }; code?: string } }).cause;
        const code = cause?.cause?.code ?? cause?.code;
        throw new LlmCallError(`cannot reach ${s.baseUrl}${code ? ` (${code})` : ''}`, 'endpoint', elapsed());
      }
      if (err instanceof APIError && typeof err.status === 'number') {
        const status = err.status;
        const detail = oneLine(err.message).replace(/^\d{3}\s*/, '');
        const scope: FailureScope = status === 400 || status === 413 || status === 422 ? 'input' : 'endpoint';
        throw new LlmCallError(
          `HTTP ${status}${detail ? `: ${detail}` : ''}`,
          scope,
          elapsed(),
          retryAfterMs(err.headers as Headers | undefined),
          status,
        );
      }
      throw new LlmCallError(`unreadable response (${oneLine(err instanceof Error ? err.message : String(err))})`, 'endpoint', elapsed());
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  };

  // Nothing leaves the machine unredacted, whoever built the messages (summaries, ROOT, query
  // expansion): this is the one way out to a chat endpoint.
  const redactor = redactorFor(s.redactPatterns);
  return {
    async complete(original, maxOutputTokens, signal) {
      const messages = original.map((m) => ({ ...m, content: redactor.redact(m.content).text }));
      let waited = 0;
      for (let attempt = 0; ; attempt++) {
        try {
          const r = await once(messages, maxOutputTokens, signal);
          return { ...r, latencyMs: r.latencyMs + waited };
        } catch (err) {
          const e = err as LlmCallError;
          const retryable =
            e.scope !== 'stopped' &&
            (e.status === null
              ? /cannot reach/.test(e.message)
              : e.status === 429 || e.status === 408 || e.status === 409 || e.status >= 500);
          if (!retryable || attempt >= s.maxRetries) throw withWait(e, waited);
          const wait = e.retryAfterMs ?? Math.min(250 * 2 ** attempt, 4000);
          if (wait > s.maxRetryWaitMs)
            throw withWait(
              new LlmCallError(
                `${e.message}; the server asks to wait ${Math.ceil(wait / 1000)} s (more than llm.maxRetryWaitMs)`,
                'endpoint',
                e.latencyMs,
                wait,
                e.status,
              ),
              waited,
            );
          await sleep(wait, signal);
          waited += wait + e.latencyMs;
        }
      }
    },
  };
}

function withWait(e: LlmCallError, waited: number): LlmCallError {
  return waited ? new LlmCallError(e.message, e.scope, e.latencyMs + waited, e.retryAfterMs, e.status) : e;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** The answer's text and usage; anything that is not a chat completion is an error. */
function parseCompletion(raw: unknown, requested: string, latencyMs: number): ChatResponse {
  const r = raw as
    | {
        choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
        model?: unknown;
      }
    | string
    | null;
  if (r === null || typeof r !== 'object' || !Array.isArray(r.choices) || r.choices.length === 0) {
    const what = typeof r === 'string' ? `text: ${oneLine(r).slice(0, 80)}` : 'no choices';
    throw new LlmCallError(`unreadable response (not a chat completion: ${what})`, 'endpoint', latencyMs);
  }
  const choice = r.choices[0]!;
  const content = choice.message?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((p) => (typeof p === 'object' && p && 'text' in p ? String((p as { text: unknown }).text) : '')).join('')
        : '';
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    text,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    tokensIn: num(r.usage?.prompt_tokens),
    tokensOut: num(r.usage?.completion_tokens),
    model: typeof r.model === 'string' && r.model ? r.model : requested,
    latencyMs,
  };
}
