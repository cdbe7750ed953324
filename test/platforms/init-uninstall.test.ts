// `hipo init --platform` and `hipo uninstall`: idempotent install, other settings untouched,
// an exact round trip.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const SKILLS = ['hipo-checkpoint', 'hipo-compaction', 'hipo-recall', 'hipo-session-start'];

/** Hashes of everything except hipo's own data and state. */
function userFiles(ws: TestWorkspace): Record<string, string> {
  return Object.fromEntries(Object.entries(ws.hashes()).filter(([f]) => !/^(memory\/|\.hipo\/|hipo\.config\.json$)/.test(f)));
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

describe('hipo init --platform claude-code / hipo uninstall', () => {
  it('merges hooks beside existing ones, installs skills, is idempotent, and uninstalls byte for byte', () => {
    const ws = makeWorkspace({
      '.claude/settings.local.json': EXISTING_SETTINGS,
      '.claude/settings.json': '{"model": "sonnet"}\n',
      'CLAUDE.md': '# Project rules\n',
      'AGENTS.md': '# Agents\n',
    });
    const before = userFiles(ws);
    const r = runCli(['init', ws.root, '--platform', 'claude-code']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('merged   .claude/settings.local.json');

    const settings = JSON.parse(ws.read('.claude/settings.local.json'));
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test:*)'] });
    expect(settings.hooks.PostToolUse).toEqual([{ matcher: 'Edit', hooks: [{ type: 'command', command: 'npx prettier --write' }] }]);
    expect(settings.hooks.PreCompact).toHaveLength(2);
    expect(settings.hooks.PreCompact[0].hooks[0].command).toBe('./scripts/backup.sh');
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd']) {
      const ours = settings.hooks[event].at(-1).hooks[0];
      expect(ours.type).toBe('command');
      expect(ours.command).toContain(` hook ${event} --dir `);
      expect(ours.command).not.toMatch(/_npx/);
    }
    expect(settings.hooks.SessionStart.at(-1).matcher).toBe('startup|resume|clear|compact');
    for (const s of SKILLS) {
      const skill = ws.read(`.claude/skills/${s}/SKILL.md`);
      expect(skill).toMatch(new RegExp(`^---\\nname: ${s}\\ndescription: .+\\n---\\n`));
      expect(skill).not.toContain('{{');
      expect(skill).toContain(ws.root);
    }
    expect(ws.read('.claude/settings.json')).toBe('{"model": "sonnet"}\n');
    expect(ws.read('CLAUDE.md')).toBe('# Project rules\n');

    // The installed hook command really runs hipo.
    const start = settings.hooks.SessionStart.at(-1).hooks[0].command as string;
    const out = spawnSync('/bin/sh', ['-c', start], { input: JSON.stringify({ session_id: 's1', source: 'startup', cwd: '/' }), encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).hookSpecificOutput.hookEventName).toBe('SessionStart');

    const afterFirst = userFiles(ws);
    expect(runCli(['init', ws.root, '--platform', 'claude-code']).code).toBe(0);
    expect(userFiles(ws)).toEqual(afterFirst);

    const u = runCli(['uninstall', ws.root]);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('restored  .claude/settings.local.json');
    expect(userFiles(ws)).toEqual(before);
    expect(ws.exists('.claude/skills')).toBe(false);
    expect(ws.exists('memory')).toBe(true);
    expect(runCli(['uninstall', ws.root]).stdout).toContain('nothing installed here');
  });

  it('keeps a skill the user edited, and refuses a broken settings file without changing anything', () => {
    const ws = makeWorkspace();
    runCli(['init', ws.root, '--platform', 'claude-code']);
    ws.write('.claude/skills/hipo-recall/SKILL.md', 'my own notes\n');
    const u = runCli(['uninstall', ws.root]);
    expect(u.stdout).toContain('kept      .claude/skills/hipo-recall/SKILL.md');
    expect(ws.read('.claude/skills/hipo-recall/SKILL.md')).toBe('my own notes\n');
    expect(ws.exists('.claude/settings.local.json')).toBe(false);

    const bad = makeWorkspace({ '.claude/settings.local.json': '{ "hooks": ' });
    const before = userFiles(bad);
    const r = runCli(['init', bad.root, '--platform', 'claude-code']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('settings.local.json: is not valid JSON');
    expect(userFiles(bad)).toEqual(before);
  });

  it('uses HIPO_COMMAND when set, and rejects an unknown platform', () => {
    const ws = makeWorkspace();
    expect(runCli(['init', ws.root, '--platform', 'claude-code'], { env: { HIPO_COMMAND: '/opt/hipo/bin/hipo' } }).code).toBe(0);
    expect(JSON.parse(ws.read('.claude/settings.local.json')).hooks.Stop[0].hooks[0].command).toBe(`/opt/hipo/bin/hipo hook Stop --dir ${ws.root}`);
    const r = runCli(['init', ws.root, '--platform', 'vim']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"vim" is not one of claude-code, codex, opencode, openclaw');
  });
});

describe('other platforms', () => {
  it('codex: hooks in .codex/hooks.json and skills in .agents/skills, removed again', () => {
    const ws = makeWorkspace({ 'AGENTS.md': '# Agents\n' });
    const before = userFiles(ws);
    expect(runCli(['init', ws.root, '--platform', 'codex']).code).toBe(0);
    const hooks = JSON.parse(ws.read('.codex/hooks.json')).hooks;
    expect(Object.keys(hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd']);
    for (const s of SKILLS) expect(ws.exists(`.agents/skills/${s}/SKILL.md`)).toBe(true);
    expect(ws.read('AGENTS.md')).toBe('# Agents\n');
    runCli(['uninstall', ws.root, '--platform', 'codex']);
    expect(userFiles(ws)).toEqual(before);
    expect(ws.exists('.codex')).toBe(false);
  });

  it('opencode: a plugin that loads as an ES module and exposes the memory hooks', async () => {
    const ws = makeWorkspace();
    expect(runCli(['init', ws.root, '--platform', 'opencode']).code).toBe(0);
    expect(ws.exists('.opencode/skills/hipo-recall/SKILL.md')).toBe(true);
    const mod = await import(pathToFileURL(join(ws.root, '.opencode/plugins/hipo.js')).href);
    const hooks = await mod.HipoMemory({ client: { session: { messages: async () => ({ data: [] }) } } });
    const output = { system: [] as string[] };
    await hooks['experimental.chat.system.transform']({ sessionID: 'ses_1' }, output);
    expect(output.system[0]).toMatch(/^# Memory context/);
    runCli(['uninstall', ws.root]);
    expect(ws.exists('.opencode')).toBe(false);
  });

  it('opencode: an idle session is archived redacted, and the plugin leaves no transcript copy behind', async () => {
    const ws = makeWorkspace();
    expect(runCli(['init', ws.root, '--platform', 'opencode']).code).toBe(0);
    const mod = await import(pathToFileURL(join(ws.root, '.opencode/plugins/hipo.js')).href);
    const key = 'ghp_Zx81Kq0LmW3vNa7Pt5Rb2Yc9Hd4Fg6Js1Ue8';
    const at = Date.parse('2026-03-15T10:00:00Z');
    const data = [
      { info: { id: 'msg_1', sessionID: 'ses_7', role: 'user', time: { created: at } }, parts: [{ type: 'text', text: `push with my token ${key} please` }] },
      { info: { id: 'msg_2', sessionID: 'ses_7', role: 'assistant', time: { created: at + 5000 } }, parts: [{ type: 'text', text: 'Pushed the branch.' }] },
    ];
    const hooks = await mod.HipoMemory({ client: { session: { messages: async () => ({ data }) } } });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_7' } } });
    const log = ws.read('memory/2026-03-15.md');
    expect(log).toContain('push with my token [REDACTED:github-token] please');
    expect(ws.files('.hipo').filter((f) => f.startsWith('.hipo/opencode/'))).toEqual([]);
    for (const f of ws.files('.hipo')) expect(ws.read(f), f).not.toContain(key);
  });

  it('openclaw: only when asked (AGENTS.md alone is not OpenClaw); its bootstrap hook adds the memory context', async () => {
    const ws = makeWorkspace({ 'AGENTS.md': '# Agents\n', 'MEMORY.md': '# curated\n' });
    expect(runCli(['init', ws.root]).code).toBe(0);
    expect(Object.keys(userFiles(ws)).sort()).toEqual(['AGENTS.md', 'MEMORY.md']);
    expect(runCli(['init', ws.root, '--platform', 'openclaw']).code).toBe(0);
    expect(ws.read('hooks/hipo-memory/HOOK.md')).toContain('"events": ["agent:bootstrap"]');
    const handler = (await import(pathToFileURL(join(ws.root, 'hooks/hipo-memory/handler.js')).href)).default;
    const event = { type: 'agent', action: 'bootstrap', context: { bootstrapFiles: [] as { name: string; content: string }[] } };
    await handler(event);
    expect(event.context.bootstrapFiles[0]!.name).toBe('HIPO_MEMORY.md');
    expect(event.context.bootstrapFiles[0]!.content).toMatch(/^# Memory context/);
    runCli(['uninstall', ws.root]);
    expect(Object.keys(userFiles(ws)).sort()).toEqual(['AGENTS.md', 'MEMORY.md']);
    expect(ws.read('MEMORY.md')).toBe('# curated\n');
  });
});

