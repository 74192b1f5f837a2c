/**
 * A strict decoder for the `mappings` field of a version 3 source map.
 *
 * `@jridgewell/sourcemap-codec` (what trace-mapping decodes with) never fails: it reads unknown
 * characters as 0 and pads short segments, so a corrupt map would be accepted at upload and then
 * point frames at nonsense. This decoder rejects what the format does not allow and writes the
 * segments straight into the packed form the symbolicator searches (segment-index.ts: 0-based,
 * sorted by column within each generated line), without a JS array per segment: those were most
 * of the decode's allocation and garbage.
 */
import { FIELDS, type SegmentIndex } from './segment-index';

export interface DecodedMappings {
  index: SegmentIndex;
  /** Segments in all lines: the dominant part of a decoded map's memory. */
  segments: number;
}

export class MappingsError extends Error {}

const BASE64 = new Int8Array(128).fill(-1);
{
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) BASE64[alphabet.charCodeAt(i)] = i;
}
const COMMA = 44;
const SEMICOLON = 59;
/** Six base64 digits carry 30 bits (a signed value up to ±2^29): more means a corrupt value. */
const MAX_VLQ_DIGITS = 6;

/**
 * Decodes `mappings` and checks every segment: 1, 4 or 5 fields of valid base64 VLQ, no negative
 * column or line, source and name indexes inside `sources` and `names`. Empty segments (`,,`) are
 * skipped, as every consumer does. Throws `MappingsError` naming the generated line and segment.
 */
export function decodeMappingsStrict(mappings: string, sourcesCount: number, namesCount: number): DecodedMappings {
  const n = mappings.length;
  // Grown by doubling; real maps spend 5–7 characters a segment.
  let columns: Int32Array = new Int32Array(Math.max(16, (n / 6) | 0));
  let packed: Int32Array = new Int32Array(columns.length * FIELDS);
  const lineStart: number[] = [0];
  let lineBegin = 0;
  let sorted = true;
  let segments = 0;
  let genColumn = 0;
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  let name = 0;
  const fields = [0, 0, 0, 0, 0, 0];
  let pos = 0;

  const fail = (what: string): never => {
    throw new MappingsError(`generated line ${lineStart.length}, segment ${segments - lineBegin + 1}: ${what}`);
  };

  while (pos < n) {
    let c = mappings.charCodeAt(pos);
    if (c === SEMICOLON) {
      if (!sorted) sortLine(columns, packed, lineBegin, segments);
      lineStart.push(segments);
      lineBegin = segments;
      sorted = true;
      genColumn = 0;
      pos++;
      continue;
    }
    if (c === COMMA) {
      pos++;
      continue;
    }
    // One segment: VLQ fields up to the next separator.
    let count = 0;
    while (pos < n) {
      c = mappings.charCodeAt(pos);
      if (c === COMMA || c === SEMICOLON) break;
      let value = 0;
      let shift = 0;
      let digits = 0;
      let digit: number;
      do {
        if (pos >= n) fail('a value is cut off at the end of the mappings');
        c = mappings.charCodeAt(pos++);
        digit = c < 128 ? BASE64[c] : -1;
        if (digit === -1) {
          if (c === COMMA || c === SEMICOLON) fail('a value is cut off before its separator');
          fail(`invalid character ${JSON.stringify(String.fromCharCode(c))} at offset ${pos - 1}`);
        }
        if (++digits > MAX_VLQ_DIGITS) fail('a value is too large');
        value |= (digit & 31) << shift;
        shift += 5;
      } while (digit & 32);
      if (count === 5) fail('more than 5 fields');
      fields[count++] = value & 1 ? -(value >>> 1) : value >>> 1;
    }
    if (count !== 1 && count !== 4 && count !== 5) fail(`${count} fields (1, 4 or 5 expected)`);

    const column = genColumn + fields[0];
    if (column < 0) fail('negative generated column');
    if (column < genColumn) sorted = false;
    genColumn = column;
    if (segments === columns.length) {
      columns = grow(columns, columns.length * 2);
      packed = grow(packed, columns.length * FIELDS);
    }
    const at = segments * FIELDS;
    columns[segments] = column;
    if (count === 1) {
      packed[at] = -1;
      packed[at + 1] = 0;
      packed[at + 2] = 0;
      packed[at + 3] = -1;
    } else {
      source += fields[1];
      sourceLine += fields[2];
      sourceColumn += fields[3];
      if (source < 0 || source >= sourcesCount) fail(`source index ${source} outside "sources" (${sourcesCount})`);
      if (sourceLine < 0) fail('negative original line');
      if (sourceColumn < 0) fail('negative original column');
      packed[at] = source;
      packed[at + 1] = sourceLine;
      packed[at + 2] = sourceColumn;
      if (count === 5) {
        name += fields[4];
        if (name < 0 || name >= namesCount) fail(`name index ${name} outside "names" (${namesCount})`);
        packed[at + 3] = name;
      } else {
        packed[at + 3] = -1;
      }
    }
    segments++;
  }
  if (!sorted) sortLine(columns, packed, lineBegin, segments);
  lineStart.push(segments);
  // Copied to the exact size: the slack of the last doubling would otherwise stay allocated.
  const index: SegmentIndex = {
    lineStart: Uint32Array.from(lineStart),
    columns: columns.slice(0, segments),
    fields: packed.slice(0, segments * FIELDS),
  };
  return { index, segments };
}

function grow(array: Int32Array, length: number): Int32Array {
  const bigger = new Int32Array(length);
  bigger.set(array);
  return bigger;
}

/** Sorts segments `from` to `to - 1` by column, stably (as trace-mapping sorts an unsorted line). */
function sortLine(columns: Int32Array, fields: Int32Array, from: number, to: number): void {
  const order = Array.from({ length: to - from }, (_, i) => from + i);
  order.sort((a, b) => columns[a] - columns[b] || a - b);
  const oldColumns = columns.slice(from, to);
  const oldFields = fields.slice(from * FIELDS, to * FIELDS);
  for (let i = 0; i < order.length; i++) {
    const was = order[i] - from;
    columns[from + i] = oldColumns[was];
    fields.set(oldFields.subarray(was * FIELDS, was * FIELDS + FIELDS), (from + i) * FIELDS);
  }
}
