// `hipo init --platform` and `hipo uninstall`: idempotent install, other settings untouched, no
// project path in anything installed, an exact round trip, and uninstall from what is installed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv } from '../helpers/agent-env.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const SKILLS = ['hipo-checkpoint', 'hipo-compaction', 'hipo-recall', 'hipo-session-start'];
const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd'];

/** Hashes of everything except hipo's own data and state. */
function userFiles(ws: TestWorkspace): Record<string, string> {
  return Object.fromEntries(Object.entries(ws.hashes()).filter(([f]) => !/^(memory\/|\.hipo\/|hipo\.config\.json$)/.test(f)));
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const abs = join(d, n);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.push(relative(dir, abs));
    }
  };
  try {
    walk(dir);
  } catch {
    /* none */
  }
  return out.sort();
}

/** Runs an installed hook command the way Claude Code does: through a shell, JSON on stdin. */
function runHook(command: string, input: object, env: NodeJS.ProcessEnv, cwd = '/'): { status: number | null; stdout: string } {
  const r = spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(input), encoding: 'utf8', env: { ...process.env, ...env }, cwd });
  return { status: r.status, stdout: r.stdout };
}

const EXISTING_SETTINGS = `{
    "permissions": {
        "allow": ["Bash(npm test:*)"]
    },
    "hooks": {
        "PreCompact": [
            { "matcher": "auto", "hooks": [ { "type": "command", "command": "./scripts/backup.sh" } ] }
        ],
        "PostToolUse": [
            { "matcher": "Edit", "hooks": [ { "type": "command", "command": "npx prettier --write" } ] }
        ]
    }
}
`;

