// The agent CLIs as `npm run e2e` installed them (scripts/e2e.mjs): where each one's executable
// is, the Node.js it runs with, and, when it cannot run here, why. The suite skips a platform
// whose CLI is missing, and names the reason in the test title, so a skip is never silent.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export type Platform = 'claude-code' | 'codex' | 'opencode' | 'openclaw';

interface Pin {
  package: string;
  version: string;
  bin: string;
  node?: string;
  runtime?: string;
}

export interface AgentCli {
  platform: Platform;
  package: string;
  version: string;
  /** The executable, or null when it cannot run here (see `reason`). */
  bin: string | null;
  /** Folder holding the Node.js the CLI runs with (first on its PATH). */
  nodeDir: string;
  reason: string | null;
  /** Title part: `claude-code (@anthropic-ai/claude-code 2.1.330)`. */
  label: string;
}

export const REPO = resolve(import.meta.dirname, '..', '..', '..');
const PINS = JSON.parse(readFileSync(join(REPO, 'test', 'e2e', 'agents.json'), 'utf8')).agents as Record<Platform, Pin>;

export function cacheDir(): string {
  return process.env.HIPO_E2E_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hipo-e2e');
}

const dirName = (pkg: string, version: string): string => `${pkg.replace(/\//g, '+')}@${version}`;

function atLeast(version: string, wanted: string): boolean {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = wanted.replace(/^>=/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

export function agentCli(platform: Platform): AgentCli {
  const p = PINS[platform];
  const dir = join(cacheDir(), dirName(p.package, p.version));
  const base = {
    platform,
    package: p.package,
    version: p.version,
    label: `${platform} (${p.package} ${p.version})`,
    nodeDir: dirname(process.execPath),
  };
  const fail = (reason: string): AgentCli => ({ ...base, bin: null, reason });
  if (existsSync(`${dir}.failed`)) return fail(readFileSync(`${dir}.failed`, 'utf8').trim());
  const bin = join(dir, 'node_modules', '.bin', p.bin);
  if (!existsSync(bin)) return fail(`not installed in ${dir} (npm run e2e installs it)`);
  let nodeDir = base.nodeDir;
  if (p.node && !atLeast(process.versions.node, p.node)) {
    const runtime = `node-${process.platform}-${process.arch}`;
    nodeDir = join(cacheDir(), dirName(runtime, p.runtime ?? ''), 'node_modules', runtime, 'bin');
    if (!existsSync(join(nodeDir, 'node')))
      return fail(`needs Node ${p.node} (this is ${process.version}); ${runtime}@${p.runtime} is not installed (npm run e2e installs it)`);
  }
  // It has to start: print its version (a missing shared library or CPU feature shows here).
  const r = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: dir, TERM: 'dumb' },
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 || !out.includes(p.version))
    return fail(
      `${p.bin} --version did not print ${p.version} (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}): ${out.trim().slice(0, 300)}`,
    );
  return { ...base, bin, nodeDir, reason: null };
}
