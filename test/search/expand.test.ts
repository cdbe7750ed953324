// Query expansion by the configured model, against a real OpenAI-compatible server on 127.0.0.1:
// the model sees ROOT.md and the request, its `lex:`/`vec:` lines become extra queries, answers
// are cached, and every failure leaves a plain search with a warning.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { expandQuery, extraQueries, parseExpansions } from '../../src/search/expand.js';
import { completion, startFakeLlm } from '../helpers/llm-server.js';
import { makeWorkspace } from '../helpers/workspace.js';

const ROOT =
  '---\ntype: root\n---\n\n# ROOT\n\n## Topics Index\n- pets [user]: golden retriever Biscuit (2026-05-04)\n- billing [project]: nightly cron (2026-05-18)\n';
const REQUEST = 'recommend a vacuum for a house with lots of long shedding hair';
const ANSWER = 'lex: golden retriever Biscuit dog\nvec: my dog Biscuit sheds a lot';

function workspace(llm: { url: string } | null, extra: Record<string, unknown> = {}) {
  return makeWorkspace(
    { 'memory/ROOT.md': ROOT },
    { timeZone: 'UTC', ...(llm ? { llm: { baseUrl: llm.url, model: 'test-model' } } : {}), ...extra },
  );
}

describe('parseExpansions', () => {
  it('reads lex: and vec: lines and ignores everything else', () => {
    const text = 'Here are some queries:\n```\n- lex: golden retriever\n2. **vec**: my dog sheds\nLEX = "carpet brush"\nnotes: none\n```';
    expect(parseExpansions(text, 'q', 4)).toEqual([
      { kind: 'lex', text: 'golden retriever' },
      { kind: 'vec', text: 'my dog sheds' },
      { kind: 'lex', text: 'carpet brush' },
    ]);
  });

  it("skips a reasoning model's thinking", () => {
    expect(parseExpansions('<think>\nlex: maybe cats?\n</think>\nlex: golden retriever', 'q', 4)).toEqual([
      { kind: 'lex', text: 'golden retriever' },
    ]);
    expect(parseExpansions('<think>lex: cut off mid-thought', 'q', 4)).toEqual([]);
  });

  it('drops repeats and the query itself, and keeps at most `max`', () => {
    expect(parseExpansions('lex: dog\nlex: Dog\nvec: the query\nlex: cat\nlex: fish', 'The query', 2)).toEqual([
      { kind: 'lex', text: 'dog' },
      { kind: 'lex', text: 'cat' },
    ]);
  });
});

