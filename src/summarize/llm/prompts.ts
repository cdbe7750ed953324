// Prompts: markdown files in `templates/prompts/` (one per level, one for ROOT recompaction),
// loaded like node templates: a workspace's own `templates/prompts/<name>.md` overrides the one
// shipped with hipo, so users can tune what the model is asked. `{{slots}}` are filled by hipo.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGED_TEMPLATES, TemplateError } from '../../write/template.js';
import { splitLines } from '../../tree/markdown.js';

export type PromptName = 'daily' | 'weekly' | 'monthly' | 'root-recompact';
const PROMPT_NAMES: readonly PromptName[] = ['daily', 'weekly', 'monthly', 'root-recompact'];

export interface PromptSet {
  get(name: PromptName): string;
  readonly origins: Readonly<Record<PromptName, string>>;
}

export function loadPrompts(workspaceRoot: string): PromptSet {
  const texts = {} as Record<PromptName, string>;
  const origins = {} as Record<PromptName, string>;
  for (const name of PROMPT_NAMES) {
    const own = join(workspaceRoot, 'templates', 'prompts', `${name}.md`);
    const file = existsSync(own) ? own : join(PACKAGED_TEMPLATES, 'prompts', `${name}.md`);
    try {
      texts[name] = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
    } catch (err) {
      throw new TemplateError(`${file}: prompt cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    origins[name] = file;
  }
  return { get: (n) => texts[n], origins };
}

export interface NodeShape {
  /** The node's title line as hipo writes it (`# Daily Summary: {{title}}`), unfilled. */
  titleLine: string;
  /** The `##` section headings of the node template, in order (`Topics`, `User Facts`, …). */
  sections: string[];
}

/** The sections a node template lays out; the model is asked to write exactly these. */
export function nodeShape(template: string): NodeShape {
  let titleLine = '# {{title}}';
  const sections: string[] = [];
  let inFence = false;
  for (const line of splitLines(template)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const h1 = /^#\s+(.+)$/.exec(line);
    if (h1 && sections.length === 0 && titleLine === '# {{title}}') titleLine = line.trim();
    const h2 = /^##\s+(.+?)\s*$/.exec(line);
    if (h2 && !sections.includes(h2[1]!)) sections.push(h2[1]!);
  }
  if (!sections.some((s) => /^topics$/i.test(s))) sections.unshift('Topics');
  return { titleLine, sections };
}
