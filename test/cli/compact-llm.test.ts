// `hipo compact` with a model, as a user runs it: the compiled CLI in a child process, the model
// a real server on 127.0.0.1, switched on by HIPO_LLM_* alone.
import { describe, expect, it } from 'vitest';
import { completion, echoSummary, startFakeLlm } from '../helpers/llm-server.js';
import { makeWorkspace, runCliAsync } from '../helpers/workspace.js';

const big = (date: string): string =>
  `# ${date}\n\n## Importer [project]\n${Array.from({ length: 240 }, (_, i) => `- step ${i}: moved table t${i} to parquet`).join('\n')}\n`;

describe('hipo compact with a model', () => {
  it('--dry-run lists the nodes that would call the model, with input tokens, and sends nothing', async () => {
    const llm = await startFakeLlm((req) => completion(echoSummary(req)));
    const ws = makeWorkspace({ 'memory/2026-03-15.md': big('2026-03-15'), 'memory/2026-03-14.md': '# 2026-03-14\n\n- short day\n' });
    const env = { HIPO_LLM_BASE_URL: llm.url, HIPO_LLM_MODEL: 'dry-model' };
    const text = await runCliAsync(['compact', '--dry-run', '--now', '2026-03-15', '--dir', ws.root], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/model dry-model at http:\/\/127\.0\.0\.1:\d+\/v1: 1 call this cycle, ~[\d,]+ tokens in/);
    expect(text.stdout).toMatch(/daily\/2026-03-15\.md\s+[\d,]+ tokens/);
    // The short day is copied, not summarized: no call for it.
    expect(text.stdout).not.toMatch(/daily\/2026-03-14\.md\s+[\d,]+ tokens/);
    const json = await runCliAsync(['compact', '--dry-run', '--json', '--now', '2026-03-15', '--dir', ws.root], { env });
    const parsed = JSON.parse(json.stdout) as { llm: { estimate: { calls: { node: string; tokensIn: number; cached: boolean }[] } } };
    const call = parsed.llm.estimate.calls.find((c) => c.node === 'daily/2026-03-15.md')!;
    expect(call.tokensIn).toBeGreaterThan(2000);
    expect(call.cached).toBe(false);
    expect(llm.requests).toHaveLength(0);
    expect(ws.files('memory')).toEqual(['memory/2026-03-14.md', 'memory/2026-03-15.md']);
  });

  it('summarizes through the model and reports calls and tokens', async () => {
    const llm = await startFakeLlm((req) => completion(echoSummary(req), { promptTokens: 5000, completionTokens: 300 }));
    const ws = makeWorkspace({ 'memory/2026-03-15.md': big('2026-03-15') });
    const r = await runCliAsync(['compact', '--now', '2026-03-15', '--dir', ws.root], {
      env: { HIPO_LLM_BASE_URL: llm.url, HIPO_LLM_MODEL: 'cli-model' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/create\s+daily\/2026-03-15\.md\s+→ tentative\s+summary \(llm:cli-model\)/);
    expect(r.stdout).toMatch(/model cli-model: 2 calls \(10,000 tokens in, 600 out\)/);
    expect(ws.read('memory/daily/2026-03-15.md')).toContain('summarizer: "llm:cli-model"');
  });

  it('status names the model, and the backoff after a failure', async () => {
    const llm = await startFakeLlm(() => ({ status: 503, json: { error: { message: 'overloaded' } } }));
    const ws = makeWorkspace({ 'memory/2026-03-15.md': big('2026-03-15') });
    const env = { HIPO_LLM_BASE_URL: llm.url, HIPO_LLM_MODEL: 'st-model' };
    const r = await runCliAsync(['compact', '--now', '2026-03-15', '--dir', ws.root], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning: memory\/daily\/2026-03-15\.md: llm: HTTP 503: overloaded/);
    expect(r.stdout).toMatch(/summary \(extractive\)/);
    const st = await runCliAsync(['status', '--now', '2026-03-15', '--dir', ws.root], { env });
    expect(st.stdout).toMatch(
      /model: st-model at http:\/\/127\.0\.0\.1:\d+\/v1 \(daily, weekly, monthly, root\); backing off until \S+: HTTP 503: overloaded/,
    );
    const off = await runCliAsync(['status', '--now', '2026-03-15', '--dir', ws.root], {
      env: { HIPO_LLM_BASE_URL: '', HIPO_LLM_MODEL: '' },
    });
    expect(off.stdout).toContain('model: none (extractive summaries; nothing leaves this machine)\n');
    ws.write('hipo.config.json', JSON.stringify({ timeZone: 'UTC', search: { expand: { enabled: true } } }));
    const expanding = await runCliAsync(['status', '--now', '2026-03-15', '--dir', ws.root], { env });
    expect(expanding.stdout).toMatch(/model: st-model at .*; it also expands search queries\n/);
    const noModel = await runCliAsync(['status', '--now', '2026-03-15', '--dir', ws.root], {
      env: { HIPO_LLM_BASE_URL: '', HIPO_LLM_MODEL: '' },
    });
    expect(noModel.stdout).toContain(
      'model: none (extractive summaries; nothing leaves this machine); search.expand.enabled is set but has no model to ask\n',
    );
  });

  it('--resummarize without a model is a usage error', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': big('2026-03-15') });
    const r = await runCliAsync(['compact', '--resummarize', '--now', '2026-03-15', '--dir', ws.root], {
      env: { HIPO_LLM_BASE_URL: '', HIPO_LLM_MODEL: '' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--resummarize needs a model: set llm\.baseUrl and llm\.model/);
    expect(ws.files('memory')).toEqual(['memory/2026-03-15.md']);
  });
});
