// npm run e2e: hipo with the real agent CLIs. Installs each CLI of test/e2e/agents.json at its
// pinned version into a cache folder outside the repository (${XDG_CACHE_HOME:-~/.cache}/hipo-e2e/
// <package>@<version>, reused when present; never into hipo's dependencies), then runs the
// end-to-end suite. The suite runs in a network namespace of its own with only the loopback
// interface when the machine allows one (root, unshare and ip), so nothing a CLI does at test
// time can reach the network: they talk to the fake model servers on 127.0.0.1 only.
//   node scripts/e2e.mjs [vitest arguments, e.g. test/e2e/codex.e2e.ts]
// A CLI that cannot be installed or run here is recorded with the reason; its tests are skipped
// and say why (cache folder, file <dir>.failed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pins = JSON.parse(readFileSync(join(repo, 'test', 'e2e', 'agents.json'), 'utf8')).agents;
const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hipo-e2e');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(1);

const dirName = (pkg, version) => `${pkg.replace(/\//g, '+')}@${version}`;

/** Installs `pkg@version` into its own cache folder; returns null or the reason it failed. */
function install(pkg, version, binPath) {
  const dir = join(cache, dirName(pkg, version));
  const done = join(dir, '.installed');
  rmSync(`${dir}.failed`, { force: true });
  if (existsSync(done) && existsSync(join(dir, binPath))) {
    console.log(`e2e: ${pkg}@${version} (cached)`);
    return null;
  }
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  // --prefix with its own folder: the package and its dependencies land there, nothing in the repo.
  const r = spawnSync(
    npm,
    ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `${pkg}@${version}`],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_nodedir: '' } },
  );
  if (r.status !== 0 || !existsSync(join(dir, binPath))) {
    const reason = `npm install ${pkg}@${version} failed: ${(r.stderr || r.stdout || r.error?.message || '').trim().split('\n').slice(-3).join(' / ')}`;
    writeFileSync(`${dir}.failed`, reason);
    console.log(`e2e: ${reason}`);
    return reason;
  }
  writeFileSync(done, new Date().toISOString());
  console.log(`e2e: installed ${pkg}@${version} (${seconds(t0)} s)`);
  return null;
}

function atLeast(version, wanted) {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = wanted.replace(/^>=/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

const t0 = performance.now();
for (const [name, p] of Object.entries(pins)) {
  const failed = install(p.package, p.version, join('node_modules', '.bin', p.bin));
  if (failed || !p.node || atLeast(process.versions.node, p.node)) continue;
  // The CLI needs a newer Node than this machine's: the node-<platform>-<arch> package ships one.
  const runtime = `node-${process.platform}-${process.arch}`;
  const why = install(runtime, p.runtime, join('node_modules', runtime, 'bin', 'node'));
  if (why)
    writeFileSync(
      join(cache, `${dirName(p.package, p.version)}.failed`),
      `${name} needs Node ${p.node} (this is ${process.version}) and ${why}`,
    );
}
console.log(`e2e: CLIs ready in ${cache} (${seconds(t0)} s)`);

const vitest = [
  join(repo, 'node_modules', 'vitest', 'vitest.mjs'),
  'run',
  '--config',
  join(repo, 'vitest.e2e.config.ts'),
  ...process.argv.slice(2),
];
const env = { ...process.env, HIPO_E2E_CACHE: cache };
const canIsolate =
  process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'ip', 'link', 'set', 'lo', 'up']).status === 0;
let r;
if (canIsolate) {
  console.log('e2e: running in a network namespace with only the loopback interface');
  const script = 'ip link set lo up && exec "$0" "$@"';
  r = spawnSync('unshare', ['-n', 'sh', '-c', script, process.execPath, ...vitest], {
    cwd: repo,
    stdio: 'inherit',
    env: { ...env, HIPO_E2E_ISOLATED: '1' },
  });
} else {
  console.log('e2e: no network namespace here (needs root, unshare and ip): the CLIs are pointed at 127.0.0.1 by configuration only');
  r = spawnSync(process.execPath, vitest, { cwd: repo, stdio: 'inherit', env });
}
process.exit(r.status ?? 1);
