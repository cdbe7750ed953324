// The block scanner must agree with remark (the CommonMark reference) on what matters for
// sectioning: which lines are headings (depth, text) and which are fenced code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toString } from 'mdast-util-to-string';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { demoteHeadings, scanBlocks, sectionTree, splitLines } from '../../src/tree/markdown.js';
import { generateCorpus } from '../../bench/lib/corpus.js';
import { makeWorkspace } from '../helpers/workspace.js';

interface Shape {
  headings: string[];
  code: string[];
}

const inline = (s: string) =>
  s
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function remarkShape(text: string): Shape {
  const tree = unified().use(remarkParse).parse(text);
  const headings: string[] = [];
  const code: string[] = [];
  const last = splitLines(text).length; // remark counts the empty line after a final newline
  for (const n of tree.children) {
    if (n.type === 'heading') headings.push(`${n.position!.start.line}:h${n.depth}:${inline(toString(n))}`);
    // Only fenced code matters (indented code can never hold a heading line anyway).
    if (n.type === 'code' && /^\s{0,3}(```|~~~)/.test(text.split('\n')[n.position!.start.line - 1] ?? ''))
      code.push(`${n.position!.start.line}-${Math.min(last, n.position!.end.line)}`);
  }
  return { headings, code };
}

function scannerShape(text: string): Shape {
  const blocks = scanBlocks(splitLines(text));
  return {
    headings: blocks
      .filter((b) => b.kind === 'heading')
      .map((b) => `${b.line}:h${(b as { depth: number }).depth}:${inline((b as { text: string }).text)}`),
    code: blocks.filter((b) => b.kind === 'code').map((b) => `${b.line}-${b.endLine}`),
  };
}

const FIXTURES: Record<string, string> = {
  'headings in and out of fences': '# Title\n\n## real [project]\n- a\n```md\n## fake\n```\nafter\n## also real\n',
  'tilde and long fences': '~~~\n## no\n~~~\n\n````\n```\n## still code\n```\n````\n## yes\n',
  'unclosed fence runs to the end': '## before\n```\n## inside forever\n',
  'html comments hide headings': '<!--\n## hidden\n-->\n## shown\n<!-- one line --> text\n## shown too\n',
  'setext headings': 'Title here\n==========\n\nSub title\n---------\n- item\n---\n',
  'not headings': '#hashtag\n####### seven\n    ## indented four\n\\## escaped\n',
  'closing hashes and empty headings': '## title ##\n#\n### keep # inside\n## trailing #hash\n',
  'lists and quotes': '- item one\n  continued\n- ## not top-level in lists\n> ## quoted heading\n\nplain\n## after\n',
  'paragraph then rule': 'para line\n\n---\n\n## next\n',
  crlf: '# t\r\n\r\n## a\r\n```\r\n## b\r\n```\r\n',
  tabs: '##\tTabbed heading\n\t## tab indented\n',
};

describe('block scanner agrees with remark', () => {
  it.each(Object.entries(FIXTURES))('%s', (_name, text) => {
    expect(scannerShape(text)).toEqual(remarkShape(text));
  });

  it('on a generated month of raw logs', () => {
    const ws = makeWorkspace();
    generateCorpus(ws.memoryDir, { start: '2026-01-05', days: 30, seed: 3 });
    for (const f of readdirSync(ws.memoryDir)) {
      const text = readFileSync(join(ws.memoryDir, f), 'utf8');
      expect(scannerShape(text), f).toEqual(remarkShape(text));
    }
  });
});

describe('sections', () => {
  it('nests sections by heading depth with line ranges', () => {
    const text = '# Day\nintro\n## A [project]\n- a1\n### A.1\n- a2\n## B\n- b1\n';
    const root = sectionTree(scanBlocks(splitLines(text)), 8);
    const day = root.children[0]!;
    expect(day.heading).toBe('Day');
    expect(day.children.map((c) => [c.heading, c.line, c.endLine])).toEqual([
      ['A [project]', 3, 6],
      ['B', 7, 8],
    ]);
    expect(day.children[0]!.children[0]!.path).toEqual(['Day', 'A [project]', 'A.1']);
  });

  it('demotes headings outside fences only', () => {
    expect(demoteHeadings('# a\n```\n# code\n```\n## b\n', 1)).toBe('## a\n```\n# code\n```\n### b');
  });
});
