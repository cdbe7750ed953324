// A full garbage collection on demand, for the daemon's quiet moments. V8 lets a long-lived
// process's heap grow between changes (about 10 MB a change on a 10-year tree, collected only
// when the heap nears limits sized for the machine), so RSS climbs with every change it handles;
// collecting once after each batch keeps it near what is live. `gc` is not exposed by default;
// the flag can be set at run time and the function taken from a fresh context.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The `gc` function, or null where the runtime does not allow it. */
export function exposeGc(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}
