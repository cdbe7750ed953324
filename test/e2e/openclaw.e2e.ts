// OpenClaw end to end: its Gateway on 127.0.0.1 and `openclaw agent` runs through it, in a
// workspace (the project) set up with `hipo init --platform openclaw` and the commands init
// prints (enable the bootstrap hook, load the capture plugin, add the MCP server), talking to a
// fake Chat Completions server on 127.0.0.1 (a custom provider, api "openai-completions").
import { createServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestText, toolNames, toolResultsSince } from './fake-model/requests.js';
import { startFakeModel, type FakeModel } from './fake-model/server.js';
import { agentCli } from './harness/agents.js';
import { expectEachPromptOnce, expectNothingLeaked, FACT_MARK, hookReport, initWorkspace, journal, rawLog } from './harness/memory.js';
import { makeSandbox, tail, type Background, type RunResult, type Sandbox } from './harness/sandbox.js';
import {
  asks,
  expectRestored,
  hipoResults,
  keepRequests,
  noResultYet,
  plainReply,
  PROMPTS,
  requestLog,
  RESTORE_MARK,
  TOOL_COMMAND,
  TOOL_OUTPUT,
  trees,
  type Trees,
} from './harness/scenario.js';

const cli = agentCli('openclaw');
if (cli.reason) console.warn(`SKIPPED ${cli.label}: ${cli.reason}`);

/**
 * OpenClaw's own state: ~/.openclaw (config, databases, logs), its caches (~/.cache/openclaw*),
 * the npm log its plugin installer leaves (~/.npm/_logs) and the bootstrap files it creates in its
 * workspace on first run (AGENTS.md, SOUL.md, USER.md, IDENTITY.md, …).
 */
const OPENCLAW_OWN = (p: string): boolean =>
  /^~\/\.openclaw(\/|$)/.test(p) ||
  /^~\/\.cache(\/openclaw[^/]*(\/|$)|$)/.test(p) ||
  /^~\/\.npm(\/_logs(\/|$)|$)/.test(p) ||
  /^project\/[A-Z_]+\.md$/.test(p) ||
  /^project\/\.openclaw(\/|$)/.test(p);

const SESSION = 'e2e-1';
const HIPO_SESSION = `agent-main-explicit-${SESSION}`;

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

