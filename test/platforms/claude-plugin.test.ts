// The Claude Code plugin in plugin/claude-code, checked against Claude Code's documented plugin
// layout (code.claude.com/docs: plugins reference, hooks, skills, MCP), and run the way Claude
// Code runs it: hook commands through a shell with ${CLAUDE_PLUGIN_ROOT}, the MCP server
// through the SDK's client, in place and as a copy in a plugin cache.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { pluginGeneratedFiles } from '../../src/platforms/claude-plugin.js';
import { CLI, makeWorkspace, REPO } from '../helpers/workspace.js';

const ROOT = join(REPO, 'plugin', 'claude-code');
const json = (rel: string) => JSON.parse(readFileSync(join(ROOT, rel), 'utf8'));
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

// Documented: plugin.json fields; hook events; a component path starts with "./" and stays inside.
const MANIFEST_FIELDS = [
  'name',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'commands',
  'agents',
  'skills',
  'hooks',
  'mcpServers',
  'outputStyles',
  'lspServers',
  'userConfig',
  'channels',
];
const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
];
const SKILL_FIELDS = [
  'name',
  'description',
  'when_to_use',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
  'disable-model-invocation',
  'user-invocable',
  'argument-hint',
  'model',
  'context',
  'agent',
  'hooks',
  'paths',
];

