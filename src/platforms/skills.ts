// The skills shipped in `skills/` (SKILL.md with name and description frontmatter), filled in
// for one workspace: `{{hipo}}` becomes the command that survives upgrades, `{{workspace}}` and
// `{{memory}}` the folders, so an agent never depends on `hipo` being on its PATH.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlannedFile } from './install.js';

export const PACKAGED_SKILLS = fileURLToPath(new URL('../../skills/', import.meta.url));

export interface SkillVars {
  hipo: string;
  workspace: string;
  memory: string;
}

export function renderSkill(text: string, v: SkillVars): string {
  return text.replace(/\{\{(hipo|workspace|memory)\}\}/g, (_m, k: keyof SkillVars) => v[k]);
}

/** One planned SKILL.md per packaged skill, under `targetDir/<skill>/SKILL.md`. */
export function skillFiles(targetDir: string, v: SkillVars): PlannedFile[] {
  return readdirSync(PACKAGED_SKILLS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => ({ path: `${targetDir}/${name}/SKILL.md`, content: renderSkill(readFileSync(join(PACKAGED_SKILLS, name, 'SKILL.md'), 'utf8'), v) }));
}
