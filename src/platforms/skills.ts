// The skills shipped in `skills/` (SKILL.md: name, description, allowed-tools, and `metadata:
// generator: hipo` so an installed copy is recognisable as hipo's), filled in for one install:
// `{{hipo}}` becomes the command hooks use too (so the agent never depends on `hipo` being on
// its PATH, and `allowed-tools` grants exactly that command), `{{memory}}` the memory folder.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlannedFile } from './planned-file.js';

export const PACKAGED_SKILLS = fileURLToPath(new URL('../../skills/', import.meta.url));

export interface SkillVars {
  hipo: string;
  memory: string;
}

export function renderSkill(text: string, v: SkillVars): string {
  const out = text.replace(/\{\{(hipo|memory)\}\}/g, (_m, k: keyof SkillVars) => v[k]);
  // A command path with `#` or `: ` in it would end the YAML value early: quote it then.
  return out.replace(/^allowed-tools: (.*)$/m, (line, value: string) =>
    /#|: |^['"]/.test(value) ? `allowed-tools: ${JSON.stringify(value)}` : line,
  );
}

export function packagedSkillNames(): string[] {
  return readdirSync(PACKAGED_SKILLS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** One planned SKILL.md per packaged skill, under `targetDir/<skill>/SKILL.md`. */
export function skillFiles(targetDir: string, v: SkillVars): PlannedFile[] {
  return packagedSkillNames().map((name) => ({
    path: `${targetDir}/${name}/SKILL.md`,
    content: renderSkill(readFileSync(join(PACKAGED_SKILLS, name, 'SKILL.md'), 'utf8'), v),
  }));
}
