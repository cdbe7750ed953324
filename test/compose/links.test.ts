// Browsing the tree in an editor: every node links to its sources and parents, ROOT to the
// nodes, with relative markdown links that VS Code, Obsidian and GitHub resolve the same way
// (relative to the file, forward slashes, no spaces, no absolute paths). Every link of a
// generated tree must lead to a file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPack } from '../../src/context/pack.js';
import { matchTopics } from '../../src/context/manifest.js';
import { nodeLinksLine } from '../../src/compose/links.js';
import { isNodeLinksLine } from '../../src/tree/node-links.js';
import { cycle, node, rawLog } from '../helpers/tree.js';
import { makeWorkspace, REPO, type TestWorkspace } from '../helpers/workspace.js';

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const abs = join(dir, n);
    if (statSync(abs).isDirectory()) out.push(...markdownFiles(abs));
    else if (n.endsWith('.md')) out.push(abs);
  }
  return out;
}

/** Every `[text](target)` outside code, with the file it is in. */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\[[^\]\n]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** Checks every link of the tree; returns how many there were. */
function checkLinks(ws: TestWorkspace): number {
  const memory = resolve(ws.memoryDir);
  let n = 0;
  for (const file of markdownFiles(memory)) {
    for (const target of links(file)) {
      if (/^https?:/.test(target)) continue;
      const where = `${relative(ws.root, file)} → ${target}`;
      expect(target, where).toMatch(/^[\w./-]+\.md$/); // relative, forward slashes, no spaces or anchors
      const abs = resolve(dirname(file), target);
      expect(abs.startsWith(memory + sep), where).toBe(true);
      expect(existsSync(abs), where).toBe(true);
      n++;
    }
  }
  return n;
}

describe('links between nodes, ROOT and raw logs', () => {
  it('the example memory: every link of the compacted tree resolves, and each level links down and up', async () => {
    const files: Record<string, string> = {};
    for (const n of readdirSync(join(REPO, 'memory')).filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f)))
      files[`memory/${n}`] = readFileSync(join(REPO, 'memory', n), 'utf8');
    const ws = makeWorkspace(files, { timeZone: 'Europe/Berlin' });
    await cycle(ws, '2026-11-21', { catchUp: true });
    expect(checkLinks(ws)).toBeGreaterThan(100);
    expect(node(ws, 'daily/2026-11-20.md').body).toContain(
      '\n# 2026-11-20\n\nSources: [raw log](../2026-11-20.md) · Up: [2026-W47](../weekly/2026-W47.md) · [2026-11](../monthly/2026-11.md) · [ROOT](../ROOT.md)\n\n## Topics\n',
    );
    expect(node(ws, 'monthly/2026-11.md').body).toMatch(
      /\nSources: \[2026-W45\]\(\.\.\/weekly\/2026-W45\.md\) · .* · Up: \[ROOT\]\(\.\.\/ROOT\.md\)\n/,
    );
    const root = ws.read('memory/ROOT.md');
    expect(root).toMatch(/\n- search-latency \[project, \d+d\]: [^\n]* → \[2026-11-20\]\(daily\/2026-11-20\.md\)\n/);
    // A parent's concatenation does not repeat its children's links lines.
    expect(node(ws, 'weekly/2026-W47.md').body.split('\n').filter(isNodeLinksLine)).toHaveLength(1);
    // Recall still reads the day of a topic's last mention from the link.
    expect(matchTopics(root.replace(/^---[\s\S]*?---\n/, ''), ['search', 'latency'])[0]).toMatchObject({
      name: 'search-latency',
      latest: '2026-11-20',
    });
    // The context pack is for reading, not clicking: plain paths, no links lines.
    const pack = buildPack({
      memoryDir: ws.memoryDir,
      memoryName: 'memory',
      today: '2026-11-21',
      timeZone: 'Europe/Berlin',
      budget: 6000,
      unit: 'chars',
      measure: (s) => s.length,
    });
    expect(pack.text).not.toMatch(/^Sources: /m);
    expect(pack.text).toMatch(/→ daily\/2026-11-20\.md/);
  });

  it('a week across a month boundary links to the months its days are in, and years of history resolve', async () => {
    const files: Record<string, string> = {};
    for (const d of ['2025-12-29', '2025-12-31', '2026-01-02', '2026-01-30', '2026-02-02', '2026-03-31'])
      files[`memory/${d}.md`] = rawLog(d, { [`topic ${d.slice(5, 7)} [project]`]: [`worked on item ${d}`] });
    const ws = makeWorkspace(files);
    await cycle(ws, '2026-04-20', { catchUp: true });
    expect(checkLinks(ws)).toBeGreaterThan(30);
    expect(node(ws, 'weekly/2026-W01.md').body).toContain(
      'Up: [2025-12](../monthly/2025-12.md) · [2026-01](../monthly/2026-01.md) · [ROOT](../ROOT.md)',
    );
    // 2026-W14 runs from March 30 to April 5 and has only a March day: no link to an April node that does not exist.
    expect(node(ws, 'weekly/2026-W14.md').body).toContain('Up: [2026-03](../monthly/2026-03.md) · [ROOT](../ROOT.md)');
  });

  it('links from a memory folder with another name are still relative to the node', () => {
    expect(nodeLinksLine({ level: 'daily', date: '2026-03-15' }, ['notes/mem/2026-03-15.md'], 'notes/mem')).toBe(
      'Sources: [raw log](../2026-03-15.md) · Up: [2026-W11](../weekly/2026-W11.md) · [2026-03](../monthly/2026-03.md) · [ROOT](../ROOT.md)',
    );
    expect(
      nodeLinksLine({ level: 'monthly', month: '2026-03' }, ['memory/weekly/2026-W10.md', 'memory/weekly/2026-W11.md'], 'memory'),
    ).toBe('Sources: [2026-W10](../weekly/2026-W10.md) · [2026-W11](../weekly/2026-W11.md) · Up: [ROOT](../ROOT.md)');
  });
});