describe('expandQuery', () => {
  it("sends ROOT.md and the request, and turns the model's lines into extra queries", async () => {
    const llm = await startFakeLlm(() => completion(ANSWER));
    const ws = workspace(llm);
    const x = await expandQuery(ws, loadConfig(ws.root).config, REQUEST, { env: {} });
    expect(x).toEqual({
      also: [
        { kind: 'lex', text: 'golden retriever Biscuit dog' },
        { kind: 'vec', text: 'my dog Biscuit sheds a lot' },
      ],
      warning: null,
      cached: false,
      model: 'test-model',
    });
    expect(llm.requests).toHaveLength(1);
    const sent = llm.requests[0]!.body;
    expect(sent.model).toBe('test-model');
    expect(sent.temperature).toBe(0);
    expect(sent.messages[1]!.content).toContain('- pets [user]: golden retriever Biscuit');
    expect(sent.messages[1]!.content).toContain(REQUEST);
  });

  it('answers the same request from the cache without a call', async () => {
    const llm = await startFakeLlm(() => completion(ANSWER));
    const ws = workspace(llm);
    const { config } = loadConfig(ws.root);
    await expandQuery(ws, config, REQUEST, { env: {} });
    const again = await expandQuery(ws, config, REQUEST, { env: {} });
    expect(again.cached).toBe(true);
    expect(again.also).toHaveLength(2);
    expect(llm.requests).toHaveLength(1);
    // ROOT.md changed: the memory knows other things, so the model is asked again.
    ws.write('memory/ROOT.md', `${ROOT}- garden [user]: tomatoes\n`);
    expect((await expandQuery(ws, config, REQUEST, { env: {} })).cached).toBe(false);
    expect(llm.requests).toHaveLength(2);
  });

  it('warns and expands nothing when the endpoint is down', async () => {
    const llm = await startFakeLlm(() => completion(ANSWER));
    await llm.kill();
    const ws = workspace(llm);
    const x = await expandQuery(ws, loadConfig(ws.root).config, REQUEST, { env: {} });
    expect(x.also).toEqual([]);
    expect(x.warning).toMatch(new RegExp(`^query expansion skipped: ${llm.url.replace(/[./]/g, '\\$&')}: cannot reach`));
  });

  it('gives up after search.expand.timeoutMs', async () => {
    const llm = await startFakeLlm(() => ({ hang: true }));
    const ws = workspace(llm, { search: { expand: { timeoutMs: 300 } } });
    const t = performance.now();
    const x = await expandQuery(ws, loadConfig(ws.root).config, REQUEST, { env: {} });
    // The limit that applied is the one named, not the summaries' llm.timeoutMs.
    expect(x.warning).toBe(`query expansion skipped: ${llm.url}: no answer within 300 ms (search.expand.timeoutMs)`);
    expect(performance.now() - t).toBeLessThan(5000);
  });

  it('gives up after llm.timeoutMs when that is the shorter, and says so', async () => {
    const llm = await startFakeLlm(() => ({ hang: true }));
    const ws = makeWorkspace(
      { 'memory/ROOT.md': ROOT },
      { timeZone: 'UTC', llm: { baseUrl: llm.url, model: 'test-model', timeoutMs: 300 }, search: { expand: { timeoutMs: 60_000 } } },
    );
    const x = await expandQuery(ws, loadConfig(ws.root).config, REQUEST, { env: {} });
    expect(x.warning).toBe(`query expansion skipped: ${llm.url}: no answer within 300 ms (llm.timeoutMs)`);
  });

  it("abandons the call when the caller's signal aborts (a daemon stopping), well before the time limit", async () => {
    const llm = await startFakeLlm(() => ({ hang: true }));
    const ws = workspace(llm);
    const stop = new AbortController();
    const t = performance.now();
    const pending = expandQuery(ws, loadConfig(ws.root).config, REQUEST, { env: {}, signal: stop.signal });
    while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    const x = await pending;
    expect(x.also).toEqual([]);
    expect(x.warning).toBe(`query expansion skipped: ${llm.url}: abandoned: stopping`);
    expect(performance.now() - t).toBeLessThan(5000);
    expect(ws.files('.hipo/llm-cache')).toEqual([]);
    // Already stopped: no call is sent.
    await expandQuery(ws, loadConfig(ws.root).config, 'another request', { env: {}, signal: stop.signal });
    expect(llm.requests).toHaveLength(1);
  });

  it('warns when the model writes no query line, and does not cache that answer', async () => {
    const llm = await startFakeLlm(() => completion('I cannot help with that.'));
    const ws = workspace(llm);
    const { config } = loadConfig(ws.root);
    expect((await expandQuery(ws, config, REQUEST, { env: {} })).warning).toBe(
      'query expansion skipped: test-model wrote no "lex:" or "vec:" line',
    );
    await expandQuery(ws, config, REQUEST, { env: {} });
    expect(llm.requests).toHaveLength(2);
  });

  it('says what is missing when no model is configured', async () => {
    const ws = workspace(null);
    const x = await expandQuery(ws, loadConfig(ws.root).config, REQUEST, { env: {} });
    expect(x.warning).toContain('no model is configured');
  });

  it('takes the endpoint from HIPO_LLM_* like summaries do', async () => {
    const llm = await startFakeLlm(() => completion(ANSWER));
    const ws = workspace(null);
    const x = await expandQuery(ws, loadConfig(ws.root).config, REQUEST, {
      env: { HIPO_LLM_BASE_URL: llm.url, HIPO_LLM_MODEL: 'env-model' },
    });
    expect(x.warning).toBeNull();
    expect(llm.requests[0]!.body.model).toBe('env-model');
  });
});

describe('extraQueries', () => {
  it("puts the caller's rephrasings first and asks the model only when expansion is on", async () => {
    const llm = await startFakeLlm(() => completion(ANSWER));
    const ws = workspace(llm);
    const { config } = loadConfig(ws.root);
    const off = await extraQueries(ws, config, REQUEST, { also: ['my dog'], env: {} });
    expect(off.also.map((x) => x.kind)).toEqual(['query']);
    expect(llm.requests).toHaveLength(0);
    const on = await extraQueries(ws, config, REQUEST, { also: ['my dog'], expand: true, env: {} });
    expect(on.also.map((x) => `${x.kind}: ${x.text}`)).toEqual([
      'query: my dog',
      'lex: golden retriever Biscuit dog',
      'vec: my dog Biscuit sheds a lot',
    ]);
    expect(on.expansion).toEqual({ model: 'test-model', cached: false });
  });

  it('expands by default when search.expand.enabled is set', async () => {
    const llm = await startFakeLlm(() => completion(ANSWER));
    const ws = workspace(llm, { search: { expand: { enabled: true } } });
    const x = await extraQueries(ws, loadConfig(ws.root).config, REQUEST, { env: {} });
    expect(x.also).toHaveLength(2);
    expect((await extraQueries(ws, loadConfig(ws.root).config, REQUEST, { expand: false, env: {} })).also).toEqual([]);
  });
});
