import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/write/template.js';
import { cycle, node } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

describe('templates', () => {
  it('fills slots and drops blocks whose slot is empty', () => {
    const t = '# {{title}}\n\n{{#open}}\n## Open\n{{open}}\n{{/open}}\n\n{{#done}}\n## Done\n{{done}}\n{{/done}}\n';
    expect(renderTemplate(t, { title: 'W11', open: '- x', done: '' })).toBe('# W11\n\n## Open\n- x\n');
  });

  it("uses the workspace's own template over the packaged one", async () => {
    const lines = Array.from({ length: 250 }, (_, i) => `- decided item ${i} for the parser`).join('\n');
    const ws = makeWorkspace({
      'templates/daily.md': '# My day {{title}}\n\n## Topics\n{{topics}}\n\n## Choices\n{{decisions}}\n',
      'memory/2026-06-01.md': `# 2026-06-01\n\n## parser [project]\n${lines}\n`,
    });
    await cycle(ws, '2026-06-02');
    const body = node(ws, 'daily/2026-06-01.md').body;
    expect(body).toMatch(
      /^\n# My day 2026-06-01 \(Mon\)\n\nSources: \[raw log\]\(\.\.\/2026-06-01\.md\) · Up: [^\n]*\n\n## Topics\n- parser \[project\]/,
    );
    expect(body).toMatch(/## Choices\n- parser: decided item \d+ for the parser/);
    expect(body).toMatch(/- parser \[project\]: item\n/);
    expect(body).not.toContain('## Key Decisions');
  });
});
