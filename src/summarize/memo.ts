// What a resident process (the daemon) keeps between cycles for the extractive summarizer, as an
// object it owns and passes in (compact's `memo`): a parent node is re-summarized from all its
// children whenever one changes, and nearly all of those sources and lines are the ones it read
// last time. A one-shot command passes none and computes everything once.
//   parts   each source's entries, texts and term frequencies, by a digest of (rules, label,
//           first line, text); entries are never mutated after collection, so sharing is safe;
//   lines   each line's shape (its words), dedupe key and entities: what depends on the line
//           alone. Scores depend on a node's term statistics and are computed every time.
// Both are bounded by the characters they hold; `release` drops them (after bulk work, before
// a quiet spell), the limits stay.
import type { LineEntities } from './classify.js';

/** A source's analysis that depends on it alone (analyze.ts). */
export interface SourceParts {
  entries: import('./entries.js').Entry[];
  texts: string[];
  tfs: Map<string, number>[];
  chars: number;
}

export interface SentenceShape {
  /** Distinct content words, in first-seen order. */
  distinct: string[];
  /** Content words, with repeats. */
  words: number;
  /** Has a digit; has a capitalised word after a space (a name). */
  digit: boolean;
  name: boolean;
}

export class SummaryMemo {
  private readonly parts = new Map<string, SourceParts>();
  private partChars = 0;
  private readonly shapes = new Map<string, SentenceShape>();
  private readonly keys = new Map<string, string>();
  private readonly entities = new Map<string, LineEntities>();
  private lineChars = 0;

  /** Keeps parts of up to `chars` characters of sources, and lines of twice that. */
  constructor(private readonly chars = 2 * 1024 * 1024) {}

  /** The parts kept under `key`, or computed and kept (a source over an eighth of the room is not). */
  sourceParts(key: string, compute: () => SourceParts): SourceParts {
    const hit = this.parts.get(key);
    if (hit) {
      // Most recently used last.
      this.parts.delete(key);
      this.parts.set(key, hit);
      return hit;
    }
    const parts = compute();
    if (parts.chars <= this.chars / 8) {
      this.parts.set(key, parts);
      this.partChars += parts.chars;
      for (const [k, old] of this.parts) {
        if (this.partChars <= this.chars) break;
        this.parts.delete(k);
        this.partChars -= old.chars;
      }
    }
    return parts;
  }

  shape(line: string, compute: (line: string) => SentenceShape): SentenceShape {
    return this.shapes.get(line) ?? this.remember(this.shapes, line, compute(line));
  }

  key(line: string, make: (line: string) => string): string {
    return this.keys.get(line) ?? this.remember(this.keys, line, make(line));
  }

  lineEntities(line: string, compute: (line: string) => LineEntities): LineEntities {
    return this.entities.get(line) ?? this.remember(this.entities, line, compute(line));
  }

  /** Drops what is kept; the limits stay. */
  release(): void {
    this.parts.clear();
    this.partChars = 0;
    this.releaseLines();
  }

  private releaseLines(): void {
    this.shapes.clear();
    this.keys.clear();
    this.entities.clear();
    this.lineChars = 0;
  }

  private remember<V>(memo: Map<string, V>, line: string, value: V): V {
    if (this.lineChars > this.chars * 2) this.releaseLines();
    memo.set(line, value);
    this.lineChars += line.length;
    return value;
  }
}