describe.skipIf(!!cli.reason)(`${cli.label}${cli.reason ? ` — skipped: ${cli.reason}` : ''}`, () => {
  let model: FakeModel;
  let sb: Sandbox;
  let gateway: Background | null = null;
  let before: Trees;
  let notes = '';
  const env: NodeJS.ProcessEnv = { OPENCLAW_NO_AUTO_UPDATE: '1' };
  const openclaw = async (args: string[]): Promise<RunResult> => {
    const r = await sb.run('openclaw', args, { env, timeoutMs: 180_000 });
    expect(
      r.code,
      `openclaw ${args.join(' ')} failed\n${tail(r)}\n--- gateway\n${gateway?.output().slice(-2000) ?? ''}\n--- model requests\n${requestLog(model)}`,
    ).toBe(0);
    return r;
  };
  const agent = (prompt: string): Promise<RunResult> =>
    openclaw(['agent', '--agent', 'main', '--session-id', SESSION, '--json', '-m', prompt]);
  /** Runs one of the commands init printed, as the user would paste it. */
  const noted = async (pattern: RegExp): Promise<void> => {
    const m = pattern.exec(notes);
    expect(m, `init does not print ${pattern}\n${notes}`).not.toBeNull();
    const r = await sb.run('sh', ['-c', m![1]!], { env, timeoutMs: 120_000 });
    expect(r.code, `${m![1]}\n${tail(r)}`).toBe(0);
  };

  beforeAll(async () => {
    model = await startFakeModel();
    let overflowed = false;
    model.script((req) => {
      const text = requestText(req);
      if (!toolNames(req).length && /summar/i.test(text)) return { text: 'The user is tidying the kettle-firmware changelog.' };
      if (asks(req, PROMPTS.resumed) && noResultYet(req, PROMPTS.resumed))
        return { text: 'Running the check.', toolCalls: [{ name: 'exec', input: { command: TOOL_COMMAND } }] };
      if (asks(req, PROMPTS.compact) && !text.includes(RESTORE_MARK)) {
        // The context overflows at the run's first request: OpenClaw compacts the session and
        // retries (it does not retry a run whose tool calls already ran).
        if (!overflowed) {
          overflowed = true;
          return {
            error: {
              status: 400,
              body: {
                error: {
                  message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 195000 tokens.",
                  type: 'invalid_request_error',
                  code: 'context_length_exceeded',
                },
              },
            },
          };
        }
        if (noResultYet(req, PROMPTS.compact))
          return { text: 'Starting on the changelog.', toolCalls: [{ name: 'exec', input: { command: TOOL_COMMAND } }] };
      }
      if (asks(req, PROMPTS.mcp)) {
        const since = toolResultsSince(req, PROMPTS.mcp);
        if (hipoResults(req).length || since.length >= 3) return { text: 'Your dog is Biscuit, a golden retriever.' };
        // OpenClaw offers most tools, MCP ones included, through its Tool Search.
        const found = /"(?:id|name)"\s*:\s*"([^"]*hipo[^"]*search[^"]*)"/.exec(since.join('\n'));
        if (found) return { toolCalls: [{ name: 'tool_call', input: { id: found[1], args: { query: 'dog golden retriever' } } }] };
        if (toolNames(req).includes('tool_search')) return { toolCalls: [{ name: 'tool_search', input: { query: 'hipo memory search' } }] };
      }
      return plainReply(req);
    });
    sb = makeSandbox(cli);
    await initWorkspace(sb);
    const port = await freePort();
    mkdirSync(join(sb.home, '.openclaw'));
    writeFileSync(
      join(sb.home, '.openclaw', 'openclaw.json'),
      `${JSON.stringify(
        {
          agents: {
            defaults: {
              workspace: sb.project,
              model: { primary: 'fake/fake-model' },
              heartbeat: { every: '0m' },
              compaction: { keepRecentTokens: 50 },
            },
          },
          models: {
            providers: {
              fake: {
                baseUrl: `${model.url}/v1`,
                apiKey: 'e2e-fake-key',
                api: 'openai-completions',
                models: [{ id: 'fake-model', name: 'Fake', reasoning: false, input: ['text'], contextWindow: 128_000, maxTokens: 8_192 }],
              },
            },
          },
          gateway: { mode: 'local', port, bind: 'loopback', auth: { mode: 'none' } },
          update: { checkOnStart: false },
        },
        null,
        2,
      )}\n`,
    );
    before = trees(sb);
    const r = await sb.hipo(['init', '--platform', 'openclaw']);
    expect(r.code, tail(r)).toBe(0);
    notes = r.stdout;
    await noted(/with: (openclaw hooks enable hipo-memory)$/m);
    await noted(/with: (openclaw plugins install .+)$/m);
    await noted(/MCP server \(optional\): (openclaw mcp set .+)$/m);
    gateway = sb.start('openclaw', ['gateway', 'run'], { env });
    await gateway.waitFor(/\[gateway\]\s+ready/, 120_000);
  });

  afterAll(async () => {
    keepRequests(sb, model);
    await gateway?.stop();
    await model?.close();
    sb?.cleanup();
  });

  it('1. memory from earlier days reaches the model at session start (agent:bootstrap hook)', async () => {
    const from = model.requests.length;
    await agent(PROMPTS.first);
    const main = model.requests.slice(from).filter((r) => asks(r, PROMPTS.first));
    expect(main.length, requestLog(model, from)).toBeGreaterThan(0);
    expect(requestText(main[0]!), `yesterday's fact is not in the request\n${hookReport(sb)}`).toContain(FACT_MARK);
  });

  it("2. turns land in today's raw log once, redacted, without thinking or tool output, across resumed sessions", async () => {
    await agent(PROMPTS.resumed);
    await agent(PROMPTS.third);
    expectEachPromptOnce(sb, [PROMPTS.first.slice(0, 40), PROMPTS.resumed.slice(0, 30), PROMPTS.third.slice(0, 30)]);
    const log = rawLog(sb);
    for (const k of ['anthropic-key', 'github-token', 'aws-access-key']) expect(log).toContain(`[REDACTED:${k}]`);
    expect(log, `the tool call is archived by name and command\n${log}`).toContain(`- exec: ${TOOL_COMMAND}`);
    expectNothingLeaked(sb, [TOOL_OUTPUT]);
  });

  it('3. compaction: the plugin archives before OpenClaw compacts and restores the session after', async () => {
    const from = model.requests.length;
    await agent(PROMPTS.compact);
    await agent('And after the compaction?');
    const pre = journal(sb).filter((j) => j.type === 'capture' && j.event === 'PreCompact' && j.session === HIPO_SESSION);
    expect(pre.length, `no PreCompact capture\n${hookReport(sb)}\n${requestLog(model, from)}`).toBeGreaterThan(0);
    const after = model.requests.slice(from).filter((r) => requestText(r).includes(RESTORE_MARK));
    expect(after.length, `no request after the compaction carries hipo's restore\n${requestLog(model, from)}`).toBeGreaterThan(0);
    expect(requestText(after[0]!)).toContain('kettle-firmware');
    expectEachPromptOnce(sb, [PROMPTS.compact]);
  });

  it("4. the model calls hipo's MCP search tool and gets a real result in its next request", async () => {
    const from = model.requests.length;
    await agent(PROMPTS.mcp);
    const reqs = model.requests.slice(from);
    const offered = reqs.some((r) => toolResultsSince(r, PROMPTS.mcp).some((t) => /hipo/.test(t) && /search/.test(t)));
    expect(offered, `Tool Search never offered hipo's search tool\n${requestLog(model, from)}`).toBe(true);
    const got = reqs.flatMap(hipoResults);
    expect(got.length, `no hipo result came back to the model\n${requestLog(model, from)}`).toBeGreaterThan(0);
    expect(got[0]).toContain(`${sb.yesterday}.md`);
  });

  it('5. hipo uninstall leaves the project and HOME as they were', async () => {
    await gateway?.stop();
    gateway = null;
    const r = await sb.hipo(['uninstall']);
    expect(r.code, tail(r)).toBe(0);
    expect(r.stdout).toContain('openclaw plugins uninstall hipo');
    expectRestored(
      before,
      trees(sb),
      OPENCLAW_OWN,
      "OpenClaw's own state in ~/.openclaw and the bootstrap files it writes into its workspace aside",
    );
  });
});
