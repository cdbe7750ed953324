// What `hipo init --platform <name>` installs for each agent platform: skills, hooks (merged
// into the platform's settings) and the platform's way of loading ROOT at session start.
//   claude-code: .claude/skills/, hooks in .claude/settings.local.json (machine-specific paths
//                belong in the local, uncommitted settings), SessionStart prints the context.
//   codex:       .agents/skills/, hooks in .codex/hooks.json (same event shape as Claude Code).
//   opencode:    .opencode/skills/, a plugin .opencode/plugins/hipo.js that injects the context
//                into the system prompt and hands the session's messages to `hipo hook`.
//   openclaw:    skills/ in the OpenClaw workspace, a hook hooks/hipo-memory/ (agent:bootstrap)
//                adding the context as a bootstrap file; OpenClaw writes memory/ itself.
import { shellQuote, type HipoCommand } from './command.js';
import type { Json } from './manifest.js';
import type { PlatformPlan } from './install.js';
import { skillFiles } from './skills.js';
import { openCodePlugin } from './opencode-plugin.js';
import { openClawHandler, OPENCLAW_HOOK_MD } from './openclaw-hook.js';

export const PLATFORMS = ['claude-code', 'codex', 'opencode', 'openclaw'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface PlanInput {
  workspace: string;
  memoryName: string;
  command: HipoCommand;
}

/** Hook events and their settings: matcher and timeout in seconds (hipo caps itself well below). */
const HOOKS: [event: string, matcher: string | null, timeout: number][] = [
  ['SessionStart', 'startup|resume|clear|compact', 15],
  ['UserPromptSubmit', null, 15],
  ['PreCompact', null, 30],
  ['Stop', null, 15],
  ['SessionEnd', null, 15],
];

function hookGroups(input: PlanInput, events: readonly string[]): Record<string, Json[]> {
  const out: Record<string, Json[]> = {};
  for (const [event, matcher, timeout] of HOOKS) {
    if (!events.includes(event)) continue;
    const handler: Json = { type: 'command', command: `${input.command.shell} hook ${event} --dir ${shellQuote(input.workspace)}`, timeout };
    out[event] = [matcher ? { matcher, hooks: [handler] } : { hooks: [handler] }];
  }
  return out;
}

export function platformPlan(platform: Platform, input: PlanInput): PlatformPlan {
  const vars = { hipo: input.command.shell, workspace: input.workspace, memory: input.memoryName };
  const base = { platform, command: input.command.shell };
  switch (platform) {
    case 'claude-code':
      return {
        ...base,
        files: skillFiles('.claude/skills', vars),
        json: [{ path: '.claude/settings.local.json', groups: hookGroups(input, HOOKS.map((h) => h[0])) }],
        notes: ['Claude Code: hooks are in .claude/settings.local.json; the memory context is loaded by the SessionStart hook.'],
      };
    case 'codex':
      return {
        ...base,
        files: skillFiles('.agents/skills', vars),
        json: [{ path: '.codex/hooks.json', groups: hookGroups(input, HOOKS.map((h) => h[0])) }],
        notes: ['Codex: hooks are in .codex/hooks.json (hooks are on by default; check [features] hooks in config.toml if you turned them off).'],
      };
    case 'opencode':
      return {
        ...base,
        files: [...skillFiles('.opencode/skills', vars), { path: '.opencode/plugins/hipo.js', content: openCodePlugin(input.command.argv, input.workspace) }],
        json: [],
        notes: ['OpenCode: the plugin .opencode/plugins/hipo.js loads the memory context into the system prompt and archives sessions when they go idle.'],
      };
    case 'openclaw':
      return {
        ...base,
        files: [
          ...skillFiles('skills', vars),
          { path: 'hooks/hipo-memory/HOOK.md', content: OPENCLAW_HOOK_MD },
          { path: 'hooks/hipo-memory/handler.js', content: openClawHandler(input.command.argv, input.workspace) },
        ],
        json: [],
        notes: ['OpenClaw: enable the memory hook with "openclaw hooks enable hipo-memory", then restart the gateway. OpenClaw writes memory/YYYY-MM-DD.md itself; run "hipo compact" (or the daemon) to keep the tree current.'],
      };
  }
}
