// What `hipo init --platform <name> [--scope …]` installs for each agent platform: skills, hooks
// and the platform's way of loading memory at session start, plus the MCP server where the
// platform registers one from a file or its own command line. No hook holds the workspace's
// path: hipo finds the workspace from the session's folder, so a moved or cloned project keeps
// working.
//   claude-code: .claude/skills/; hooks in .claude/settings.local.json (local: this machine's
//                hipo command stays out of shared files), .claude/settings.json (project: a
//                bare `hipo`, for everyone with hipo on PATH) or ~/.claude/settings.json (user);
//                MCP server in .mcp.json (project) or through `claude mcp add` (local, user).
//   codex:       .agents/skills/, hooks in .codex/hooks.json (project, or under ~ for user).
//   opencode:    .opencode/skills/, a plugin .opencode/plugins/hipo.js and the MCP server in
//                .opencode/opencode.json (or the same under ~/.config/opencode/).
//   openclaw:    skills/, a bootstrap hook hooks/hipo-memory/ and a capture plugin plugins/hipo/ in
//                the OpenClaw workspace.
import { shellQuote, type HipoCommand } from './command.js';
import { InstallError } from './command.js';
import type { PlannedFile } from './planned-file.js';
import type { ExternalStep, Json, JsonEntries, Scope } from './manifest.js';
import { HIPO_HOOK_EVENTS } from './recognize.js';
import { skillFiles } from './skills.js';
import { openCodePlugin } from './opencode-plugin.js';
import { openClawHandler, OPENCLAW_HOOK_MD } from './openclaw-hook.js';
import { openClawPlugin, OPENCLAW_PLUGIN_JSON, OPENCLAW_PLUGIN_PACKAGE } from './openclaw-plugin.js';

