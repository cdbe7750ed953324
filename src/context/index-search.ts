// Recall's third step over the whole tree: the search index's hybrid search, its hits turned
// into passages (file, line range, text). A hit in a summary node is followed by the raw
// sections it came from (the index's `sources`), which hold the detail.
import type { SearchIndex } from '../index/search-index.js';
import { rephrasings, search, type SectionRef } from '../search/search.js';
import type { SearchMode } from '../search/modes.js';
import type { Passage } from './passages.js';
import type { TreeSearch } from './recall.js';
import { clipLongLines, readInMemory } from './sources.js';

/** Lines of a passage read back from its file, at most this many. */
const MAX_LINES = 60;

export function indexTreeSearch(index: SearchIndex, memoryName: string, memoryDir: string, mode: SearchMode = 'hybrid'): TreeSearch {
  const files = new Map<string, string[] | null>();
  const lines = (rel: string): string[] | null => {
    if (!files.has(rel)) files.set(rel, readInMemory(memoryDir, rel, 16 * 1024 * 1024)?.text.split('\n') ?? null);
    return files.get(rel)!;
  };
  const passage = (ref: SectionRef): Passage | null => {
    const prefix = `${memoryName}/`;
    if (!ref.path.startsWith(prefix)) return null; // another indexed folder: not memory
    const rel = ref.path.slice(prefix.length);
    const all = lines(rel);
    if (!all) return null;
    const from = ref.lines.start;
    const to = Math.min(ref.lines.end, from + MAX_LINES - 1);
    const text = clipLongLines(all.slice(from - 1, to).join('\n').trim());
    return text ? { path: rel, from, to, text } : null;
  };
  return async (query, limit, also = []) => {
    const r = await search(index, query, { mode, limit, also: rephrasings(also) });
    const out: Passage[] = [];
    for (const h of r.hits) {
      const p = passage(h);
      if (p) out.push(p);
      for (const s of h.sources) {
        const q = passage(s);
        if (q) out.push(q);
      }
    }
    return out;
  };
}
