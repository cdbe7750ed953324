import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listIndexableFiles, type FileListing } from '../../src/index/files.js';
import { workspaceAt, type Workspace } from '../../src/tree/layout.js';
import { makeWorkspace } from '../helpers/workspace.js';

const TOKEN = 'ghp_R8mZ2qW7xK4vN1tY6pB3sD9fH5jL0cG2aE7u';

/** A tree with one of each thing the listing tells apart, and a folder outside the workspace. */
function tree() {
  const ws = makeWorkspace({
    // Raw logs, a dated note of a day, a date that is none.
    'memory/2026-03-15.md': 'a',
    'memory/2026-03-16.md': 'bb',
    'memory/2026-03-15-standup.md': 'c',
    'memory/2026-02-30-retro.md': 'd',
    // A node of each level, and names in their folders that are none.
    'memory/daily/2026-03-15.md': 'e',
    'memory/weekly/2026-W11.md': 'f',
    'memory/weekly/2026-W54.md': 'g',
    'memory/monthly/2026-03.md': 'h',
    'memory/monthly/2026-13.md': 'i',
    'memory/daily/notes.md': 'j',
    'memory/ROOT.md': 'k',
    // Other markdown, one with a date in its name, one upper-case; not markdown.
    'memory/notes/ideas.md': 'l',
    'memory/notes/2026-03-17 planning.md': 'm',
    'memory/notes/deep/README.MD': 'n',
    'memory/notes/plan.txt': 'o',
    // Hidden and dependency folders, a hidden file.
    'memory/.obsidian/workspace.md': 'p',
    'memory/.draft.md': 'q',
    'memory/node_modules/pkg/README.md': 'r',
    // A name that holds a secret, in the tree and in an included folder's folder name.
    [`memory/2026-03-18-${TOKEN}.md`]: 's',
    [`memory/notes/${TOKEN}.md`]: 't',
    [`knowledge/${TOKEN}/keys.md`]: 'u',
    // Included: a folder and a file.
    'knowledge/auth.md': 'v',
    'knowledge/2025-12-01-incident.md': 'w',
    'knowledge/node_modules/x.md': 'x',
    'knowledge/.git/y.md': 'y',
    'notes.md': 'z',
    'outside.md': 'outside',
  });
  const m = ws.memoryDir;
  symlinkSync(join(m, 'notes', 'ideas.md'), join(m, 'link.md'));
  symlinkSync(join(ws.root, 'outside.md'), join(m, 'out.md'));
  symlinkSync('gone.md', join(m, 'dangling.md'));
  symlinkSync(join(m, 'notes'), join(m, 'folder.md'));
  symlinkSync(join(m, 'notes'), join(m, 'notes-link'));
  return ws;
}

/** The listing as plain data: what it names, what it found out, and where. */
function shown(ws: Workspace, listing: FileListing) {
  return {
    files: listing.files.map((f) => {
      expect(f.stats.mtimeMs, f.path).toBe(statSync(f.abs).mtimeMs);
      return [
        f.path,
        f.abs === join(ws.root, ...f.path.split('/')) ? '=' : f.abs,
        f.level,
        f.period && `${f.period.start}..${f.period.end}`,
        f.stats.size,
      ];
    }),
    problems: listing.problems,
  };
}

const SECRET_PROBLEM = 'skipped: its name holds a secret, which the search index would copy; rename the file';