const temps: string[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

function expand(s: string, root: string): string {
  return s.replaceAll('${CLAUDE_PLUGIN_ROOT}', root);
}

function runHook(
  root: string,
  event: string,
  input: object,
  path = process.env.PATH!,
): { status: number | null; stdout: string; stderr: string } {
  const group = (
    JSON.parse(readFileSync(join(root, 'hooks', 'hooks.json'), 'utf8')).hooks[event] as { hooks: { command: string }[] }[]
  )[0]!;
  const r = spawnSync('/bin/sh', ['-c', expand(group.hooks[0]!.command, root)], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: { ...process.env, PATH: path, CLAUDE_PLUGIN_ROOT: root, HIPO_NOW: '2026-03-15' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('Claude Code plugin layout', () => {
  it('plugin.json: a kebab-case name, the package version, documented fields only', () => {
    const m = json('.claude-plugin/plugin.json');
    expect(m.name).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(m.version).toBe(pkg.version);
    expect(m.license).toBe(pkg.license);
    expect(typeof m.description).toBe('string');
    for (const k of Object.keys(m)) expect(MANIFEST_FIELDS, k).toContain(k);
    // Only the manifest lives in .claude-plugin/; components sit at the plugin root.
    expect(readdirSync(join(ROOT, '.claude-plugin'))).toEqual(['plugin.json']);
  });

  it('hooks/hooks.json: documented events, command handlers through ${CLAUDE_PLUGIN_ROOT}, timeouts in seconds', () => {
    const h = json('hooks/hooks.json');
    expect(Object.keys(h).sort()).toEqual(['description', 'hooks']);
    expect(Object.keys(h.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd']);
    for (const [event, groups] of Object.entries(h.hooks) as [string, Record<string, unknown>[]][]) {
      expect(HOOK_EVENTS).toContain(event);
      for (const g of groups) {
        for (const k of Object.keys(g)) expect(['matcher', 'hooks']).toContain(k);
        for (const handler of g.hooks as Record<string, unknown>[]) {
          expect(handler.type).toBe('command');
          expect(handler.command).toMatch(/^node "\$\{CLAUDE_PLUGIN_ROOT\}\/bin\/hipo" hook \w+$/);
          expect(handler.timeout).toBeGreaterThan(0);
          expect(handler.timeout).toBeLessThanOrEqual(60);
        }
      }
    }
    expect(h.hooks.SessionStart[0].matcher).toBe('startup|resume|clear|compact');
    expect(existsSync(join(ROOT, 'bin', 'hipo'))).toBe(true);
  });

  it('.mcp.json: one stdio server started through the plugin root', () => {
    const m = json('.mcp.json');
    expect(Object.keys(m)).toEqual(['mcpServers']);
    expect(m.mcpServers.hipo).toEqual({ command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/bin/hipo', 'mcp'] });
  });

  it('skills: frontmatter names match their folders, documented fields, allowed-tools; the same as the build renders them', () => {
    const names = readdirSync(join(ROOT, 'skills')).sort();
    expect(names).toEqual(readdirSync(join(REPO, 'skills')).sort());
    for (const name of names) {
      const text = readFileSync(join(ROOT, 'skills', name, 'SKILL.md'), 'utf8');
      const fm = /^---\n([\s\S]*?)\n---\n/.exec(text)![1]!;
      const keys = fm
        .split('\n')
        .filter((l) => /^\S/.test(l))
        .map((l) => l.split(':')[0]!);
      for (const k of keys) expect(SKILL_FIELDS, `${name}: ${k}`).toContain(k);
      expect(fm).toMatch(new RegExp(`^name: ${name}$`, 'm'));
      expect(name).toMatch(/^[a-z0-9-]{1,64}$/);
      expect(/^description: (.+)$/m.exec(fm)![1]!.length).toBeLessThanOrEqual(1024);
      expect(fm).toMatch(/^allowed-tools: Bash\(hipo [a-z]+:\*\)/m);
      expect(text).not.toContain('{{');
    }
    for (const [rel, content] of Object.entries(pluginGeneratedFiles(pkg.version))) {
      expect(readFileSync(join(ROOT, rel), 'utf8'), `${rel} is stale: run npm run build`).toBe(content);
    }
  });

  it('marketplace.json at the package root lists the plugin', () => {
    const m = JSON.parse(readFileSync(join(REPO, '.claude-plugin', 'marketplace.json'), 'utf8'));
    expect(m.name).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(typeof m.owner.name).toBe('string');
    expect(m.plugins).toEqual([expect.objectContaining({ name: 'hipo', source: './plugin/claude-code' })]);
    expect(existsSync(join(REPO, m.plugins[0].source, '.claude-plugin', 'plugin.json'))).toBe(true);
  });
});

describe('Claude Code plugin at work', () => {
  it('in place: hooks run the package CLI and find the workspace from the session folder', () => {
    const ws = makeWorkspace({
      'memory/2026-03-14.md': '# 2026-03-14\n\n## deploys [project]\n- deploys move to Fridays\n',
      'app/src/x.ts': '',
    });
    const r = runHook(ROOT, 'SessionStart', { session_id: 'p1', source: 'startup', cwd: join(ws.root, 'app', 'src') });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.hookEventName).toBe('SessionStart');
    expect(out.additionalContext).toContain('deploys move to Fridays');
  });

  it('copied into a plugin cache: uses the hipo on PATH, and without one a hook does nothing', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hipo-plugin-cache-'));
    temps.push(cache);
    const copy = join(cache, 'hipo', '0.1.0');
    cpSync(ROOT, copy, { recursive: true });
    const ws = makeWorkspace({ 'memory/2026-03-14.md': '# 2026-03-14\n\n## billing [project]\n- invoices go out on the 3rd\n' });
    // A PATH with node and nothing else of this machine's (a hipo installed here must not count).
    const nodeOnly = join(cache, 'node-only');
    mkdirSync(nodeOnly);
    symlinkSync(process.execPath, join(nodeOnly, 'node'));
    const bare = `${nodeOnly}:/bin`;
    const none = runHook(copy, 'SessionStart', { session_id: 'c1', source: 'startup', cwd: ws.root }, bare);
    expect(none).toMatchObject({ status: 0, stdout: '' });
    const bin = join(cache, 'bin');
    mkdirSync(bin);
    symlinkSync(CLI, join(bin, 'hipo')); // what npm install -g puts on PATH
    const withHipo = runHook(copy, 'SessionStart', { session_id: 'c2', source: 'startup', cwd: ws.root }, `${bin}:${bare}`);
    expect(JSON.parse(withHipo.stdout).hookSpecificOutput.additionalContext).toContain('invoices go out on the 3rd');

    // The MCP server as .mcp.json starts it, through the SDK's client.
    const server = JSON.parse(readFileSync(join(copy, '.mcp.json'), 'utf8')).mcpServers.hipo;
    const transport = new StdioClientTransport({
      command: server.command === 'node' ? process.execPath : server.command,
      args: server.args.map((a: string) => expand(a, copy)),
      cwd: ws.root,
      env: { ...process.env, PATH: `${bin}:${bare}`, HIPO_NOW: '2026-03-15' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'plugin-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const found = await client.callTool({ name: 'recall', arguments: { question: 'when do invoices go out?', budget: 300 } });
    expect((found.content as { text: string }[])[0]!.text).toContain('invoices go out on the 3rd');
  });
});
