// ROOT.md is loaded whole at every session start (the SessionStart context, hipo://memory/ROOT.md,
// an @memory/ROOT.md import): its frontmatter must not grow with the years of history, and
// rootMaxTokens holds for the whole file.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../../src/text/tokens.js';
import { cycle, node, rawLog } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

const WORDS = ['kafka', 'postgres', 'redis', 'deploy', 'invoice', 'garden', 'piano', 'camera', 'bicycle', 'dentist', 'novel', 'hiking'];

describe('ROOT.md over fifteen years', () => {
  it('keeps its frontmatter to a few lines and the whole file under rootMaxTokens', async () => {
    const ws = makeWorkspace();
    // One small log a month, 2012-01 to 2026-12: 180 months.
    for (let i = 0; i < 180; i++) {
      const month = `${2012 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
      const a = WORDS[i % WORDS.length]!;
      const b = WORDS[(i * 5 + 3) % WORDS.length]!;
      ws.write(
        `memory/${month}-10.md`,
        rawLog(`${month}-10`, {
          [`${a} ${b} ${i} [project]`]: [`moved the ${a} work along, step ${i}`],
          [`${b} notes ${i} [reference]`]: [`the ${b} manual lives under docs/${b}-${i}`],
        }),
      );
    }
    const r = await cycle(ws, '2027-01-20', { catchUp: true });
    expect(r.errors).toEqual([]);
    const text = ws.read('memory/ROOT.md');
    const root = node(ws, 'ROOT.md');
    expect(root.data['months-covered']).toBe('2012-01 to 2026-12 (180 months)');
    // The monthly nodes ROOT reads whole, not every month it draws topics from.
    expect(root.data['source-files']).toEqual(['memory/monthly/2026-11.md', 'memory/monthly/2026-12.md']);
    const frontmatter = text.slice(0, text.length - root.body.length);
    expect(frontmatter.split('\n').length).toBeLessThanOrEqual(12);
    const count = await loadTokenCounter('o200k_base');
    // The body fills what the frontmatter leaves: the cap is met by the file, not the body alone.
    expect(count(text)).toBeLessThanOrEqual(3000);
    expect(count(text)).toBeGreaterThan(2800);
    // `tokens` still counts the body (its text after the frontmatter's blank line).
    expect(Math.abs(Number(root.data.tokens) - count(root.body))).toBeLessThanOrEqual(1);

    // Current on the next run; a month that changes makes it stale, as before.
    expect((await cycle(ws, '2027-01-20')).plan.actions).toEqual([]);
    appendFileSync(join(ws.memoryDir, '2019-05-10.md'), '\n## late entry [project]\n- found the 2019 kafka notes\n');
    const again = await cycle(ws, '2027-01-20', { catchUp: true });
    expect(again.written).toContain('ROOT.md');
    ws.write('memory/2027-01-15.md', rawLog('2027-01-15', { 'new year [project]': ['started the new year'] }));
    await cycle(ws, '2027-01-20', { catchUp: true });
    expect(node(ws, 'ROOT.md').data['months-covered']).toBe('2012-01 to 2027-01 (181 months)');
    expect(node(ws, 'ROOT.md').data['source-files']).toEqual(['memory/monthly/2026-12.md', 'memory/monthly/2027-01.md']);
  });
});