export const PLATFORMS = ['claude-code', 'codex', 'opencode', 'openclaw'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The scopes each platform has, the first being its default. */
export const PLATFORM_SCOPES: Record<Platform, readonly Scope[]> = {
  'claude-code': ['local', 'project', 'user'],
  codex: ['project', 'user'],
  opencode: ['project', 'user'],
  openclaw: ['project'],
};

export interface PlanInput {
  scope: Scope;
  /** The workspace (base of the local and project scopes). */
  workspace: string;
  /** The user's home folder (base of the user scope). */
  home: string;
  memoryName: string;
  /** hipo's stable command on this machine. */
  command: HipoCommand;
}

interface PlannedJson {
  path: string;
  add: JsonEntries;
}

export interface PlatformPlan {
  platform: Platform;
  scope: Scope;
  /** Absolute folder every path of the plan is relative to. */
  base: string;
  /** Where the install's manifest goes, relative to `base`. */
  manifest: string;
  command: string;
  files: PlannedFile[];
  json: PlannedJson[];
  external: ExternalStep[];
  notes: string[];
  /** Said by `hipo uninstall`: what the user undoes in the platform's own configuration. */
  uninstallNotes?: string[];
}

/** Hook events with their matcher and timeout in seconds (hipo caps itself well below). */
const HOOK_SETTINGS: Record<(typeof HIPO_HOOK_EVENTS)[number], [matcher: string | null, timeout: number]> = {
  SessionStart: ['startup|resume|clear|compact', 15],
  UserPromptSubmit: [null, 15],
  PreCompact: [null, 30],
  Stop: [null, 15],
  SessionEnd: [null, 15],
};

/** Codex caps a SessionEnd hook at 3 s (and warns at every start about a longer one). */
const CODEX_TIMEOUTS: Partial<Record<(typeof HIPO_HOOK_EVENTS)[number], number>> = { SessionEnd: 3 };

function hookGroups(
  commandShell: string,
  timeouts: Partial<Record<(typeof HIPO_HOOK_EVENTS)[number], number>> = {},
): Record<string, Json[]> {
  const out: Record<string, Json[]> = {};
  for (const event of HIPO_HOOK_EVENTS) {
    const [matcher, standard] = HOOK_SETTINGS[event];
    const timeout = timeouts[event] ?? standard;
    const handler: Json = { type: 'command', command: `${commandShell} hook ${event}`, timeout };
    out[event] = [matcher ? { matcher, hooks: [handler] } : { hooks: [handler] }];
  }
  return out;
}

/** The bare `hipo` of shared (committed) files: each machine's own hipo on PATH. */
const PORTABLE: HipoCommand = { argv: ['hipo'], shell: 'hipo', how: 'hipo on PATH (shared files)' };

export function platformPlan(platform: Platform, input: PlanInput): PlatformPlan {
  const scopes = PLATFORM_SCOPES[platform];
  if (!scopes.includes(input.scope))
    throw new InstallError(`--scope: ${platform} installs in ${scopes.join(' or ')}, not "${input.scope}"`);
  const user = input.scope === 'user';
  const base = user ? input.home : input.workspace;
  const command = platform === 'claude-code' && input.scope === 'project' ? PORTABLE : input.command;
  const vars = { hipo: command.shell, memory: input.memoryName };
  const mcpArgv = [...command.argv, 'mcp'];
  const plan = { platform, scope: input.scope, base, command: command.shell, external: [] as ExternalStep[] };
  switch (platform) {
    case 'claude-code': {
      const settings = input.scope === 'local' ? '.claude/settings.local.json' : '.claude/settings.json';
      const json: PlannedJson[] = [{ path: settings, add: { hooks: hookGroups(command.shell) } }];
      if (input.scope === 'project')
        json.push({
          path: '.mcp.json',
          add: { keys: { 'mcpServers.hipo': { type: 'stdio', command: command.argv[0]!, args: [...command.argv.slice(1), 'mcp'] } } },
        });
      else plan.external.push({ kind: 'claude-mcp', scope: input.scope === 'user' ? 'user' : 'local', name: 'hipo', argv: mcpArgv });
      return {
        ...plan,
        manifest: '.claude/hipo-install.json',
        files: skillFiles('.claude/skills', vars),
        json,
        notes: [
          `Claude Code: hooks in ${user ? '~/' : ''}${settings}; the SessionStart hook loads the memory context${user ? ' in every project that is a hipo workspace (hipo init there)' : ''}.`,
        ],
      };
    }
    case 'codex':
      return {
        ...plan,
        manifest: '.codex/hipo-install.json',
        files: skillFiles('.agents/skills', vars),
        json: [{ path: '.codex/hooks.json', add: { hooks: hookGroups(command.shell, CODEX_TIMEOUTS) } }],
        notes: [
          `Codex: hooks in ${user ? '~/' : ''}.codex/hooks.json. Codex runs them only once you trust them: open /hooks in Codex and trust hipo's five hooks (until then they are skipped without a word, codex exec included; for automation you control, codex exec --dangerously-bypass-hook-trust). A project's .codex/ loads only in a trusted project.`,
          `Codex MCP server (optional): codex mcp add hipo -- ${mcpArgv.map(shellQuote).join(' ')}`,
        ],
      };
    case 'opencode': {
      // OpenCode reads .opencode/opencode.json after the project's opencode.json(c) and merges
      // them: hipo's MCP server goes there, beside its plugin and skills, and never into a
      // config file of the user's (which may be JSONC).
      const dir = user ? '.config/opencode' : '.opencode';
      return {
        ...plan,
        manifest: `${dir}/hipo-install.json`,
        files: [...skillFiles(`${dir}/skills`, vars), { path: `${dir}/plugins/hipo.js`, content: openCodePlugin(command.argv) }],
        json: [{ path: `${dir}/opencode.json`, add: { keys: { 'mcp.hipo': { type: 'local', command: mcpArgv, enabled: true } } } }],
        notes: [
          `OpenCode: the plugin ${user ? '~/' : ''}${dir}/plugins/hipo.js loads the memory context into the system prompt and archives sessions when they go idle and before they are compacted; the MCP server "hipo" is in ${user ? '~/' : ''}${dir}/opencode.json.`,
        ],
      };
    }
    case 'openclaw': {
      // The bootstrap hook loads memory at session start; the plugin archives each run and
      // restores a session after compaction (OpenClaw hands messages only to plugins).
      const pluginDir = `${input.workspace}/plugins/hipo`;
      const mcp = JSON.stringify({ command: command.argv[0], args: [...command.argv.slice(1), 'mcp'] });
      return {
        ...plan,
        manifest: 'hooks/hipo-memory/install.json',
        files: [
          ...skillFiles('skills', vars),
          { path: 'hooks/hipo-memory/HOOK.md', content: OPENCLAW_HOOK_MD },
          { path: 'hooks/hipo-memory/handler.js', content: openClawHandler(command.argv) },
          { path: 'plugins/hipo/package.json', content: OPENCLAW_PLUGIN_PACKAGE },
          { path: 'plugins/hipo/openclaw.plugin.json', content: OPENCLAW_PLUGIN_JSON },
          { path: 'plugins/hipo/index.js', content: openClawPlugin(command.argv) },
        ],
        json: [],
        notes: [
          'OpenClaw: enable the memory hook with: openclaw hooks enable hipo-memory',
          `OpenClaw: load the capture plugin (archives each run, restores a session after compaction) with: openclaw plugins install --link ${shellQuote(pluginDir)} --force --accept-capabilities && openclaw plugins enable hipo && openclaw config set plugins.entries.hipo.hooks.allowConversationAccess true`,
          `OpenClaw MCP server (optional): openclaw mcp set hipo ${shellQuote(mcp)}`,
          'Then restart the gateway. OpenClaw also writes memory/YYYY-MM-DD.md itself; run "hipo compact" (or the daemon) to keep the tree current.',
        ],
        uninstallNotes: [
          'OpenClaw: also run "openclaw plugins uninstall hipo", "openclaw hooks disable hipo-memory" and "openclaw mcp unset hipo" (their entries are in OpenClaw\'s config), then restart the gateway.',
        ],
      };
    }
  }
}
