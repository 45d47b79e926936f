/**
 * A segment map between a source string and its normalised form: which source span produced which output
 * span, and whether it is a verbatim copy. Kept in typed arrays and binary-searched, so a 5 MB file costs
 * a few segments per line that actually changes, not one entry per character.
 * @module
 */

/** Source ↔ output spans; adjacent identity spans are merged. */
export class SegmentMap {
  #srcStart = new Int32Array(64);
  #outStart = new Int32Array(64);
  #srcLen = new Int32Array(64);
  #outLen = new Int32Array(64);
  #identity = new Uint8Array(64);
  #count = 0;
  #srcEnd = 0;
  #outEnd = 0;

  /** Number of segments. */
  get count(): number {
    return this.#count;
  }

  /** Appends a span of `srcLen` source units that became `outLen` output units (`identity`: copied). */
  push(srcLen: number, outLen: number, identity: boolean): void {
    if (srcLen === 0 && outLen === 0) return;
    const last = this.#count - 1;
    if (identity && last >= 0 && this.#identity[last] === 1) {
      this.#srcLen[last] += srcLen;
      this.#outLen[last] += outLen;
    } else {
      if (this.#count === this.#srcStart.length) this.#grow();
      const i = this.#count++;
      this.#srcStart[i] = this.#srcEnd;
      this.#outStart[i] = this.#outEnd;
      this.#srcLen[i] = srcLen;
      this.#outLen[i] = outLen;
      this.#identity[i] = identity ? 1 : 0;
    }
    this.#srcEnd += srcLen;
    this.#outEnd += outLen;
  }

  /** False when output position `q` falls strictly inside a segment that is not a copy (e.g. in `ﬁ`→`fi`). */
  isOutBoundary(q: number): boolean {
    const i = this.#lastOutStartAtMost(q);
    if (i < 0) return true;
    return this.#identity[i] === 1 || q === this.#outStart[i] || q >= this.#outStart[i] + this.#outLen[i];
  }

  /** False when source position `p` falls strictly inside a segment that is not a copy. */
  isSrcBoundary(p: number): boolean {
    const i = this.#lastSrcStartAtMost(p);
    if (i < 0) return true;
    return this.#identity[i] === 1 || p === this.#srcStart[i] || p >= this.#srcStart[i] + this.#srcLen[i];
  }

  /** The output position of a source boundary `p`. */
  outOf(p: number): number {
    const i = this.#lastSrcStartAtMost(p);
    if (i < 0) return p;
    const into = p - this.#srcStart[i];
    if (into >= this.#srcLen[i]) return this.#outStart[i] + this.#outLen[i];
    return this.#outStart[i] + (this.#identity[i] === 1 ? into : 0);
  }

  /** The earliest source position whose output position is the boundary `q` (before removed text there). */
  earliestSrc(q: number): number {
    const i = this.#firstOutEndAtLeast(q);
    if (i >= this.#count) return this.#srcEnd;
    if (this.#outStart[i] >= q) return this.#srcStart[i];
    return this.#srcStart[i] + (q - this.#outStart[i]); // inside an identity segment
  }

  /** The latest source position whose output position is the boundary `q` (after removed text there). */
  latestSrc(q: number): number {
    const i = this.#lastOutStartAtMost(q);
    if (i < 0) return 0;
    const outEnd = this.#outStart[i] + this.#outLen[i];
    if (q >= outEnd) return this.#srcStart[i] + this.#srcLen[i];
    if (q === this.#outStart[i]) return this.#srcStart[i];
    return this.#srcStart[i] + (q - this.#outStart[i]);
  }

  /** Index of the last segment with outStart ≤ q, or -1. */
  #lastOutStartAtMost(q: number): number {
    let low = 0;
    let high = this.#count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#outStart[mid] <= q) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }

  /** Index of the last segment with srcStart ≤ p, or -1. */
  #lastSrcStartAtMost(p: number): number {
    let low = 0;
    let high = this.#count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#srcStart[mid] <= p) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }

  /** Index of the first segment whose output end is ≥ q and that is not an empty span ending before q. */
  #firstOutEndAtLeast(q: number): number {
    let low = 0;
    let high = this.#count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#outStart[mid] + this.#outLen[mid] < q) low = mid + 1;
      else high = mid;
    }
    // Skip non-empty segments that merely end at q: q's earliest source is where the next one starts.
    while (low < this.#count && this.#outLen[low] > 0 && this.#outStart[low] + this.#outLen[low] === q) low++;
    return low;
  }

  #grow(): void {
    const size = this.#srcStart.length * 2;
    const grow32 = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.#srcStart = grow32(this.#srcStart);
    this.#outStart = grow32(this.#outStart);
    this.#srcLen = grow32(this.#srcLen);
    this.#outLen = grow32(this.#outLen);
    const identity = new Uint8Array(size);
    identity.set(this.#identity);
    this.#identity = identity;
  }
}
