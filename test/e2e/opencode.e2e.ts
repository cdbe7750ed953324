// OpenCode end to end: `opencode run` in a project set up with `hipo init --platform opencode`
// (skills, the plugin .opencode/plugins/hipo.js, the MCP server in .opencode/opencode.json),
// talking to a fake Chat Completions server on 127.0.0.1 through OpenCode's openai-compatible
// provider, configured in the project's own opencode.json.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestText, systemText, toolResultsSince } from './fake-model/requests.js';
import { startFakeModel, type FakeModel } from './fake-model/server.js';
import { agentCli } from './harness/agents.js';
import {
  conversations,
  expectEachPromptOnce,
  expectNothingLeaked,
  FACT_MARK,
  hookReport,
  initWorkspace,
  journal,
  rawLog,
} from './harness/memory.js';
import { makeSandbox, tail, type RunResult, type Sandbox } from './harness/sandbox.js';
import {
  asks,
  expectRestored,
  keepRequests,
  hipoResults,
  hipoTool,
  noResultYet,
  plainReply,
  expectPromptMemory,
  PROMPTS,
  requestLog,
  RESTORE_MARK,
  TOOL_COMMAND,
  TOOL_OUTPUT,
  trees,
  type Trees,
} from './harness/scenario.js';

const cli = agentCli('opencode');
if (cli.reason) console.warn(`SKIPPED ${cli.label}: ${cli.reason}`);

/**
 * OpenCode's own state: its data, cache and config folders in HOME, and what it writes into
 * every config folder it loads, .opencode/ included (a package.json, a .gitignore and the
 * @opencode-ai/plugin dependency it installs for plugins).
 */
const OPENCODE_OWN = (p: string): boolean =>
  /^~\/\.(local|cache|config)(\/opencode)?(\/|$)/.test(p) ||
  /^~\/\.npm(\/|$)/.test(p) ||
  /^project\/\.opencode(\/(package\.json|package-lock\.json|bun\.lock|\.gitignore|node_modules(\/.*)?))?$/.test(p);

/** A session id in OpenCode's --format json events. */
function sessionOf(out: string): string {
  const m = /"sessionID"\s*:\s*"(ses_[A-Za-z0-9]+)"/.exec(out);
  return m ? m[1]! : '';
}

