// An environment for installing agent integrations in tests: a temp HOME (the user scope writes
// there, never to the real one) and a PATH holding node and, when asked, a stand-in for the
// `claude` command line. The real one edits the user's Claude Code state, so tests never run it;
// the stand-in records each call and answers "already exists" for a name it has registered, as
// `claude mcp add` does.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const FAKE_CLAUDE = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const dir = path.dirname(process.argv[1]);
const args = process.argv.slice(2);
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({ args, cwd: process.cwd() }) + '\\n');
const file = path.join(dir, 'servers.json');
const servers = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
const [cmd, sub, , scope, name] = args;
const key = scope + ':' + name + (scope === 'local' ? ':' + process.cwd() : '');
if (cmd === 'mcp' && sub === 'add') {
  if (servers[key]) { console.error('MCP server ' + name + ' already exists in ' + scope + ' config'); process.exit(1); }
  servers[key] = args.slice(args.indexOf('--') + 1);
} else if (cmd === 'mcp' && sub === 'remove') {
  if (!servers[key]) { console.error('No MCP server found with name: ' + name); process.exit(1); }
  delete servers[key];
}
fs.writeFileSync(file, JSON.stringify(servers));
`;

export interface AgentEnv {
  env: NodeJS.ProcessEnv;
  home: string;
  /** The stand-in's calls (empty without it). */
  claudeCalls(): { args: string[]; cwd: string }[];
  /** What the stand-in holds registered, by `scope:name[:project]`. */
  claudeServers(): Record<string, string[]>;
}

export function agentEnv(opts: { claude?: boolean } = {}): AgentEnv {
  const root = mkdtempSync(join(tmpdir(), 'hipo-agent-'));
  made.push(root);
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  mkdirSync(home);
  mkdirSync(bin);
  if (opts.claude) {
    writeFileSync(join(bin, 'claude'), FAKE_CLAUDE);
    chmodSync(join(bin, 'claude'), 0o755);
    // The stand-in is CommonJS: a package.json of "type": "module" above the temp folder would
    // make Node read it as a module (and fail at its first require) without this one.
    writeFileSync(join(bin, 'package.json'), '{"type":"commonjs"}\n');
  }
  const path = [bin, dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  return {
    env: { HOME: home, USERPROFILE: home, PATH: path, HIPO_COMMAND: '' },
    home,
    claudeCalls: () =>
      existsSync(join(bin, 'calls.jsonl'))
        ? readFileSync(join(bin, 'calls.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
        : [],
    claudeServers: () => (existsSync(join(bin, 'servers.json')) ? JSON.parse(readFileSync(join(bin, 'servers.json'), 'utf8')) : {}),
  };
}