describe('hipo init --platform claude-code (local scope) / hipo uninstall', () => {
  it('merges hooks beside existing ones, registers the MCP server, puts no project path anywhere, and uninstalls byte for byte', () => {
    const a = agentEnv({ claude: true });
    const ws = makeWorkspace({
      '.claude/settings.local.json': EXISTING_SETTINGS,
      '.claude/settings.json': '{"model": "sonnet"}\n',
      'CLAUDE.md': '# Project rules\n',
      'src/app/index.ts': 'export {};\n',
    });
    const before = userFiles(ws);
    const r = runCli(['init', ws.root, '--platform', 'claude-code'], { env: a.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('platform claude-code (local scope)');
    expect(r.stdout).toContain('merged   .claude/settings.local.json');
    expect(r.stdout).toContain('registered the MCP server "hipo" (local scope)');

    const settings = JSON.parse(ws.read('.claude/settings.local.json'));
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test:*)'] });
    expect(settings.hooks.PostToolUse).toEqual([{ matcher: 'Edit', hooks: [{ type: 'command', command: 'npx prettier --write' }] }]);
    expect(settings.hooks.PreCompact).toHaveLength(2);
    expect(settings.hooks.PreCompact[0].hooks[0].command).toBe('./scripts/backup.sh');
    for (const event of EVENTS) {
      const ours = settings.hooks[event].at(-1).hooks[0];
      expect(ours.type).toBe('command');
      expect(ours.command).toMatch(new RegExp(` hook ${event}$`));
    }
    expect(settings.hooks.SessionStart.at(-1).matcher).toBe('startup|resume|clear|compact');
    for (const s of SKILLS) {
      const skill = ws.read(`.claude/skills/${s}/SKILL.md`);
      expect(skill).toMatch(
        new RegExp(
          `^---\\nname: ${s}\\ndescription: .+\\nallowed-tools: Bash\\(.+ (log|status|recall|context):\\*\\).*\\nmetadata:\\n  generator: hipo\\n---\\n`,
        ),
      );
      expect(skill).not.toContain('{{');
    }
    // Nothing installed names the project: moving or cloning it keeps the hooks working.
    for (const f of Object.keys(userFiles(ws))) expect(ws.read(f)).not.toContain(ws.root);
    expect(ws.exists('.claude/hipo-install.json')).toBe(true);
    expect(ws.read('.claude/settings.json')).toBe('{"model": "sonnet"}\n');
    expect(a.claudeCalls()).toEqual([
      {
        args: ['mcp', 'add', '--scope', 'local', 'hipo', '--', process.execPath, expect.stringMatching(/dist\/cli\.js$/), 'mcp'],
        cwd: ws.root,
      },
    ]);

    // The installed hook finds the workspace from the session's folder, a subfolder here.
    const start = settings.hooks.SessionStart.at(-1).hooks[0].command as string;
    const out = runHook(start, { session_id: 's1', source: 'startup', cwd: join(ws.root, 'src', 'app') }, a.env);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(runHook(start, { session_id: 's1', source: 'startup', cwd: '/' }, a.env).stdout).toBe(''); // no workspace there: nothing

    const afterFirst = userFiles(ws);
    const again = runCli(['init', ws.root, '--platform', 'claude-code'], { env: a.env });
    expect(again.code).toBe(0);
    expect(userFiles(ws)).toEqual(afterFirst);
    expect(a.claudeCalls()).toHaveLength(1); // registered once

    const u = runCli(['uninstall', ws.root], { env: a.env });
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('restored  .claude/settings.local.json');
    expect(u.stdout).toContain('removed the MCP server "hipo" (local scope)');
    expect(userFiles(ws)).toEqual(before);
    expect(ws.exists('.claude/skills')).toBe(false);
    expect(a.claudeServers()).toEqual({});
    expect(ws.exists('memory')).toBe(true);
    expect(runCli(['uninstall', ws.root], { env: a.env }).stdout).toContain("nothing of hipo's installed");
  });

  it("uninstalls after .hipo/ is deleted, and from hipo's entries alone when its record is gone too", () => {
    const a = agentEnv();
    const ws = makeWorkspace();
    const r = runCli(['init', ws.root, '--platform', 'claude-code'], { env: a.env });
    expect(r.stdout).toContain('note: claude is not on PATH: register the MCP server with: claude mcp add --scope local hipo -- ');
    rmSync(join(ws.root, '.hipo'), { recursive: true, force: true });
    const u = runCli(['uninstall'], { env: a.env, cwd: join(ws.root, 'memory') }); // found upward
    expect(u.stdout).toContain('removed   .claude/skills/hipo-recall/SKILL.md');
    expect(filesUnder(join(ws.root, '.claude'))).toEqual([]);

    runCli(['init', ws.root, '--platform', 'claude-code'], { env: a.env });
    rmSync(join(ws.root, '.claude', 'hipo-install.json'));
    // A later init recognises hipo's own skills (not "not hipo's") and does not add hooks twice.
    const again = runCli(['init', ws.root, '--platform', 'claude-code'], { env: a.env });
    expect(again.stdout).not.toContain('skipped');
    expect(JSON.parse(ws.read('.claude/settings.local.json')).hooks.Stop).toHaveLength(1);
    rmSync(join(ws.root, '.claude', 'hipo-install.json'));
    const u2 = runCli(['uninstall', ws.root], { env: a.env });
    expect(u2.stdout).toContain("no install record (.claude/hipo-install.json): took out what is recognisably hipo's");
    expect(filesUnder(join(ws.root, '.claude'))).toEqual([]);
  });

  it('takes over an install of hipo 0.1 (record in .hipo/install, hooks with --dir) without doubling its hooks', () => {
    const a = agentEnv();
    const ws = makeWorkspace({ '.claude/settings.local.json': '{"model": "opus"}\n' });
    const old = { type: 'command', command: `/usr/local/bin/hipo hook Stop --dir ${ws.root}`, timeout: 15 };
    ws.write('.claude/settings.local.json', `${JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [old] }] } }, null, 2)}\n`);
    ws.write(
      '.hipo/install/claude-code.json',
      JSON.stringify({
        version: 1,
        platform: 'claude-code',
        installedAt: '',
        command: '/usr/local/bin/hipo',
        files: [],
        dirs: [],
        json: [
          {
            path: '.claude/settings.local.json',
            original: Buffer.from('{"model": "opus"}\n').toString('base64'),
            added: { Stop: [{ hooks: [old] }] },
          },
        ],
      }),
    );
    expect(runCli(['init', ws.root, '--platform', 'claude-code'], { env: a.env }).code).toBe(0);
    const stop = JSON.parse(ws.read('.claude/settings.local.json')).hooks.Stop;
    expect(stop).toHaveLength(1);
    expect(stop[0].hooks[0].command).not.toContain('--dir');
    expect(ws.exists('.hipo/install/claude-code.json')).toBe(false);
    runCli(['uninstall', ws.root], { env: a.env });
    expect(ws.read('.claude/settings.local.json')).toBe('{"model": "opus"}\n');
  });

  it('keeps a skill the user edited, and refuses a broken settings file without changing anything', () => {
    const a = agentEnv();
    const ws = makeWorkspace();
    runCli(['init', ws.root, '--platform', 'claude-code'], { env: a.env });
    ws.write('.claude/skills/hipo-recall/SKILL.md', 'my own notes\n');
    const u = runCli(['uninstall', ws.root], { env: a.env });
    expect(u.stdout).toContain('kept      .claude/skills/hipo-recall/SKILL.md');
    expect(ws.read('.claude/skills/hipo-recall/SKILL.md')).toBe('my own notes\n');
    expect(ws.exists('.claude/settings.local.json')).toBe(false);

    const bad = makeWorkspace({ '.claude/settings.local.json': '{ "hooks": ' });
    const before = userFiles(bad);
    const r = runCli(['init', bad.root, '--platform', 'claude-code'], { env: a.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('settings.local.json: is not valid JSON');
    expect(userFiles(bad)).toEqual(before);
  });

  it("places a settings file's JSON mistake by line and column, without quoting its text", () => {
    const a = agentEnv();
    // A value left unquoted: V8's own message quotes the text around it, the password with it.
    const bad = makeWorkspace({ '.claude/settings.local.json': '{\n  "env": { "DB_PASSWORD": pv5521velvet }\n}\n' });
    const before = userFiles(bad);
    const r = runCli(['init', bad.root, '--platform', 'claude-code'], { env: a.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(bad.root, '.claude', 'settings.local.json')}: is not valid JSON at line 2, column 27 (`);
    expect(r.stderr).not.toContain('pv5521');
    expect(userFiles(bad)).toEqual(before);
  });

  it('uses HIPO_COMMAND when set, and rejects an unknown platform or scope', () => {
    const a = agentEnv();
    const ws = makeWorkspace();
    expect(runCli(['init', ws.root, '--platform', 'claude-code'], { env: { ...a.env, HIPO_COMMAND: '/opt/hipo/bin/hipo' } }).code).toBe(0);
    expect(JSON.parse(ws.read('.claude/settings.local.json')).hooks.Stop[0].hooks[0].command).toBe('/opt/hipo/bin/hipo hook Stop');
    expect(ws.read('.claude/skills/hipo-checkpoint/SKILL.md')).toContain('allowed-tools: Bash(/opt/hipo/bin/hipo log:*)');
    const r = runCli(['init', ws.root, '--platform', 'vim'], { env: a.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"vim" is not one of claude-code, codex, opencode, openclaw');
    const s = runCli(['init', ws.root, '--platform', 'openclaw', '--scope', 'user'], { env: a.env });
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('--scope: openclaw installs in project, not "user"');
  });
});

describe('claude-code project and user scopes', () => {
  it('project: a bare hipo in .claude/settings.json and the MCP server in .mcp.json beside other servers; switching scope moves the hooks', () => {
    const a = agentEnv({ claude: true });
    const mcp = '{\n  "mcpServers": {\n    "github": { "command": "gh-mcp" }\n  }\n}\n';
    const ws = makeWorkspace({ '.mcp.json': mcp });
    const before = userFiles(ws);
    expect(runCli(['init', ws.root, '--platform', 'claude-code', '--scope', 'project'], { env: a.env }).code).toBe(0);
    const settings = JSON.parse(ws.read('.claude/settings.json'));
    for (const event of EVENTS) expect(settings.hooks[event][0].hooks[0].command).toBe(`hipo hook ${event}`);
    expect(JSON.parse(ws.read('.mcp.json')).mcpServers).toEqual({
      github: { command: 'gh-mcp' },
      hipo: { type: 'stdio', command: 'hipo', args: ['mcp'] },
    });
    expect(ws.read('.claude/skills/hipo-recall/SKILL.md')).toContain('allowed-tools: Bash(hipo recall:*), Bash(hipo search:*)');
    expect(ws.exists('.claude/settings.local.json')).toBe(false);
    expect(a.claudeCalls()).toEqual([]);

    expect(runCli(['init', ws.root, '--platform', 'claude-code', '--scope', 'local'], { env: a.env }).code).toBe(0);
    expect(ws.exists('.claude/settings.json')).toBe(false);
    expect(ws.read('.mcp.json')).toBe(mcp);
    expect(JSON.parse(ws.read('.claude/settings.local.json')).hooks.Stop).toHaveLength(1);
    runCli(['uninstall', ws.root], { env: a.env });
    expect(userFiles(ws)).toEqual(before);
  });

  it('user: skills and hooks under ~/.claude, the MCP server in the user scope; the workspace gets only memory/ and its config', () => {
    const a = agentEnv({ claude: true });
    const ws = makeWorkspace();
    const r = runCli(['init', ws.root, '--platform', 'claude-code', '--scope', 'user'], { env: a.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`(user scope in ${a.home})`);
    expect(Object.keys(userFiles(ws))).toEqual([]);
    expect(filesUnder(join(a.home, '.claude'))).toEqual([
      'hipo-install.json',
      'settings.json',
      ...SKILLS.map((s) => `skills/${s}/SKILL.md`),
    ]);
    expect(a.claudeServers()).toHaveProperty('user:hipo');
    // In another project, without a workspace, the user-level hook does nothing.
    const hook = JSON.parse(readFileSync(join(a.home, '.claude', 'settings.json'), 'utf8')).hooks.SessionStart[0].hooks[0].command;
    const elsewhere = join(a.home, 'other-project');
    mkdirSync(elsewhere);
    expect(runHook(hook, { session_id: 'x', source: 'startup', cwd: elsewhere }, a.env)).toEqual({ status: 0, stdout: '' });
    expect(
      JSON.parse(runHook(hook, { session_id: 'y', source: 'startup', cwd: ws.root }, a.env).stdout).hookSpecificOutput.hookEventName,
    ).toBe('SessionStart');

    expect(runCli(['uninstall', ws.root], { env: a.env }).stdout).toContain("nothing of hipo's installed"); // user scope only when named
    const u = runCli(['uninstall', '--scope', 'user', '--dir', ws.root], { env: a.env });
    expect(u.code).toBe(0);
    expect(filesUnder(a.home).filter((f) => !f.startsWith('other-project'))).toEqual([]);
    expect(a.claudeServers()).toEqual({});
  });
});

describe('other platforms', () => {
  it('codex: hooks in .codex/hooks.json and skills in .agents/skills, removed again; the note says how Codex gates hooks', () => {
    const a = agentEnv();
    const ws = makeWorkspace({ 'AGENTS.md': '# Agents\n' });
    const before = userFiles(ws);
    const r = runCli(['init', ws.root, '--platform', 'codex'], { env: a.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('open /hooks in Codex and trust');
    expect(r.stdout).toContain('--dangerously-bypass-hook-trust');
    const hooks = JSON.parse(ws.read('.codex/hooks.json')).hooks;
    expect(Object.keys(hooks)).toEqual(EVENTS);
    // Codex caps SessionEnd hooks at 3 s and warns at every start about a longer timeout.
    expect(hooks.SessionEnd[0].hooks[0].timeout).toBe(3);
    for (const s of SKILLS) expect(ws.exists(`.agents/skills/${s}/SKILL.md`)).toBe(true);
    for (const f of Object.keys(userFiles(ws))) expect(ws.read(f)).not.toContain(ws.root);
    expect(ws.read('AGENTS.md')).toBe('# Agents\n');
    rmSync(join(ws.root, '.hipo'), { recursive: true, force: true });
    runCli(['uninstall', ws.root, '--platform', 'codex'], { env: a.env });
    expect(userFiles(ws)).toEqual(before);
    expect(ws.exists('.codex')).toBe(false);
  });

  it('opencode: a plugin that finds the workspace from the folder OpenCode runs in and loads as an ES module', async () => {
    const a = agentEnv();
    const ws = makeWorkspace({ 'src/main.ts': '\n' });
    expect(runCli(['init', ws.root, '--platform', 'opencode'], { env: a.env }).code).toBe(0);
    expect(ws.exists('.opencode/skills/hipo-recall/SKILL.md')).toBe(true);
    expect(ws.read('.opencode/plugins/hipo.js')).not.toContain(ws.root);
    const mod = await import(`${join(ws.root, '.opencode/plugins/hipo.js')}?t=${Date.now()}`);
    const hooks = await mod.HipoMemory({ client: { session: { messages: async () => ({ data: [] }) } }, directory: join(ws.root, 'src') });
    const output = { system: [] as string[] };
    await hooks['experimental.chat.system.transform']({ sessionID: 'ses_1' }, output);
    expect(output.system[0]).toMatch(/^# Memory context/);
    expect(await mod.HipoMemory({ client: {}, directory: '/' })).toEqual({}); // not a workspace
    // The MCP server, in the config file OpenCode merges over the project's own.
    expect(JSON.parse(ws.read('.opencode/opencode.json')).mcp.hipo).toMatchObject({ type: 'local', enabled: true });
    expect(JSON.parse(ws.read('.opencode/opencode.json')).mcp.hipo.command.at(-1)).toBe('mcp');
    // OpenCode adds a $schema to every config file it loads: the file hipo created still goes.
    const cfg = JSON.parse(ws.read('.opencode/opencode.json'));
    writeFileSync(
      join(ws.root, '.opencode/opencode.json'),
      JSON.stringify({ $schema: 'https://opencode.ai/config.json', ...cfg }, null, 2),
    );
    runCli(['uninstall', ws.root], { env: a.env });
    expect(ws.exists('.opencode')).toBe(false);
  });

  it('opencode: an idle session is archived redacted, and the plugin leaves no transcript copy behind', async () => {
    const ws = makeWorkspace();
    expect(runCli(['init', ws.root, '--platform', 'opencode']).code).toBe(0);
    const mod = await import(`${join(ws.root, '.opencode/plugins/hipo.js')}?t=${Date.now()}`);
    const key = 'ghp_Zx81Kq0LmW3vNa7Pt5Rb2Yc9Hd4Fg6Js1Ue8';
    const at = Date.parse('2026-03-15T10:00:00Z');
    const data = [
      {
        info: { id: 'msg_1', sessionID: 'ses_7', role: 'user', time: { created: at } },
        parts: [{ type: 'text', text: `push with my token ${key} please` }],
      },
      {
        info: { id: 'msg_2', sessionID: 'ses_7', role: 'assistant', time: { created: at + 5000 } },
        parts: [{ type: 'text', text: 'Pushed the branch.' }],
      },
    ];
    const hooks = await mod.HipoMemory({ client: { session: { messages: async () => ({ data }) } }, directory: ws.root });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_7' } } });
    const log = ws.read('memory/2026-03-15.md');
    expect(log).toContain('push with my token [REDACTED:github-token] please');
    expect(ws.files('.hipo').filter((f) => f.startsWith('.hipo/opencode/'))).toEqual([]);
    for (const f of ws.files('.hipo')) expect(ws.read(f), f).not.toContain(key);
  });

  it('opencode: the plugin keeps no unredacted transcript after archiving a session', async () => {
    const a = agentEnv();
    const ws = makeWorkspace();
    expect(runCli(['init', ws.root, '--platform', 'opencode'], { env: a.env }).code).toBe(0);
    const mod = await import(`${join(ws.root, '.opencode/plugins/hipo.js')}?t=${Date.now()}`);
    const message = (role: string, id: string, text: string) => ({
      info: { id, role, sessionID: 'ses_2', time: { created: Date.parse('2026-03-15T10:00:00Z') } },
      parts: [{ type: 'text', text }],
    });
    const data = [
      message('user', 'msg_1', 'My key is ghp_R7t2Kx9mQ4vB8nL3pZ6wY1sH5jD0fG2aC4eE, keep it safe'),
      message('assistant', 'msg_2', 'Kept.'),
    ];
    const hooks = await mod.HipoMemory({ client: { session: { messages: async () => ({ data }) } }, directory: ws.root });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_2' } } });
    const log = ws.read('memory/2026-03-15.md');
    expect(log).toContain('My key is [REDACTED:github-token]');
    expect(ws.exists('.hipo/opencode/ses_2.jsonl')).toBe(false);
  });

  it('opencode and openclaw: a copy hipo could not archive (the config did not load) is kept, and archived once it loads', async () => {
    const broken = '{"timeZone":"UTC",}';
    const fixed = JSON.stringify({ timeZone: 'UTC' });
    const at = Date.parse('2026-03-15T10:00:00Z');
    // OpenCode: the copy it writes at idle stays until an archive succeeds.
    const oc = makeWorkspace();
    expect(runCli(['init', oc.root, '--platform', 'opencode']).code).toBe(0);
    const mod = await import(`${join(oc.root, '.opencode/plugins/hipo.js')}?t=${Date.now()}`);
    const data = [
      {
        info: { id: 'msg_1', sessionID: 'ses_9', role: 'user', time: { created: at } },
        parts: [{ type: 'text', text: 'Ship the quokka export?' }],
      },
      {
        info: { id: 'msg_2', sessionID: 'ses_9', role: 'assistant', time: { created: at + 5000 } },
        parts: [{ type: 'text', text: 'Shipped.' }],
      },
    ];
    const hooks = await mod.HipoMemory({ client: { session: { messages: async () => ({ data }) } }, directory: oc.root });
    writeFileSync(join(oc.root, 'hipo.config.json'), broken);
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_9' } } });
    expect(oc.exists('memory/2026-03-15.md')).toBe(false);
    expect(oc.exists('.hipo/opencode/ses_9.jsonl')).toBe(true);
    writeFileSync(join(oc.root, 'hipo.config.json'), fixed);
    const output = { system: [] as string[] };
    await hooks['experimental.chat.system.transform']({ sessionID: 'ses_10' }, output); // another session starts
    expect(oc.read('memory/2026-03-15.md')).toContain('User: Ship the quokka export?');
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_9' } } });
    expect(oc.exists('.hipo/opencode/ses_9.jsonl')).toBe(false);
    expect(oc.read('memory/2026-03-15.md').match(/## Conversation/g)).toHaveLength(1);

    // OpenClaw: the run's bytes are zeroed only once archived.
    const a = agentEnv();
    const ow = makeWorkspace();
    expect(runCli(['init', ow.root, '--platform', 'openclaw'], { env: a.env }).code).toBe(0);
    const plugin = (await import(`${join(ow.root, 'plugins/hipo/index.js')}?t=${Date.now()}`)).default;
    const on: Record<string, (event: unknown, ctx: unknown) => unknown> = {};
    plugin.register({ on: (name: string, fn: (event: unknown, ctx: unknown) => unknown) => (on[name] = fn) });
    writeFileSync(join(ow.root, 'hipo.config.json'), broken);
    const messages = [
      { role: 'user', content: 'Where do the invoices go?', timestamp: at },
      { role: 'assistant', content: [{ type: 'text', text: 'To the billing bucket.' }], timestamp: at + 5000 },
    ];
    on.agent_end!({ messages }, { workspaceDir: ow.root, sessionKey: 'main' });
    expect(ow.exists('memory/2026-03-15.md')).toBe(false);
    expect(ow.read('.hipo/openclaw/main.jsonl')).toContain('To the billing bucket.');
    writeFileSync(join(ow.root, 'hipo.config.json'), fixed);
    expect(runCli(['compact', '--dir', ow.root, '--now', '2026-03-15']).code).toBe(0);
    expect(ow.read('memory/2026-03-15.md')).toContain('Assistant: To the billing bucket.');
  });

  it('openclaw: only when asked (AGENTS.md alone is not OpenClaw); its bootstrap hook still works after the workspace moved', async () => {
    const a = agentEnv();
    const ws = makeWorkspace({ 'AGENTS.md': '# Agents\n', 'MEMORY.md': '# curated\n' });
    expect(runCli(['init', ws.root], { env: a.env }).code).toBe(0);
    expect(Object.keys(userFiles(ws)).sort()).toEqual(['AGENTS.md', 'MEMORY.md']);
    expect(runCli(['init', ws.root, '--platform', 'openclaw'], { env: a.env }).code).toBe(0);
    expect(ws.read('hooks/hipo-memory/HOOK.md')).toContain('"events": ["agent:bootstrap"]');
    const moved = `${ws.root}-moved`;
    cpSync(ws.root, moved, { recursive: true });
    try {
      const handler = (await import(join(moved, 'hooks/hipo-memory/handler.js'))).default;
      const event = {
        type: 'agent',
        action: 'bootstrap',
        context: { bootstrapFiles: [] as { name: string; content: string; path: string }[] },
      };
      await handler(event);
      expect(event.context.bootstrapFiles[0]!.name).toBe('HIPO_MEMORY.md');
      expect(event.context.bootstrapFiles[0]!.content).toMatch(/^# Memory context/);
      expect(event.context.bootstrapFiles[0]!.path).toBe(join(moved, 'memory', 'ROOT.md'));
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
    runCli(['uninstall', ws.root], { env: a.env });
    expect(Object.keys(userFiles(ws)).sort()).toEqual(['AGENTS.md', 'MEMORY.md']);
    expect(ws.read('MEMORY.md')).toBe('# curated\n');
  });
});
