// Rows of float32 vectors kept for scanning, and the scan: a query's dot product with every row.
// In WebAssembly SIMD when the runtime has it (dots.wat; about five times faster than the plain
// loop at 100 dimensions: 45,000 rows in ~1 ms instead of ~5), else in JavaScript. Both add the
// same float64 products in the same order — four running sums, d mod 4, then (s0 + s1) + (s2 + s3)
// — so they give the same sums bit for bit, and so does `dot` for one row.
import { DOTS_WASM } from './dots-wasm.js';

const PAGE_BYTES = 65536;

// What this file uses of the WebAssembly global (Node's types declare it only with the DOM's).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
/** A compiled module. */
export interface WasmModule {
  readonly compiled: unknown;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => unknown;
  Instance: new (module: unknown) => { exports: unknown };
}
const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly ?? null;

export interface VectorRows {
  readonly dims: number;
  /** Rows there is room for. */
  readonly capacity: number;
  /** Row i is `vectors[i * dims … (i + 1) * dims)`. A new view after `grow`: read it again. */
  readonly vectors: Float32Array;
  /** Room for `capacity` rows, the rows kept. */
  grow(capacity: number): void;
  /** The query's dot product with rows 0 … rows − 1: a view, valid until the next scan or grow. */
  scan(query: Float32Array, rows: number): Float64Array;
}

/** One row's dot product with the query, added as the scan adds it. */
export function dot(v: Float32Array, offset: number, query: Float32Array): number {
  const dims = query.length;
  const four = dims - (dims % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let d = 0; d < four; d += 4) {
    const b = offset + d;
    s0 += v[b]! * query[d]!;
    s1 += v[b + 1]! * query[d + 1]!;
    s2 += v[b + 2]! * query[d + 2]!;
    s3 += v[b + 3]! * query[d + 3]!;
  }
  let sum = s0 + s1 + (s2 + s3);
  for (let d = four; d < dims; d++) sum += v[offset + d]! * query[d]!;
  return sum;
}

class PlainRows implements VectorRows {
  vectors: Float32Array;
  private sums: Float64Array;

  constructor(
    readonly dims: number,
    public capacity: number,
  ) {
    this.vectors = new Float32Array(capacity * dims);
    this.sums = new Float64Array(capacity);
  }

  grow(capacity: number): void {
    const vectors = new Float32Array(capacity * this.dims);
    vectors.set(this.vectors.subarray(0, Math.min(this.capacity, capacity) * this.dims));
    this.vectors = vectors;
    this.sums = new Float64Array(capacity);
    this.capacity = capacity;
  }

  scan(query: Float32Array, rows: number): Float64Array {
    for (let r = 0; r < rows; r++) this.sums[r] = dot(this.vectors, r * this.dims, query);
    return this.sums.subarray(0, rows);
  }
}

type DotsFn = (q: number, v: number, rows: number, dims: number, out: number) => void;

/**
 * Memory layout: the query as float64s at 0, the rows from `rowsAt` (16-aligned), the sums
 * after the last row there is room for (they move when the rows grow; the rows stay put).
 */
class WasmRows implements VectorRows {
  vectors!: Float32Array;
  private query!: Float64Array;
  private readonly memory: WasmMemory;
  private readonly dots: DotsFn;
  private readonly rowsAt: number;

  constructor(
    module: WasmModule,
    readonly dims: number,
    public capacity: number,
  ) {
    this.rowsAt = Math.ceil((dims * 8) / 16) * 16;
    // The module has a memory of its own (one page), grown to the room asked for.
    const exported = new wasmApi!.Instance(module.compiled).exports as { memory: WasmMemory; dots: DotsFn };
    this.memory = exported.memory;
    this.dots = exported.dots;
    this.grow(capacity);
  }

  private sumsAt(capacity: number): number {
    return this.rowsAt + capacity * this.dims * 4;
  }

  private pagesFor(capacity: number): number {
    return Math.ceil((this.sumsAt(capacity) + capacity * 8) / PAGE_BYTES);
  }

  private views(): void {
    this.query = new Float64Array(this.memory.buffer, 0, this.dims);
    this.vectors = new Float32Array(this.memory.buffer, this.rowsAt, this.capacity * this.dims);
  }

  /** Only ever larger: the rows stay where they are, the sums move past them. */
  grow(capacity: number): void {
    const need = this.pagesFor(capacity) - this.memory.buffer.byteLength / PAGE_BYTES;
    if (need > 0) this.memory.grow(need);
    this.capacity = capacity;
    this.views();
  }

  scan(query: Float32Array, rows: number): Float64Array {
    this.query.set(query);
    const at = this.sumsAt(this.capacity);
    this.dots(0, this.rowsAt, rows, this.dims, at);
    return new Float64Array(this.memory.buffer, at, rows);
  }
}

/** The compiled scan, or null where WebAssembly SIMD is not available. */
export function dotsModule(): WasmModule | null {
  const bytes = Buffer.from(DOTS_WASM, 'base64');
  try {
    return wasmApi?.validate(bytes) ? { compiled: new wasmApi.Module(bytes) } : null;
  } catch {
    return null; // WebAssembly there but not allowed to compile (`node --jitless`)
  }
}

/**
 * Room for `capacity` rows of `dims` floats, scanned by `module` (dotsModule()) when given and
 * the rows are a multiple of 4 floats long (every embedder's are), else by plain JavaScript.
 */
export function vectorRows(dims: number, capacity: number, module: WasmModule | null): VectorRows {
  if (module && dims % 4 === 0 && dims > 0)
    try {
      return new WasmRows(module, dims, capacity);
    } catch {
      // No memory to be had for the module (a runtime that limits it): the plain loop does the same.
    }
  return new PlainRows(dims, capacity);
}
