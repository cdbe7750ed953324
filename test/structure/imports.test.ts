// The folders of src/ in pipeline order, from reading memory to serving it: a file may import
// from its own folder and from folders before its own, never after. So no two folders import
// each other, and only the CLI imports the CLI. The README's Architecture section says what
// each folder owns.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/workspace.js';

const PIPELINE = [
  'time',
  'fs',
  'text',
  'redact',
  'config',
  'tree',
  'state',
  'plan',
  'write',
  'summarize',
  'compose',
  'cycle',
  'capture',
  'index',
  'search',
  'context',
  'platforms',
  'setup',
  'hooks',
  'daemon',
  'status',
  'api',
  'mcp',
  'cli',
] as const;

const SRC = join(REPO, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** `src/index/embed/wink.ts` → `index`; a file directly in src/ is the executable's: `cli`. */
const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split(/[\\/]/);
  return parts.length > 1 ? parts[0]! : 'cli';
};

function imports(): { from: string; to: string; file: string; spec: string }[] {
  const out: { from: string; to: string; file: string; spec: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!);
      out.push({ from: folderOf(file), to: folderOf(target), file: relative(REPO, file), spec: m[1]! });
    }
  }
  return out;
}

describe('the folders of src/', () => {
  it('are all in the pipeline order', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !(PIPELINE as readonly string[]).includes(f))).toEqual([]);
  });

  it('import only from their own folder or one before it', () => {
    const rank = (f: string): number => (PIPELINE as readonly string[]).indexOf(f);
    const upward = imports()
      .filter((i) => rank(i.to) > rank(i.from))
      .map((i) => `${i.file} → ${i.spec}`);
    expect(upward).toEqual([]);
  });

  it('sees the imports it checks (the scan is not empty)', () => {
    const all = imports();
    expect(all.length).toBeGreaterThan(500);
    expect(all.some((i) => i.from === 'cli' && i.to === 'cycle')).toBe(true);
  });
});

describe("the state folder's one owner", () => {
  it('no file outside src/state/ names a file of .hipo/: it asks statePath', () => {
    const naming = sourceFiles(SRC)
      .filter((f) => folderOf(f) !== 'state')
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/stateDir\s*,\s*['"`][^'"`]+/g)].map((m) => `${relative(REPO, f)}: ${m[0]}`));
    expect(naming).toEqual([]);
  });

  it('sees the paths it checks (state/ itself joins onto stateDir)', () => {
    const own = sourceFiles(join(SRC, 'state')).filter((f) => /join\(ws\.stateDir, /.test(readFileSync(f, 'utf8')));
    expect(own.map((f) => relative(SRC, f))).toContain(join('state', 'dir.ts'));
  });
});
