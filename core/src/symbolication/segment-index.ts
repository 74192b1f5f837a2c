/**
 * A decoded map's segments packed into typed arrays, for the warm lookup.
 *
 * trace-mapping keeps a decoded map as one small JS array per segment (about 88 bytes each) and
 * its binary search reads one of them per probe: with random frames over a large map nearly every
 * probe is a cache miss. A `--cpu-prof` of the symbolicator's warm path in
 * core/bench/symbolicate.bench.ts (5 MB map, 240,000 segments) put about 60% of the samples of
 * its per-stack function on that search. Here the generated columns of all segments are one contiguous `Int32Array` (4 bytes
 * a segment: about 1 MB for that map, which mostly stays in the CPU's caches) and the other
 * fields sit in a second one, read once per frame. It is also under a quarter of the memory, so
 * the symbolicator drops the decoded arrays once they are packed. Calling trace-mapping's own
 * `traceSegment` instead was measured earlier too: through the package's CommonJS exports
 * (getters) V8 did not inline it, and it cost about a raw lookup more per frame.
 */

/** Segments of one map in generated order (line, then column). */
export interface SegmentIndex {
  /** Generated line `l` (0-based) holds segments `lineStart[l]` to `lineStart[l + 1] - 1`. */
  readonly lineStart: Uint32Array;
  /** The generated column of each segment, sorted within each line. */
  readonly columns: Int32Array;
  /**
   * `FIELDS` per segment: source index, original line, original column (0-based) and name index.
   * A one-field segment (generated code with no original) has source -1; no name is -1.
   */
  readonly fields: Int32Array;
}

/** Slots of one segment in `SegmentIndex.fields`. */
export const FIELDS = 4;

/**
 * Packs decoded mappings (one array per generated line, each sorted by column, as trace-mapping's
 * `decodedMappings` returns them): for a flattened index map. A regular map is decoded straight
 * into this form (mappings.ts).
 */
export function createSegmentIndex(lines: ReadonlyArray<ReadonlyArray<readonly number[]>>): SegmentIndex {
  let count = 0;
  for (const line of lines) count += line.length;
  const lineStart = new Uint32Array(lines.length + 1);
  const columns = new Int32Array(count);
  const fields = new Int32Array(count * FIELDS);
  let s = 0;
  for (let l = 0; l < lines.length; l++) {
    lineStart[l] = s;
    const line = lines[l];
    for (let i = 0; i < line.length; i++, s++) {
      const segment = line[i];
      columns[s] = segment[0];
      const at = s * FIELDS;
      if (segment.length === 1) {
        fields[at] = -1;
        fields[at + 3] = -1;
      } else {
        fields[at] = segment[1];
        fields[at + 1] = segment[2];
        fields[at + 2] = segment[3];
        fields[at + 3] = segment.length === 5 ? segment[4] : -1;
      }
    }
  }
  lineStart[lines.length] = s;
  return { lineStart, columns, fields };
}

/**
 * The segments back as decoded arrays (trace-mapping's `SourceMapSegment[][]`), for what needs
 * them: the sections of an index map, which trace-mapping's `FlattenMap` merges.
 */
export function unpackSegments(index: SegmentIndex): number[][][] {
  const { lineStart, columns, fields } = index;
  const lines: number[][][] = [];
  for (let l = 0; l + 1 < lineStart.length; l++) {
    const line: number[][] = [];
    for (let s = lineStart[l]; s < lineStart[l + 1]; s++) {
      const at = s * FIELDS;
      if (fields[at] === -1) line.push([columns[s]]);
      else if (fields[at + 3] === -1) line.push([columns[s], fields[at], fields[at + 1], fields[at + 2]]);
      else line.push([columns[s], fields[at], fields[at + 1], fields[at + 2], fields[at + 3]]);
    }
    lines.push(line);
  }
  return lines;
}

/**
 * The segment (its index) at a 0-based generated position, or -1: a position before the line's
 * first segment or past the map, or a one-field segment. Same answer as trace-mapping's
 * `originalPositionFor`: the greatest lower bound (a test compares every position of a synthetic
 * map with repeated columns).
 */
export function findSegment(index: SegmentIndex, line: number, column: number): number {
  const { lineStart, columns } = index;
  if (line >= lineStart.length - 1) return -1;
  let low = lineStart[line];
  let high = lineStart[line + 1] - 1;
  if (high < low || columns[low] > column) return -1;
  const first = low;
  // The last segment whose column is <= column.
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (columns[mid] <= column) low = mid;
    else high = mid - 1;
  }
  // Of equal columns trace-mapping answers an exact hit with the first and a position past them
  // with the last (its search stops at the last; only an exact hit walks back).
  if (columns[low] === column) while (low > first && columns[low - 1] === column) low--;
  return index.fields[low * FIELDS] === -1 ? -1 : low;
}
