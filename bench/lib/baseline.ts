// The build that bench:scale compares against: a built checkout given with --baseline DIR, or
// a commit (default: the one before HEAD) exported into a temp folder and built there with this
// checkout's node_modules (its own, installed there, when its package-lock.json differs). Built
// once per commit and reused by later runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Baseline {
  dir: string;
  label: string;
}

function git(repo: string, args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
}

export function prepareBaseline(repo: string, opts: { dir?: string; rev?: string }): Baseline {
  if (opts.dir) {
    const dir = resolve(opts.dir);
    if (!existsSync(join(dir, 'dist', 'cli.js')))
      throw new Error(`--baseline ${dir}: no dist/cli.js there (run "npm run build" in it first)`);
    return { dir, label: dir };
  }
  const rev = opts.rev ?? 'HEAD~1';
  const sha = git(repo, ['rev-parse', '--verify', `${rev}^{commit}`]);
  const dir = join(tmpdir(), `hipo-baseline-${sha.slice(0, 12)}`);
  const label = `${sha.slice(0, 8)} (${rev}: ${git(repo, ['log', '-1', '--format=%s', sha]).slice(0, 50)})`;
  if (existsSync(join(dir, 'dist', 'cli.js')) && existsSync(join(dir, '.built'))) return { dir, label };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`building the baseline ${label} in ${dir} …\n`);
  execFileSync('sh', ['-c', `git -C "${repo}" archive ${sha} | tar -x -C "${dir}"`], { stdio: 'inherit' });
  const lock = (d: string): string => (existsSync(join(d, 'package-lock.json')) ? readFileSync(join(d, 'package-lock.json'), 'utf8') : '');
  const own = lock(dir);
  if (own && own !== lock(repo)) {
    // Its own dependencies (a package added or removed since): installed once, kept with the build.
    process.stderr.write('the baseline has other dependencies than this checkout: npm ci in it …\n');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'ignore', cwd: dir });
  } else symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], {
    stdio: 'inherit',
    cwd: dir,
  });
  if (existsSync(join(dir, 'scripts', 'build-tokenizers.mjs')))
    execFileSync(process.execPath, [join(dir, 'scripts', 'build-tokenizers.mjs')], { stdio: 'ignore', cwd: dir });
  execFileSync('sh', ['-c', `touch "${join(dir, '.built')}"`]);
  return { dir, label };
}
