// An index build killed at a chosen point, run as its own process by index-kill.test.ts: builds
// the workspace's index with hipo's own updateIndex and SIGKILLs itself inside the transaction
// that writes the `at`-th row of `what` (a chunk, a chunk's vector, a summary line's link).
import { loadConfig } from '../../dist/config/config.js';
import { openIndex } from '../../dist/index/search-index.js';
import { updateIndex } from '../../dist/index/update.js';
import { workspaceAt } from '../../dist/tree/layout.js';

const [root, what, at] = process.argv.slice(2);
const TRIGGERS = {
  chunk: 'AFTER INSERT ON main.chunks',
  vector: 'AFTER UPDATE OF embedded ON main.chunks WHEN NEW.embedded != 0',
  link: 'AFTER INSERT ON main.chunk_links',
};
const index = openIndex(workspaceAt(root), loadConfig(root).config);
let rows = 0;
index.db.function('written', () => {
  if (++rows === Number(at)) {
    process.kill(process.pid, 'SIGKILL');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  }
  return rows;
});
// A trigger of this connection only: the index file itself is hipo's, untouched.
index.db.exec(`CREATE TEMP TRIGGER kill_at ${TRIGGERS[what]} BEGIN SELECT written(); END`);
await updateIndex(index);
console.log(`not killed: ${rows} row(s) written`);
