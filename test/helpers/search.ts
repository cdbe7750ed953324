// Opening a test workspace's search index in-process, with the workspace's own config.
import { afterEach } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import type { Embedder } from '../../src/index/embed/embedder.js';
import { openIndex, type SearchIndex } from '../../src/index/search-index.js';
import type { Workspace } from '../../src/tree/layout.js';

const open: SearchIndex[] = [];
afterEach(() => {
  for (const i of open.splice(0)) i.close();
});

/** Opens the index of `ws` (closed after the test). */
export function indexOf(ws: Workspace, opts: { embedder?: Embedder | null; env?: NodeJS.ProcessEnv } = {}): SearchIndex {
  const { config } = loadConfig(ws.root);
  const index = openIndex(ws, config, opts);
  open.push(index);
  return index;
}

/** An embedder that counts the texts it is asked to embed (wrapping a real one). */
export function counting(inner: Embedder): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    id: inner.id,
    batchSize: inner.batchSize,
    fusionWeight: inner.fusionWeight,
    texts,
    async embed(batch) {
      texts.push(...batch);
      return inner.embed(batch);
    },
    embedQuery: (t) => inner.embedQuery(t),
    close: () => inner.close(),
  };
}
