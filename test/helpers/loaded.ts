// Which modules a `hipo` run loads: an ESM loader hook (passed with NODE_OPTIONS) that names
// every file module it loads on stderr, for tests of what a command does not load.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO } from './workspace.js';

const MARK = 'hipo-test-loaded ';

let hook: string | null = null;

/** NODE_OPTIONS that make a node process report the modules it loads. */
export function loadReportingEnv(): NodeJS.ProcessEnv {
  if (!hook) {
    const dir = mkdtempSync(join(tmpdir(), 'hipo-loaded-'));
    hook = join(dir, 'hook.mjs');
    const loader = `export async function load(url, context, next) { if (url.startsWith('file:')) process._rawDebug(${JSON.stringify(MARK)} + url); return next(url, context); }`;
    writeFileSync(
      hook,
      `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(loader)}));\n`,
    );
  }
  return { NODE_OPTIONS: `--import=${hook}` };
}

/** The repository-relative paths of the modules a run reported on its stderr. */
export function loadedModules(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith(MARK))
    .map((l) => relative(REPO, fileURLToPath(l.slice(MARK.length).trim())));
}