describe.skipIf(!!cli.reason)(`${cli.label}${cli.reason ? ` — skipped: ${cli.reason}` : ''}`, () => {
  let model: FakeModel;
  let sb: Sandbox;
  let session = '';
  let before: Trees;
  const env = (): NodeJS.ProcessEnv => ({
    // OpenCode's switches: no self-update, no models.dev catalogue, no language-server
    // downloads, no default plugins from npm. Its install of @opencode-ai/plugin for the config
    // folders goes to the fake server and fails at once (else it retries for a minute offline).
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_SHARE: '1',
    npm_config_registry: `${model.url}/npm/`,
  });
  const opencode = async (prompt: string): Promise<RunResult> => {
    const args = ['run', '--format', 'json', '--title', 'e2e', ...(session ? ['--session', session] : []), prompt];
    const r = await sb.run('opencode', args, { env: env(), timeoutMs: 180_000 });
    expect(r.code, `opencode run failed\n${tail(r)}\n--- model requests\n${requestLog(model)}`).toBe(0);
    session ||= sessionOf(r.stdout);
    expect(session, `no session id in opencode's json events\n${tail(r)}`).not.toBe('');
    return r;
  };

  beforeAll(async () => {
    model = await startFakeModel();
    model.script((req) => {
      const text = requestText(req);
      if (/context summarization agent/.test(systemText(req))) return { text: 'The user is tidying the kettle-firmware changelog.' };
      if (asks(req, PROMPTS.resumed) && noResultYet(req, PROMPTS.resumed))
        return {
          text: 'Running the check.',
          toolCalls: [{ name: 'bash', input: { command: TOOL_COMMAND, description: 'release check' } }],
        };
      // Automatic compaction: a reported context over the model's limit (64,000 here).
      if (asks(req, PROMPTS.compact) && !text.includes(RESTORE_MARK) && noResultYet(req, PROMPTS.compact)) {
        return {
          text: 'Starting on the changelog.',
          toolCalls: [{ name: 'bash', input: { command: TOOL_COMMAND, description: 'changelog' } }],
          inputTokens: 195_000,
        };
      }
      if (asks(req, PROMPTS.mcp)) {
        if (hipoResults(req).length || toolResultsSince(req, PROMPTS.mcp).length >= 2)
          return { text: 'Your dog is Biscuit, a golden retriever.' };
        const tool = hipoTool(req);
        if (tool) return { toolCalls: [{ name: tool, input: { query: 'dog golden retriever' } }] };
      }
      return plainReply(req);
    });
    sb = makeSandbox(cli);
    await initWorkspace(sb);
    writeFileSync(
      join(sb.project, 'opencode.json'),
      `${JSON.stringify(
        {
          $schema: 'https://opencode.ai/config.json',
          provider: {
            fake: {
              npm: '@ai-sdk/openai-compatible',
              name: 'Fake',
              options: { baseURL: `${model.url}/v1`, apiKey: 'e2e-fake-key' },
              models: { 'fake-model': { name: 'Fake model', tool_call: true, limit: { context: 64_000, output: 4_000 } } },
            },
          },
          model: 'fake/fake-model',
          small_model: 'fake/fake-model',
          autoupdate: false,
          share: 'disabled',
          permission: { bash: 'allow' },
        },
        null,
        2,
      )}\n`,
    );
    before = trees(sb);
    const r = await sb.hipo(['init', '--platform', 'opencode']);
    expect(r.code, tail(r)).toBe(0);
  });

  afterAll(async () => {
    keepRequests(sb, model);
    await model?.close();
    sb?.cleanup();
  });

  it('1. memory from earlier days reaches the model (the plugin adds it to the system prompt)', async () => {
    const from = model.requests.length;
    await opencode(PROMPTS.first);
    const main = model.requests.slice(from).filter((r) => asks(r, PROMPTS.first));
    expect(main.length, requestLog(model, from)).toBeGreaterThan(0);
    expect(systemText(main.at(-1)!), `yesterday's fact is not in the system prompt\n${hookReport(sb)}`).toContain(FACT_MARK);
  });

  it("2. turns land in today's raw log once, redacted, without thinking or tool output, across resumed sessions", async () => {
    await opencode(PROMPTS.resumed);
    await opencode(PROMPTS.third);
    expectEachPromptOnce(sb, [PROMPTS.first.slice(0, 40), PROMPTS.resumed.slice(0, 30), PROMPTS.third.slice(0, 30)]);
    const log = rawLog(sb);
    for (const k of ['anthropic-key', 'github-token', 'aws-access-key']) expect(log).toContain(`[REDACTED:${k}]`);
    expect(log, 'the tool call is archived by name and command').toContain(`- bash: ${TOOL_COMMAND}`);
    expect(conversations(log).length).toBeGreaterThanOrEqual(3);
    expectNothingLeaked(sb, [TOOL_OUTPUT]);
  });

  it('3. automatic compaction: the plugin archives before OpenCode compacts and restores after', async () => {
    const from = model.requests.length;
    await opencode(PROMPTS.compact);
    const pre = journal(sb).filter((j) => j.type === 'capture' && j.event === 'PreCompact' && j.session === session);
    expect(pre.length, `no PreCompact capture\n${hookReport(sb)}\n${requestLog(model, from)}`).toBeGreaterThan(0);
    const after = model.requests.slice(from).filter((r) => requestText(r).includes(RESTORE_MARK));
    expect(after.length, `no request after the compaction carries hipo's restore\n${requestLog(model, from)}`).toBeGreaterThan(0);
    expect(requestText(after[0]!)).toContain('kettle-firmware');
    expectEachPromptOnce(sb, [PROMPTS.compact]);
  });

  it("4. the model calls hipo's MCP search tool and gets a real result in its next request", async () => {
    const from = model.requests.length;
    await opencode(PROMPTS.mcp);
    const reqs = model.requests.slice(from);
    expect(
      reqs.some((r) => hipoTool(r) === 'hipo_search'),
      `hipo's search tool was never offered\n${requestLog(model, from)}`,
    ).toBe(true);
    const got = reqs.flatMap(hipoResults);
    expect(got.length, `no hipo result came back to the model\n${requestLog(model, from)}`).toBeGreaterThan(0);
    expect(got[0]).toContain(`${sb.yesterday}.md`);
  });

  it('4b. a prompt gets what memory holds about it (the plugin adds it to the system prompt)', async () => {
    const from = model.requests.length;
    await opencode(PROMPTS.recall);
    const main = model.requests.slice(from).filter((r) => asks(r, PROMPTS.recall));
    expect(main.length, requestLog(model, from)).toBeGreaterThan(0);
    expectPromptMemory(systemText(main.at(-1)!), hookReport(sb));
  });

  it('5. hipo uninstall leaves the project and HOME as they were', async () => {
    const r = await sb.hipo(['uninstall']);
    expect(r.code, tail(r)).toBe(0);
    expectRestored(before, trees(sb), OPENCODE_OWN, "OpenCode's own state in HOME and the files it adds to .opencode/ aside");
  });
});
