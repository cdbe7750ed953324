// Checking search results for the same fact shown twice, from the files alone (not from the
// index's own links): a raw hit is its `##` section; a summary hit is every raw section one of
// its snippet lines quotes word for word (label and list marker off).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchHit } from '../../src/search/search.js';

function lines(root: string, path: string, cache: Map<string, string[]>): string[] {
  let ls = cache.get(path);
  if (!ls) {
    try {
      ls = readFileSync(join(root, path), 'utf8').split('\n');
    } catch {
      ls = [];
    }
    cache.set(path, ls);
  }
  return ls;
}

/** `path:line` of the `##` section holding `line` (1-based) of a raw log. */
function sectionAt(path: string, ls: readonly string[], line: number): string {
  for (let l = line; l >= 1; l--) if (/^## /.test(ls[l - 1] ?? '')) return `${path}:${l}`;
  return `${path}:1`;
}

/** The text a summary line repeats: no list marker, checkbox or origin label. */
function quoted(line: string): string {
  return line
    .replace(/^\s*[-*+]\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/^(?:\d{2}-\d{2}|W\d{2}) · /, '')
    .trim();
}

/** The raw sections each hit shows, by content. `memoryDir` is workspace-relative, e.g. `memory`. */
export function rawSectionsShown(root: string, memoryDir: string, hits: readonly SearchHit[]): string[][] {
  const cache = new Map<string, string[]>();
  return hits.map((h) => {
    if (h.level === 'raw') return [sectionAt(h.path, lines(root, h.path, cache), h.lines.start)];
    if (!h.period) return [];
    const out = new Set<string>();
    for (const l of h.snippet.text.split('\n')) {
      const q = quoted(l.replace(/^…|…$/g, ''));
      if (q.length < 20 || /^#/.test(q)) continue;
      for (let d = new Date(`${h.period.start}T00:00:00Z`); d <= new Date(`${h.period.end}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) {
        const path = `${memoryDir}/${d.toISOString().slice(0, 10)}.md`;
        const ls = lines(root, path, cache);
        ls.forEach((x, i) => {
          if (x.includes(q)) out.add(sectionAt(path, ls, i + 1));
        });
      }
    }
    return [...out];
  });
}

/** Raw sections shown by more than one hit. */
export function shownTwice(root: string, memoryDir: string, hits: readonly SearchHit[]): string[] {
  const seen = new Map<string, number>();
  for (const sections of rawSectionsShown(root, memoryDir, hits)) for (const s of sections) seen.set(s, (seen.get(s) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([s]) => s);
}
