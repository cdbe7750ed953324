// Node templates: markdown files with `{{name}}` slots and `{{#name}}…{{/name}}` blocks that
// appear only when `name` has content. A workspace's own `templates/` folder overrides the
// templates shipped with hipo, file by file, so users can reshape their nodes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type TemplateName = 'daily' | 'weekly' | 'monthly' | 'root';
const TEMPLATE_NAMES: readonly TemplateName[] = ['daily', 'weekly', 'monthly', 'root'];

/** The templates folder shipped with the package (next to `dist/` and `src/`). */
export const PACKAGED_TEMPLATES = fileURLToPath(new URL('../../templates/', import.meta.url));

export class TemplateError extends Error {}

export interface TemplateSet {
  get(name: TemplateName): string;
  /** Where each template was read from. */
  readonly origins: Readonly<Record<TemplateName, string>>;
}

export function loadTemplates(workspaceRoot: string): TemplateSet {
  const texts = {} as Record<TemplateName, string>;
  const origins = {} as Record<TemplateName, string>;
  for (const name of TEMPLATE_NAMES) {
    const own = join(workspaceRoot, 'templates', `${name}.md`);
    const file = existsSync(own) ? own : join(PACKAGED_TEMPLATES, `${name}.md`);
    try {
      texts[name] = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
    } catch (err) {
      throw new TemplateError(`${file}: template cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    origins[name] = file;
  }
  return { get: (n) => texts[n], origins };
}

/** Fills a template. Unknown slots render empty; the result ends with one newline. */
export function renderTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  const withBlocks = template.replace(/\{\{#([\w-]+)\}\}\n?([\s\S]*?)\{\{\/\1\}\}\n?/g, (_m, name: string, inner: string) =>
    (vars[name] ?? '').trim() ? inner : '',
  );
  const filled = withBlocks.replace(/\{\{([\w-]+)\}\}/g, (_m, name: string) => (vars[name] ?? '').replace(/\s+$/, ''));
  return filled.replace(/\n{3,}/g, '\n\n').trim() + '\n';
}
