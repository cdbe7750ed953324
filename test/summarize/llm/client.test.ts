// The chat client against a real OpenAI-compatible server on loopback, through the real
// `openai` package: what is sent, and how each kind of failure comes back.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/config.js';
import { LlmCallError, openAiChatClient, retryAfterMs } from '../../../src/summarize/llm/client.js';
import { resolveLlmSettings, type LlmSettings } from '../../../src/summarize/llm/settings.js';
import { completion, startFakeLlm } from '../../helpers/llm-server.js';

function settings(url: string, over: Partial<LlmSettings> = {}): LlmSettings {
  const c = defaultConfig();
  c.llm = { ...c.llm, baseUrl: url, model: 'test-model', timeoutMs: 2000, maxRetries: 2 };
  return { ...resolveLlmSettings(c, {}).settings!, ...over };
}

const messages = [
  { role: 'system' as const, content: 'instructions' },
  { role: 'user' as const, content: 'sources' },
];

async function failure(p: Promise<unknown>): Promise<LlmCallError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LlmCallError);
    return err as LlmCallError;
  }
  throw new Error('expected the call to fail');
}

describe('chat client', () => {
  it('sends model, messages, max_tokens and temperature, and reads text, finish reason and usage', async () => {
    const llm = await startFakeLlm(() =>
      completion('## Topics\n- a [project]', { promptTokens: 321, completionTokens: 12, model: 'served-model' }),
    );
    const client = await openAiChatClient(settings(llm.url, { temperature: 0.3 }));
    const r = await client.complete(messages, 777);
    expect(r).toMatchObject({
      text: '## Topics\n- a [project]',
      finishReason: 'stop',
      tokensIn: 321,
      tokensOut: 12,
      model: 'served-model',
    });
    expect(llm.requests).toHaveLength(1);
    const req = llm.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.body).toMatchObject({ model: 'test-model', messages, max_tokens: 777, temperature: 0.3, stream: false });
  });

  it('merges llm.extraBody into the request, a null removing a field', async () => {
    const llm = await startFakeLlm(() => completion('ok'));
    const client = await openAiChatClient(
      settings(llm.url, { extraBody: { temperature: null, max_completion_tokens: 500, chat_template_kwargs: { enable_thinking: false } } }),
    );
    await client.complete(messages, 100);
    const body = llm.requests[0]!.body;
    expect(body).not.toHaveProperty('temperature');
    expect(body).toMatchObject({ max_completion_tokens: 500, chat_template_kwargs: { enable_thinking: false } });
  });

  it('sends the configured key, and never the OPENAI_* variables of the environment', async () => {
    const llm = await startFakeLlm(() => completion('ok'));
    const saved = { key: process.env.OPENAI_API_KEY, org: process.env.OPENAI_ORG_ID };
    process.env.OPENAI_API_KEY = 'sk-from-the-environment-0000000000';
    process.env.OPENAI_ORG_ID = 'org-from-the-environment';
    try {
      await (await openAiChatClient(settings(llm.url, { apiKey: null }))).complete(messages, 10);
      await (await openAiChatClient(settings(llm.url, { apiKey: 'hipo-test-key' }))).complete(messages, 10);
    } finally {
      if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved.key;
      if (saved.org === undefined) delete process.env.OPENAI_ORG_ID;
      else process.env.OPENAI_ORG_ID = saved.org;
    }
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer no-key');
    expect(llm.requests[1]!.headers.authorization).toBe('Bearer hipo-test-key');
    for (const r of llm.requests) {
      expect(JSON.stringify(r.headers)).not.toContain('from-the-environment');
    }
  });

  it('retries a 500 and returns the answer that follows', async () => {
    const llm = await startFakeLlm((_r, n) => (n === 1 ? { status: 500, json: { error: { message: 'boom' } } } : completion('fine')));
    const r = await (await openAiChatClient(settings(llm.url))).complete(messages, 10);
    expect(r.text).toBe('fine');
    expect(llm.requests).toHaveLength(2);
  });

  it('gives up after maxRetries on repeated 500s, as an endpoint failure', async () => {
    const llm = await startFakeLlm(() => ({ status: 500, json: { error: { message: 'model crashed' } } }));
    const e = await failure((await openAiChatClient(settings(llm.url, { maxRetries: 1 }))).complete(messages, 10));
    expect(llm.requests).toHaveLength(2);
    expect(e.scope).toBe('endpoint');
    expect(e.status).toBe(500);
    expect(e.message).toContain('HTTP 500');
  });

  it('waits out a 429 with retry-after and then succeeds', async () => {
    const llm = await startFakeLlm((_r, n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' }, json: { error: { message: 'slow down' } } } : completion('after the wait'),
    );
    const r = await (await openAiChatClient(settings(llm.url))).complete(messages, 10);
    expect(r.text).toBe('after the wait');
    expect(llm.requests).toHaveLength(2);
  });

  it('does not wait for a retry-after longer than maxRetryWaitMs: fails at once with the time asked for', async () => {
    const llm = await startFakeLlm(() => ({ status: 429, headers: { 'retry-after': '3600' }, json: { error: { message: 'quota' } } }));
    const e = await failure((await openAiChatClient(settings(llm.url, { maxRetryWaitMs: 5000 }))).complete(messages, 10));
    expect(llm.requests).toHaveLength(1);
    expect(e.scope).toBe('endpoint');
    expect(e.retryAfterMs).toBe(3_600_000);
    expect(e.message).toMatch(/asks to wait 3600 s/);
  });

  it('times out a server that never answers, without retrying', async () => {
    const llm = await startFakeLlm(() => ({ hang: true }));
    const e = await failure((await openAiChatClient(settings(llm.url, { timeoutMs: 300 }))).complete(messages, 10));
    expect(e.message).toBe('no answer within 300 ms (llm.timeoutMs)');
    expect(e.scope).toBe('endpoint');
    expect(llm.requests).toHaveLength(1);
  });

  it('times out a server that sends headers and then stalls the body', async () => {
    const llm = await startFakeLlm(() => ({ stall: true }));
    const client = await openAiChatClient(settings(llm.url, { timeoutMs: 300 }));
    const e = await failure(client.complete(messages, 10));
    expect(e.message).toMatch(/no answer within 300 ms/);
  });

  it("abandons the call when the caller's signal aborts: at once, as 'stopped', during the body or a retry wait", async () => {
    const llm = await startFakeLlm(() => ({ stall: true }));
    const client = await openAiChatClient(settings(llm.url, { timeoutMs: 120_000 }));
    const stop = new AbortController();
    const pending = failure(client.complete(messages, 10, stop.signal));
    while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    stop.abort();
    const e = await pending;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect([e.scope, e.message]).toEqual(['stopped', 'abandoned: stopping']);

    // A 503 asks for 60 s: the wait ends with the signal, and no second request is sent.
    llm.respond(() => ({ status: 503, headers: { 'retry-after': '60' }, json: { error: { message: 'loading' } } }));
    const waiting = new AbortController();
    const slow = await openAiChatClient(settings(llm.url, { maxRetryWaitMs: 120_000 }));
    const retried = failure(slow.complete(messages, 10, waiting.signal));
    while (llm.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    waiting.abort();
    expect((await retried).scope).toBe('stopped');
    expect(llm.requests).toHaveLength(2);
  });

  it('reports a refused connection as unreachable', async () => {
    const llm = await startFakeLlm();
    await llm.kill();
    const e = await failure((await openAiChatClient(settings(llm.url, { maxRetries: 0 }))).complete(messages, 10));
    expect(e.scope).toBe('endpoint');
    expect(e.message).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/v1/);
  });

  it('treats a 400 (e.g. context too long) as a failure of this input, not of the endpoint', async () => {
    const llm = await startFakeLlm(() => ({ status: 400, json: { error: { message: 'context length exceeded' } } }));
    const e = await failure((await openAiChatClient(settings(llm.url))).complete(messages, 10));
    expect(llm.requests).toHaveLength(1);
    expect(e.scope).toBe('input');
    expect(e.message).toContain('context length exceeded');
  });

  it("rejects a 200 that is not a chat completion, as the endpoint's failure (not the input's)", async () => {
    const llm = await startFakeLlm(() => ({ text: '<html>proxy login</html>', contentType: 'text/html' }));
    const e = await failure((await openAiChatClient(settings(llm.url))).complete(messages, 10));
    expect(e.message).toMatch(/not a chat completion/);
    expect(e.scope).toBe('endpoint');
    llm.respond(() => ({ json: { object: 'error', detail: 'nope' } }));
    const none = await failure((await openAiChatClient(settings(llm.url))).complete(messages, 10));
    expect([none.message, none.scope]).toEqual([expect.stringMatching(/no choices/), 'endpoint']);
    llm.respond(() => ({ text: '{"choices": [', contentType: 'application/json' }));
    const cut = await failure((await openAiChatClient(settings(llm.url))).complete(messages, 10));
    expect([cut.message, cut.scope]).toEqual([expect.stringMatching(/unreadable response/), 'endpoint']);
  });
});

describe('retry-after', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' }))).toBe(150);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000 + 30_000).toUTCString() }), 10_000)).toBeGreaterThanOrEqual(29_000);
    expect(retryAfterMs(new Headers({}))).toBeNull();
  });
});
