// `hipo init --platform` and `hipo uninstall`: the workspace's agent integration.
import { loadConfig } from '../config/config.js';
import { workspaceAt } from '../tree/layout.js';
import { InstallError, resolveHipoCommand } from './command.js';
import { installedPlatforms, installPlatform, uninstallPlatform, type InstallReport, type UninstallReport } from './install.js';
import { platformPlan, PLATFORMS, type Platform } from './plans.js';

export function parsePlatform(name: string): Platform {
  const p = name.toLowerCase().replace(/[\s_]+/g, '-').replace(/^claude$|^claudecode$/, 'claude-code');
  if (!(PLATFORMS as readonly string[]).includes(p)) throw new InstallError(`--platform: "${name}" is not one of ${PLATFORMS.join(', ')}`);
  return p as Platform;
}

export function installAgentPlatform(dir: string, platform: Platform): InstallReport {
  const { config } = loadConfig(dir);
  const ws = workspaceAt(dir, config.memoryDir);
  const command = resolveHipoCommand();
  return installPlatform(ws, platformPlan(platform, { workspace: ws.root, memoryName: ws.memoryName, command }));
}

export function uninstallAgentPlatforms(dir: string, platform: Platform | null): UninstallReport[] {
  const { config } = loadConfig(dir);
  const ws = workspaceAt(dir, config.memoryDir);
  const which = platform ? [platform] : installedPlatforms(ws);
  return which.map((p) => uninstallPlatform(ws, p)).filter((r): r is UninstallReport => r !== null);
}
