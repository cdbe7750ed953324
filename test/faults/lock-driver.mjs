// A contender for the append lock, run as its own process by locks.test.ts: waits until the
// given instant (so that all contenders race at once), takes the lock through hipo's own
// withAppendLock, and writes "enter"/"exit" lines around a short critical section. Two holders
// at once show up as an "enter" inside another's enter/exit pair.
import { appendFileSync } from 'node:fs';
import { workspaceAt } from '../../dist/tree/layout.js';
import { withAppendLock } from '../../dist/state/lock.js';

const [root, trace, id, at, holdMs] = process.argv.slice(2);
const ws = workspaceAt(root);
// Sleep until just before the start, then spin: all contenders leave the gate within a millisecond.
const gate = new Int32Array(new SharedArrayBuffer(4));
const rest = Number(at) - Date.now() - 3;
if (rest > 0) Atomics.wait(gate, 0, 0, rest);
while (Date.now() < Number(at)) {
  /* spin */
}
try {
  await withAppendLock(
    ws,
    async () => {
      appendFileSync(trace, `enter ${id}\n`);
      const until = Date.now() + Number(holdMs);
      while (Date.now() < until) {
        /* hold the lock, busy, like an append does */
      }
      appendFileSync(trace, `exit ${id}\n`);
    },
    20_000,
  );
} catch (err) {
  appendFileSync(trace, `failed ${id} ${err instanceof Error ? err.message : String(err)}\n`);
}
