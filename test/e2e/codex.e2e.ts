// Codex end to end: `codex exec` in a project set up with `hipo init --platform codex` (hooks in
// .codex/hooks.json, skills in .agents/skills/, the MCP server added with the `codex mcp add`
// command init prints), talking to a fake OpenAI Responses server on 127.0.0.1. Codex runs a
// project's hooks only once the user trusts them (/hooks in its TUI); the suite passes Codex's
// own switch for automation, --dangerously-bypass-hook-trust.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestText, toolResultsSince, userText } from './fake-model/requests.js';
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

const cli = agentCli('codex');
if (cli.reason) console.warn(`SKIPPED ${cli.label}: ${cli.reason}`);

/** Codex's own state in HOME: sessions, databases, logs, its config (checked for hipo apart). */
const CODEX_OWN = (p: string): boolean => /^~\/\.codex(\/|$)/.test(p) && !/^~\/\.codex\/(hooks\.json|hipo-install\.json)$/.test(p);

describe.skipIf(!!cli.reason)(`${cli.label}${cli.reason ? ` — skipped: ${cli.reason}` : ''}`, () => {
  let model: FakeModel;
  let sb: Sandbox;
  let session = '';
  let before: Trees;
  let config = '';
  const codex = async (prompt: string, extra: string[] = []): Promise<RunResult> => {
    const flags = [
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-hook-trust',
      '--dangerously-bypass-approvals-and-sandbox',
      ...extra,
    ];
    const args = session ? ['exec', ...flags, 'resume', session, prompt] : ['exec', ...flags, prompt];
    const r = await sb.run('codex', args, { env: { FAKE_MODEL_KEY: 'e2e-fake-key' }, timeoutMs: 120_000 });
    expect(r.code, `codex exec failed\n${tail(r)}\n--- model requests\n${requestLog(model)}`).toBe(0);
    const started = r.stdout
      .split('\n')
      .map((l) => (l.startsWith('{') ? (JSON.parse(l) as { type?: string; thread_id?: string }) : {}))
      .find((e) => e.type === 'thread.started');
    session ||= started?.thread_id ?? '';
    expect(session, `no thread id in codex's --json events\n${tail(r)}`).not.toBe('');
    return r;
  };

  beforeAll(async () => {
    model = await startFakeModel();
    model.script((req) => {
      const text = requestText(req);
      if (/CONTEXT CHECKPOINT COMPACTION/.test(userText(req))) return { text: 'The user is tidying the kettle-firmware changelog.' };
      if (asks(req, PROMPTS.resumed) && noResultYet(req, PROMPTS.resumed))
        return { text: 'Running the check.', toolCalls: [{ name: 'exec_command', input: { cmd: TOOL_COMMAND } }] };
      // Automatic compaction: a reported context over model_auto_compact_token_limit.
      if (asks(req, PROMPTS.compact) && !text.includes(RESTORE_MARK) && noResultYet(req, PROMPTS.compact)) {
        return {
          text: 'Starting on the changelog.',
          toolCalls: [{ name: 'exec_command', input: { cmd: TOOL_COMMAND } }],
          inputTokens: 195_000,
        };
      }
      if (asks(req, PROMPTS.mcp)) {
        if (hipoResults(req).length || toolResultsSince(req, PROMPTS.mcp).length >= 2)
          return { text: 'Your dog is Biscuit, a golden retriever.' };
        // Codex offers an MCP server's tools as a Responses namespace, mcp__hipo.
        const tool = hipoTool(req);
        if (tool) return { toolCalls: [{ namespace: 'mcp__hipo', name: 'search', input: { query: 'dog golden retriever' } }] };
      }
      return plainReply(req);
    });
    sb = makeSandbox(cli);
    mkdirSync(join(sb.home, '.codex'));
    config = [
      'model = "gpt-5"',
      'model_provider = "fake"',
      'check_for_update_on_startup = false',
      'model_auto_compact_token_limit = 50000',
      '[analytics]',
      'enabled = false',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${model.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_MODEL_KEY"',
      `[projects."${sb.project}"]`,
      'trust_level = "trusted"',
      '',
    ].join('\n');
    writeFileSync(join(sb.home, '.codex', 'config.toml'), config);
    await initWorkspace(sb);
    before = trees(sb);
    const r = await sb.hipo(['init', '--platform', 'codex']);
    expect(r.code, tail(r)).toBe(0);
    // The MCP server, registered the way init tells the user to.
    const add = /codex mcp add hipo -- (.+)$/m.exec(r.stdout);
    expect(add, `init does not say how to add the MCP server\n${r.stdout}`).not.toBeNull();
    const m = await sb.run('codex', ['mcp', 'add', 'hipo', '--', ...add![1]!.trim().split(' ')]);
    expect(m.code, tail(m)).toBe(0);
  });

  afterAll(async () => {
    keepRequests(sb, model);
    await model?.close();
    sb?.cleanup();
  });

  it('1. memory from earlier days reaches the model at session start (SessionStart hook)', async () => {
    const from = model.requests.length;
    await codex(PROMPTS.first);
    const main = model.requests.slice(from).filter((r) => asks(r, PROMPTS.first));
    expect(main.length, requestLog(model, from)).toBeGreaterThan(0);
    expect(requestText(main[0]!), `yesterday's fact is not in the request\n${hookReport(sb)}`).toContain(FACT_MARK);
  });

  it("2. turns land in today's raw log once, redacted, without thinking or tool output, across resumed sessions", async () => {
    await codex(PROMPTS.resumed);
    await codex(PROMPTS.third);
    expectEachPromptOnce(sb, [PROMPTS.first.slice(0, 40), PROMPTS.resumed.slice(0, 30), PROMPTS.third.slice(0, 30)]);
    const log = rawLog(sb);
    for (const k of ['anthropic-key', 'github-token', 'aws-access-key']) expect(log).toContain(`[REDACTED:${k}]`);
    expect(log, 'the tool call is archived by name and command').toContain(`- exec_command: ${TOOL_COMMAND}`);
    expect(
      conversations(log).every((c) => c.includes(`session ${session.replace(/[^0-9a-f]/g, '').slice(0, 8)}`)),
      log,
    ).toBe(true);
    expectNothingLeaked(sb, [TOOL_OUTPUT]);
  });

  it('3. automatic compaction: PreCompact archives the unfinished turn, SessionStart(compact) restores it', async () => {
    const from = model.requests.length;
    await codex(PROMPTS.compact);
    const pre = journal(sb).filter((j) => j.type === 'capture' && j.event === 'PreCompact' && j.session === session);
    expect(pre.length, `no PreCompact capture\n${hookReport(sb)}`).toBeGreaterThan(0);
    expect(pre[0]!.trigger).toBe('auto');
    const after = model.requests.slice(from).filter((r) => requestText(r).includes(RESTORE_MARK));
    expect(after.length, `no request after the compaction carries hipo's restore\n${requestLog(model, from)}`).toBeGreaterThan(0);
    expect(requestText(after[0]!)).toContain('kettle-firmware');
    expectEachPromptOnce(sb, [PROMPTS.compact]);
    expect(rawLog(sb), "the model's compaction summary is not archived as a reply").not.toContain(
      'The user is tidying the kettle-firmware changelog.',
    );
  });

  it("4. the model calls hipo's MCP search tool and gets a real result in its next request", async () => {
    const from = model.requests.length;
    await codex(PROMPTS.mcp);
    const reqs = model.requests.slice(from);
    expect(
      reqs.some((r) => hipoTool(r) === 'mcp__hipo__search'),
      `hipo's search tool was never offered\n${requestLog(model, from)}`,
    ).toBe(true);
    const got = reqs.flatMap(hipoResults);
    expect(got.length, `no hipo result came back to the model\n${requestLog(model, from)}`).toBeGreaterThan(0);
    expect(got[0]).toContain(`${sb.yesterday}.md`);
  });

  it('4b. a prompt gets what memory holds about it (UserPromptSubmit hook, on the index test 4 built)', async () => {
    const from = model.requests.length;
    await codex(PROMPTS.recall);
    const main = model.requests.slice(from).filter((r) => asks(r, PROMPTS.recall));
    expect(main.length, requestLog(model, from)).toBeGreaterThan(0);
    expectPromptMemory(requestText(main[0]!), hookReport(sb));
  });

  it('5. hipo uninstall (and codex mcp remove, as init said) leave the project and HOME as they were', async () => {
    const r = await sb.hipo(['uninstall']);
    expect(r.code, tail(r)).toBe(0);
    const m = await sb.run('codex', ['mcp', 'remove', 'hipo']);
    expect(m.code, tail(m)).toBe(0);
    expectRestored(before, trees(sb), CODEX_OWN, "Codex's own state under ~/.codex aside");
    expect(readFileSync(join(sb.home, '.codex', 'config.toml'), 'utf8').trim(), 'the user config is back as it was').toBe(config.trim());
  });
});