// A guard: the listing is made with less work per file (see files.ts); these are its exact answers.
describe('the files the index covers', () => {
  it('are every markdown file of the tree and the included paths, each described, the rest named as problems', () => {
    const ws = tree();
    const listing = listIndexableFiles(ws, ['knowledge', 'notes.md', 'missing']);
    expect(shown(ws, listing).files).toEqual([
      ['knowledge/2025-12-01-incident.md', '=', 'other', '2025-12-01..2025-12-01', 1],
      ['knowledge/auth.md', '=', 'other', null, 1],
      ['memory/2026-02-30-retro.md', '=', 'other', null, 1],
      ['memory/2026-03-15-standup.md', '=', 'raw', '2026-03-15..2026-03-15', 1],
      ['memory/2026-03-15.md', '=', 'raw', '2026-03-15..2026-03-15', 1],
      ['memory/2026-03-16.md', '=', 'raw', '2026-03-16..2026-03-16', 2],
      ['memory/ROOT.md', '=', 'root', null, 1],
      ['memory/daily/2026-03-15.md', '=', 'daily', '2026-03-15..2026-03-15', 1],
      ['memory/daily/notes.md', '=', 'other', null, 1],
      ['memory/link.md', '=', 'other', null, 1],
      ['memory/monthly/2026-03.md', '=', 'monthly', '2026-03-01..2026-03-31', 1],
      ['memory/monthly/2026-13.md', '=', 'other', null, 1],
      ['memory/notes/2026-03-17 planning.md', '=', 'other', '2026-03-17..2026-03-17', 1],
      ['memory/notes/deep/README.MD', '=', 'other', null, 1],
      ['memory/notes/ideas.md', '=', 'other', null, 1],
      ['memory/weekly/2026-W11.md', '=', 'weekly', '2026-03-09..2026-03-15', 1],
      ['memory/weekly/2026-W54.md', '=', 'other', null, 1],
      ['notes.md', '=', 'other', null, 1],
    ]);
    // In the order the folders were read in, which is the file system's.
    expect(listing.problems.toSorted()).toEqual(
      [
        `memory/2026-03-18-[REDACTED:github-token].md: ${SECRET_PROBLEM}`,
        'memory/dangling.md: skipped: a link to gone.md, which does not exist',
        `memory/notes/[REDACTED:github-token].md: ${SECRET_PROBLEM}`,
        'memory/out.md: skipped: a link to outside memory',
        `knowledge/[REDACTED:github-token]/keys.md: ${SECRET_PROBLEM}`,
        'search.include "missing": does not exist',
      ].toSorted(),
    );
  });

  it('are the same whether a folder is walked from the tree or from an include around it', () => {
    const ws = tree();
    const alone = listIndexableFiles(ws, []);
    const around = listIndexableFiles(ws, ['.']);
    const memory = (l: FileListing) => shown(ws, l).files.filter(([path]) => String(path).startsWith('memory/'));
    // A link is followed while it stays inside the folder walked: `out.md` leaves the tree, not the workspace.
    expect(memory(around)).toEqual([...memory(alone), ['memory/out.md', '=', 'other', null, 7]].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
    expect(
      shown(ws, around)
        .files.map(([path]) => path)
        .filter((p) => !String(p).startsWith('memory/')),
    ).toEqual(['knowledge/2025-12-01-incident.md', 'knowledge/auth.md', 'notes.md', 'outside.md']);
    // Only the named memory files, the rest of the tree unwalked: an include around it still lists them.
    const named = listIndexableFiles(ws, [], ['2026-03-15.md', 'daily/2026-03-15.md', 'notes/ideas.md', '.draft.md', 'gone.md']);
    expect(shown(ws, named).files.map((f) => f.slice(0, 4))).toEqual([
      ['memory/2026-03-15.md', '=', 'raw', '2026-03-15..2026-03-15'],
      ['memory/daily/2026-03-15.md', '=', 'daily', '2026-03-15..2026-03-15'],
      ['memory/notes/ideas.md', '=', 'other', null],
    ]);
    expect(shown(ws, listIndexableFiles(ws, ['.'], ['notes/ideas.md'])).files).toEqual(shown(ws, around).files);
  });

  it('are described from the workspace when the tree is the workspace folder, or outside it', () => {
    const ws = tree();
    const flat = workspaceAt(ws.memoryDir, '.');
    expect(shown(flat, listIndexableFiles(flat, [])).files.map((f) => f.slice(0, 4))).toEqual(
      shown(ws, listIndexableFiles(ws, []))
        .files.filter(([path]) => String(path).startsWith('memory/'))
        .map(([path, abs, level, period]) => [String(path).slice('memory/'.length), abs, level, period]),
    );
    const away = join(ws.root, 'away');
    mkdirSync(join(away, 'daily'), { recursive: true });
    writeFileSync(join(away, 'daily', '2026-03-15.md'), 'x');
    writeFileSync(join(away, '2026-03-15.md'), 'y');
    const beside = workspaceAt(join(ws.root, 'knowledge'), '../away');
    expect(shown(beside, listIndexableFiles(beside, ['auth.md', '../notes.md']))).toEqual({
      files: [
        ['../away/2026-03-15.md', '=', 'raw', '2026-03-15..2026-03-15', 1],
        ['../away/daily/2026-03-15.md', '=', 'daily', '2026-03-15..2026-03-15', 1],
        ['../notes.md', '=', 'other', null, 1],
        ['auth.md', '=', 'other', null, 1],
      ],
      problems: [],
    });
  });
});
