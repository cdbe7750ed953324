// Part of `npm run build`: writes the Claude Code plugin's generated files (its skills, rendered
// from skills/, and its version) into plugin/claude-code/. See src/platforms/claude-plugin.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PLUGIN_DIR, pluginGeneratedFiles } from '../dist/platforms/claude-plugin.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
let changed = 0;
for (const [rel, content] of Object.entries(pluginGeneratedFiles(version))) {
  const abs = join(PLUGIN_DIR, rel);
  let old = null;
  try {
    old = readFileSync(abs, 'utf8');
  } catch {
    /* new */
  }
  if (old === content) continue;
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  changed++;
}
console.log(`plugin/claude-code: ${changed} generated file(s) written`);
