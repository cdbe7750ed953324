// sha256 of every file under a folder, by relative path: to tell whether two builds wrote the
// same tree byte for byte.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function treeHashes(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, treeHashes(dir, rel));
    else if (e.isFile())
      out[rel] = createHash('sha256')
        .update(readFileSync(join(dir, rel)))
        .digest('hex');
  }
  return out;
}
