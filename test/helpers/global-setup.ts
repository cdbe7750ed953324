// Builds dist/ once before the suite, so tests can run the real `hipo` executable.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '..', '..');
  execFileSync(process.execPath, [resolve(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', resolve(root, 'tsconfig.json')], {
    stdio: 'inherit',
  });
}
