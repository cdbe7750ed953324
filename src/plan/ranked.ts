// A list kept in descending key order (period ids compare as strings in time order): the
// planner's candidates, fixes and waiting parents, most recent first, updated one entry at a time.
export class RankedList<V> {
  private readonly keys: string[] = [];
  private readonly vals: V[] = [];

  get length(): number {
    return this.keys.length;
  }

  /** Index of `key`, or where it would go (as -(index + 1)). */
  private find(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid]!;
      if (k === key) return mid;
      if (k > key) lo = mid + 1;
      else hi = mid;
    }
    return -(lo + 1);
  }

  set(key: string, value: V): void {
    const i = this.find(key);
    if (i >= 0) this.vals[i] = value;
    else {
      this.keys.splice(-(i + 1), 0, key);
      this.vals.splice(-(i + 1), 0, value);
    }
  }

  delete(key: string): void {
    const i = this.find(key);
    if (i < 0) return;
    this.keys.splice(i, 1);
    this.vals.splice(i, 1);
  }

  at(i: number): V | undefined {
    return this.vals[i];
  }

  keyAt(i: number): string | undefined {
    return this.keys[i];
  }

  /** The values from index `from` on, most recent first. */
  values(from = 0): V[] {
    return from === 0 ? [...this.vals] : this.vals.slice(from);
  }

  clear(): void {
    this.keys.length = 0;
    this.vals.length = 0;
  }
}
