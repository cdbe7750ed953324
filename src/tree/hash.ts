import { createHash } from 'node:crypto';

/** Content hash used for change detection: sha256, first 16 hex digits. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 16);
}

/** Hash of an ordered list of parts, unambiguous about where one part ends. */
export function hashParts(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p.length}:`).update(p).update('\u0000');
  return h.digest('hex').slice(0, 16);
}
