// Registering hipo's MCP server with Claude Code for the local and user scopes. Those live in
// Claude Code's own state file, which Claude Code rewrites while it runs; its command line is
// the supported way to change them, so hipo calls `claude mcp add` / `claude mcp remove` when
// `claude` is on PATH, and otherwise says which command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { shellQuote } from './command.js';
import type { ExternalStep } from './manifest.js';

export interface StepResult {
  /** Done by hipo (false: the user has to run `command`). */
  done: boolean;
  /** Already registered before (nothing was changed). */
  existed: boolean;
  command: string;
  message: string;
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  const exts = process.platform === 'win32' ? ['.cmd', '.exe', ''] : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    for (const ext of exts) if (dir && existsSync(join(dir, name + ext))) return join(dir, name + ext);
  }
  return null;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): { ok: boolean; output: string } | null {
  const claude = findOnPath('claude', env);
  if (!claude) return null;
  const r = spawnSync(claude, args, { cwd, env, encoding: 'utf8', timeout: 30_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

export function addMcpServer(step: ExternalStep, cwd: string, env: NodeJS.ProcessEnv = process.env): StepResult {
  const args = ['mcp', 'add', '--scope', step.scope, step.name, '--', ...step.argv];
  const command = ['claude', ...args].map(shellQuote).join(' ');
  const r = run(args, cwd, env);
  if (!r) return { done: false, existed: false, command, message: `claude is not on PATH: register the MCP server with: ${command}` };
  if (r.ok) return { done: true, existed: false, command, message: `registered the MCP server "${step.name}" (${step.scope} scope)` };
  if (/already exists/i.test(r.output))
    return {
      done: false,
      existed: true,
      command,
      message: `an MCP server "${step.name}" is already registered (${step.scope} scope): left as it is`,
    };
  return {
    done: false,
    existed: false,
    command,
    message: `"${command}" failed (${r.output.split('\n')[0] || 'no output'}); run it yourself`,
  };
}

export function removeMcpServer(step: ExternalStep, cwd: string, env: NodeJS.ProcessEnv = process.env): StepResult {
  const args = ['mcp', 'remove', '--scope', step.scope, step.name];
  const command = ['claude', ...args].map(shellQuote).join(' ');
  const r = run(args, cwd, env);
  if (!r) return { done: false, existed: true, command, message: `claude is not on PATH: remove the MCP server with: ${command}` };
  if (r.ok) return { done: true, existed: true, command, message: `removed the MCP server "${step.name}" (${step.scope} scope)` };
  return { done: false, existed: false, command, message: `"${command}" failed (${r.output.split('\n')[0] || 'no output'})` };
}
