// Claude Code end to end: `claude -p` in a project set up with `hipo init --platform
// claude-code` (local scope: hooks in .claude/settings.local.json, the MCP server registered
// with `claude mcp add`), talking to a fake Anthropic Messages server on 127.0.0.1.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestText, toolNames, toolResultsSince, userText } from './fake-model/requests.js';
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
  noResultYet,
  hipoResults,
  hipoTool,
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

const cli = agentCli('claude-code');
if (cli.reason) console.warn(`SKIPPED ${cli.label}: ${cli.reason}`);

/** Claude Code's own state in HOME: its settings file, backups of it, sessions, caches. */
const CLAUDE_OWN = (p: string): boolean =>
  (/^~\/\.claude(\.json|\/|$)/.test(p) && !/^~\/\.claude\/(skills|settings\.json|hipo-install\.json)/.test(p)) ||
  /^~\/\.cache(\/claude-cli-nodejs|$)/.test(p);

describe.skipIf(!!cli.reason)(`${cli.label}${cli.reason ? ` — skipped: ${cli.reason}` : ''}`, () => {
  let model: FakeModel;
  let sb: Sandbox;
  let session = '';
  let before: Trees;
  const env = (): NodeJS.ProcessEnv => ({
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'e2e-fake-key',
    // Claude Code's documented switches: no telemetry, error reports, update checks or other
    // traffic beyond the model API (which is the fake server).
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  const claude = async (prompt: string, extra: string[] = [], more: NodeJS.ProcessEnv = {}): Promise<RunResult> => {
    const args = [
      '-p',
      prompt,
      '--output-format',
      'json',
      '--model',
      'claude-sonnet-4-5',
      ...(session ? ['--resume', session] : []),
      ...extra,
    ];
    const r = await sb.run('claude', args, { env: { ...env(), ...more }, timeoutMs: 120_000 });
    expect(r.code, `claude -p failed\n${tail(r)}\n--- model requests\n${requestLog(model)}`).toBe(0);
    const out = JSON.parse(r.stdout) as { session_id: string; is_error?: boolean; result?: string };
    session = out.session_id;
    return r;
  };

  beforeAll(async () => {
    model = await startFakeModel();
    model.script((req) => {
      const text = requestText(req);
      if (/create a detailed summary of the conversation/.test(userText(req)))
        return { text: '<analysis>Short.</analysis>\n<summary>The user is preparing the kettle-firmware release.</summary>' };
      if (asks(req, PROMPTS.resumed) && noResultYet(req, PROMPTS.resumed))
        return {
          text: 'Running the check.',
          toolCalls: [{ name: 'Bash', input: { command: TOOL_COMMAND, description: 'release check' } }],
        };
      // Automatic compaction: the first answer reports a context nearly full, so Claude Code
      // compacts before its next request; after that the restore is in the conversation.
      if (asks(req, PROMPTS.compact) && !text.includes(RESTORE_MARK) && noResultYet(req, PROMPTS.compact)) {
        return {
          text: 'Starting on the changelog.',
          toolCalls: [{ name: 'Bash', input: { command: TOOL_COMMAND, description: 'changelog' } }],
          inputTokens: 195_000,
        };
      }
      if (asks(req, PROMPTS.mcp)) {
        if (hipoResults(req).length || toolResultsSince(req, PROMPTS.mcp).length >= 3)
          return { text: 'Your dog is Biscuit, a golden retriever.' };
        const tool = hipoTool(req);
        if (tool) return { toolCalls: [{ name: tool, input: { query: 'dog golden retriever' } }] };
        // MCP tools start deferred: load the schema the way the model is told to.
        if (toolNames(req).includes('ToolSearch'))
          return { toolCalls: [{ name: 'ToolSearch', input: { query: 'select:mcp__hipo__search' } }] };
      }
      return plainReply(req);
    });
    sb = makeSandbox(cli);
    await initWorkspace(sb);
    // A settings file of the user's own: hipo merges into it, and uninstall must give it back byte for byte.
    mkdirSync(join(sb.project, '.claude'));
    writeFileSync(join(sb.project, '.claude', 'settings.local.json'), '{\n  "permissions": { "allow": ["Bash(ls:*)"] }\n}\n');
    before = trees(sb);
    const r = await sb.hipo(['init', '--platform', 'claude-code']);
    expect(r.code, tail(r)).toBe(0);
    expect(r.stdout).toContain('registered the MCP server "hipo" (local scope)');
  });

  afterAll(async () => {
    keepRequests(sb, model);
    await model?.close();
    sb?.cleanup();
  });

  it('1. memory from earlier days reaches the model at session start (SessionStart hook)', async () => {
    const from = model.requests.length;
    await claude(PROMPTS.first);
    const main = model.requests.slice(from).filter((r) => asks(r, PROMPTS.first));
    expect(main.length, requestLog(model, from)).toBeGreaterThan(0);
    const text = requestText(main[0]!);
    expect(text, `yesterday's fact is not in the request\n${hookReport(sb)}`).toContain(FACT_MARK);
    expect(text).toContain('SessionStart hook additional context: # Memory context');
  });

  it("2. turns land in today's raw log once, redacted, without thinking or tool output, across resumed sessions", async () => {
    await claude(PROMPTS.resumed, ['--allowedTools', 'Bash(printf:*)']);
    await claude(PROMPTS.third);
    expectEachPromptOnce(sb, [PROMPTS.first.slice(0, 40), PROMPTS.resumed.slice(0, 30), PROMPTS.third.slice(0, 30)]);
    const log = rawLog(sb);
    expect(log).toContain('[REDACTED:anthropic-key]');
    expect(log).toContain('[REDACTED:github-token]');
    expect(log).toContain('[REDACTED:aws-access-key]');
    expect(log, 'the tool call is archived by name and command').toContain(`- Bash: ${TOOL_COMMAND}`);
    expect(
      conversations(log).every((c) => c.includes(`session ${session.slice(0, 8)}`)),
      log,
    ).toBe(true);
    expectNothingLeaked(sb, [TOOL_OUTPUT]);
  });

  it('3. automatic compaction: PreCompact archives the unfinished turn, SessionStart(compact) restores it', async () => {
    const from = model.requests.length;
    await claude(PROMPTS.compact, ['--allowedTools', 'Bash(printf:*)'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' });
    const pre = journal(sb).filter((j) => j.type === 'capture' && j.event === 'PreCompact' && j.session === session);
    expect(pre.length, `no PreCompact capture\n${hookReport(sb)}`).toBeGreaterThan(0);
    expect(pre[0]!.trigger).toBe('auto');
    expect(pre[0]!.turns).toBeGreaterThan(0);
    const after = model.requests.slice(from).filter((r) => requestText(r).includes(RESTORE_MARK));
    expect(after.length, `no request after the compaction carries hipo's restore\n${requestLog(model, from)}`).toBeGreaterThan(0);
    // The restore carries the turn the compaction interrupted, read back from the raw log.
    expect(requestText(after[0]!)).toContain('kettle-firmware');
    expectEachPromptOnce(sb, [PROMPTS.compact]);
    expect(rawLog(sb), 'the rest of the interrupted turn is appended as its continuation').toMatch(/## Conversation .*, continued/);
  });

  it("4. the model calls hipo's MCP search tool and gets a real result in its next request", async () => {
    const from = model.requests.length;
    await claude(PROMPTS.mcp, ['--allowedTools', 'mcp__hipo__search']);
    const reqs = model.requests.slice(from);
    expect(
      reqs.some((r) => hipoTool(r) === 'mcp__hipo__search'),
      `mcp__hipo__search was never offered\n${requestLog(model, from)}`,
    ).toBe(true);
    const got = reqs.flatMap(hipoResults);
    expect(got.length, `no hipo result came back to the model\n${requestLog(model, from)}`).toBeGreaterThan(0);
    expect(got[0]).toContain(`${sb.yesterday}.md`);
  });

  it('4b. a prompt gets what memory holds about it (UserPromptSubmit hook, on the index test 4 built)', async () => {
    const from = model.requests.length;
    await claude(PROMPTS.recall);
    const main = model.requests.slice(from).filter((r) => asks(r, PROMPTS.recall));
    expect(main.length, requestLog(model, from)).toBeGreaterThan(0);
    expectPromptMemory(requestText(main[0]!), hookReport(sb));
  });

  it('5. hipo uninstall leaves the project and HOME as they were', async () => {
    const r = await sb.hipo(['uninstall']);
    expect(r.code, tail(r)).toBe(0);
    expect(r.stdout).toContain('removed the MCP server "hipo" (local scope)');
    expectRestored(before, trees(sb), CLAUDE_OWN, "Claude Code's own state in ~/.claude.json and ~/.claude/ aside");
    const state = JSON.parse(readFileSync(join(sb.home, '.claude.json'), 'utf8')) as {
      projects?: Record<string, { mcpServers?: Record<string, unknown> }>;
    };
    expect(Object.keys(state.projects?.[sb.project]?.mcpServers ?? {}), 'hipo is still registered in ~/.claude.json').not.toContain('hipo');
  });
});
