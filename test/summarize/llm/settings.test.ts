// When hipo talks to a model at all, and with which key.
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig, loadConfig } from '../../../src/config/config.js';
import { resolveLlmSettings } from '../../../src/summarize/llm/settings.js';
import { makeWorkspace } from '../../helpers/workspace.js';

const withLlm = (llm: Partial<ReturnType<typeof defaultConfig>['llm']>) => ({ llm: { ...defaultConfig().llm, ...llm } });

describe('resolveLlmSettings', () => {
  it('is off by default: no endpoint, nothing sent', () => {
    expect(resolveLlmSettings(defaultConfig(), {})).toEqual({ settings: null, warnings: [] });
  });

  it('is on with a base URL and a model, from the config', () => {
    const r = resolveLlmSettings(withLlm({ baseUrl: 'http://127.0.0.1:11434/v1/', model: 'qwen2.5:7b' }), {});
    expect(r.settings).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b', apiKey: null });
    expect([...r.settings!.levels]).toEqual(['daily', 'weekly', 'monthly', 'root']);
  });

  it('lets HIPO_LLM_* override the config, and HIPO_LLM_BASE_URL=off switch it off', () => {
    const env = { HIPO_LLM_BASE_URL: 'http://127.0.0.1:8080/v1', HIPO_LLM_MODEL: 'llama', HIPO_LLM_API_KEY: 'k-123' };
    expect(resolveLlmSettings(defaultConfig(), env).settings).toMatchObject({
      baseUrl: 'http://127.0.0.1:8080/v1',
      model: 'llama',
      apiKey: 'k-123',
    });
    expect(resolveLlmSettings(withLlm({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }), { HIPO_LLM_BASE_URL: 'off' }).settings).toBeNull();
  });

  it('takes the key only from HIPO_LLM_API_KEY or the variable llm.apiKeyEnv names, never OPENAI_API_KEY by default', () => {
    const cfg = withLlm({ baseUrl: 'https://api.example.com/v1', model: 'm' });
    expect(resolveLlmSettings(cfg, { OPENAI_API_KEY: 'sk-openai' }).settings!.apiKey).toBeNull();
    expect(
      resolveLlmSettings(withLlm({ baseUrl: 'https://api.example.com/v1', model: 'm', apiKeyEnv: 'OPENAI_API_KEY' }), {
        OPENAI_API_KEY: 'sk-openai',
      }).settings!.apiKey,
    ).toBe('sk-openai');
    const missing = resolveLlmSettings(withLlm({ baseUrl: 'https://api.example.com/v1', model: 'm', apiKeyEnv: 'MY_KEY' }), {});
    expect(missing.settings!.apiKey).toBeNull();
    expect(missing.warnings[0]).toMatch(/MY_KEY, which is not set/);
  });

  it('warns and stays off when only half of an endpoint is given', () => {
    expect(resolveLlmSettings(defaultConfig(), { HIPO_LLM_MODEL: 'llama' })).toMatchObject({
      settings: null,
      warnings: [expect.stringMatching(/no base URL/)],
    });
    expect(resolveLlmSettings(defaultConfig(), { HIPO_LLM_BASE_URL: 'http://127.0.0.1:1/v1' })).toMatchObject({
      settings: null,
      warnings: [expect.stringMatching(/no model/)],
    });
    expect(resolveLlmSettings(defaultConfig(), { HIPO_LLM_BASE_URL: 'localhost:1234', HIPO_LLM_MODEL: 'x' })).toMatchObject({
      settings: null,
      warnings: [expect.stringMatching(/not an http/)],
    });
  });
});

describe('the llm config section', () => {
  it('accepts free-form extraBody and names the file when a setting is wrong', () => {
    const ok = makeWorkspace(
      {},
      { timeZone: 'UTC', llm: { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', extraBody: { options: { num_ctx: 32768 } } } },
    );
    const loaded = loadConfig(ok.root);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.config.llm.extraBody).toEqual({ options: { num_ctx: 32768 } });
    const bad = makeWorkspace({}, { timeZone: 'UTC', llm: { levels: ['daily', 'yearly'] } });
    expect(() => loadConfig(bad.root)).toThrow(ConfigError);
    expect(() => loadConfig(bad.root)).toThrow(/hipo\.config\.json: "llm\.levels" may hold daily, weekly, monthly, root; got "yearly"/);
    const url = makeWorkspace({}, { timeZone: 'UTC', llm: { baseUrl: 'ftp://x' } });
    expect(() => loadConfig(url.root)).toThrow(/"llm\.baseUrl" must be an http\(s\) URL/);
  });
});
