// The Claude Code plugin shipped in the package (`plugin/claude-code/`): its skills are the
// packaged ones rendered for a plugin (the command is plain `hipo`: the plugin's launcher, or
// the hipo installed on the machine), and its version is the package's. The build writes them
// (scripts/build-plugin.mjs); a test holds the committed copy to this rendering.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGED_SKILLS, packagedSkillNames, renderSkill } from './skills.js';

export const PLUGIN_DIR = fileURLToPath(new URL('../../plugin/claude-code/', import.meta.url));

/** The plugin's files that are generated, by path relative to the plugin folder. */
export function pluginGeneratedFiles(version: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of packagedSkillNames()) {
    out[`skills/${name}/SKILL.md`] = renderSkill(readFileSync(join(PACKAGED_SKILLS, name, 'SKILL.md'), 'utf8'), {
      hipo: 'hipo',
      memory: 'memory',
    });
  }
  const manifest = JSON.parse(readFileSync(join(PLUGIN_DIR, '.claude-plugin', 'plugin.json'), 'utf8')) as Record<string, unknown>;
  out['.claude-plugin/plugin.json'] = `${JSON.stringify({ ...manifest, version }, null, 2)}\n`;
  return out;
}
