// `hipo init --platform` and `hipo uninstall`: the agent integration of a workspace (or, with
// the user scope, of the user's home folder).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config.js';
import { workspaceAt } from '../tree/layout.js';
import { InstallError, resolveHipoCommand, type HipoCommand } from './command.js';
import { installPlatform, previousManifest, type InstallReport } from './install.js';
import { SCOPES, type Scope } from './manifest.js';
import { platformPlan, PLATFORM_SCOPES, PLATFORMS, type Platform, type PlatformPlan } from './plans.js';
import { uninstallFromManifest, uninstallRecognised, type UninstallReport } from './uninstall.js';

export function parsePlatform(name: string): Platform {
  const p = name
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/^claude$|^claudecode$/, 'claude-code');
  if (!(PLATFORMS as readonly string[]).includes(p)) throw new InstallError(`--platform: "${name}" is not one of ${PLATFORMS.join(', ')}`);
  return p as Platform;
}

export function parseScope(name: string): Scope {
  if (!(SCOPES as readonly string[]).includes(name)) throw new InstallError(`--scope: "${name}" is not one of ${SCOPES.join(', ')}`);
  return name as Scope;
}

export interface SetupOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
}

function planFor(workspace: string, platform: Platform, scope: Scope, command: HipoCommand, opts: SetupOptions): PlatformPlan {
  const { config } = loadConfig(workspace);
  const ws = workspaceAt(workspace, config.memoryDir);
  return platformPlan(platform, { scope, workspace: ws.root, home: opts.home ?? homedir(), memoryName: ws.memoryName, command });
}

export function installAgentPlatform(workspace: string, platform: Platform, scope: Scope | null, opts: SetupOptions = {}): InstallReport {
  const command = resolveHipoCommand(opts.env);
  const plan = planFor(workspace, platform, scope ?? PLATFORM_SCOPES[platform][0]!, command, opts);
  const report = installPlatform(plan, { workspace, ...(opts.env ? { env: opts.env } : {}) });
  report.notes.unshift(...plan.notes);
  return report;
}

/**
 * Removes what `init --platform` installed: every platform (or the one named) in the
 * workspace's scopes, or the user scope when asked for. An install found by its manifest is
 * undone exactly; without a manifest, hipo's entries are recognised in place.
 */
export function uninstallAgentPlatforms(
  workspace: string,
  platform: Platform | null,
  scope: Scope | null,
  opts: SetupOptions = {},
): UninstallReport[] {
  let command: HipoCommand;
  try {
    command = resolveHipoCommand(opts.env);
  } catch {
    command = { argv: ['hipo'], shell: 'hipo', how: 'fallback' };
  }
  const reports: UninstallReport[] = [];
  for (const p of platform ? [platform] : PLATFORMS) {
    const scopes = PLATFORM_SCOPES[p].filter((s) => (scope ? s === scope : s !== 'user'));
    if (scope && scopes.length === 0 && platform)
      throw new InstallError(`--scope: ${p} installs in ${PLATFORM_SCOPES[p].join(' or ')}, not "${scope}"`);
    // Scopes sharing a base folder share one manifest (Claude Code's local and project).
    const byManifest = new Map<string, PlatformPlan[]>();
    for (const s of scopes) {
      const plan = planFor(workspace, p, s, command, opts);
      const file = join(plan.base, plan.manifest);
      byManifest.set(file, [...(byManifest.get(file) ?? []), plan]);
    }
    for (const [file, plans] of byManifest) {
      const m = previousManifest(plans[0]!, workspace);
      if (m) reports.push(uninstallFromManifest(plans[0]!, m, file, { workspace, ...(opts.env ? { env: opts.env } : {}) }));
      else
        for (const plan of plans) {
          const r = uninstallRecognised(plan);
          if (r) reports.push(r);
        }
    }
  }
  return reports;
}
