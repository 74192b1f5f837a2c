/**
 * A strict decoder for the `mappings` field of a version 3 source map.
 *
 * `@jridgewell/sourcemap-codec` (what trace-mapping decodes with) never fails: it reads unknown
 * characters as 0 and pads short segments, so a corrupt map would be accepted at upload and then
 * point frames at nonsense. This decoder rejects what the format does not allow and produces the
 * same decoded form (`[genColumn, sourceIndex, sourceLine, sourceColumn, nameIndex?]`, 0-based,
 * one array per generated line, sorted by column), which `TraceMap` then uses without decoding
 * again.
 */

/** One decoded segment, as trace-mapping's `SourceMapSegment`. */
export type DecodedSegment =
  | [number]
  | [number, number, number, number]
  | [number, number, number, number, number];

export interface DecodedMappings {
  lines: DecodedSegment[][];
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
  const lines: DecodedSegment[][] = [];
  const n = mappings.length;
  let line: DecodedSegment[] = [];
  let sorted = true;
  let segments = 0;
  let genColumn = 0;
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  let name = 0;
  let segmentInLine = 0;
  const fields = [0, 0, 0, 0, 0, 0];
  let pos = 0;

  const fail = (what: string): never => {
    throw new MappingsError(`generated line ${lines.length + 1}, segment ${segmentInLine + 1}: ${what}`);
  };

  while (pos < n) {
    let c = mappings.charCodeAt(pos);
    if (c === SEMICOLON) {
      if (!sorted) line.sort(byColumn);
      lines.push(line);
      line = [];
      sorted = true;
      genColumn = 0;
      segmentInLine = 0;
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
    let segment: DecodedSegment;
    if (count === 1) {
      segment = [column];
    } else {
      source += fields[1];
      sourceLine += fields[2];
      sourceColumn += fields[3];
      if (source < 0 || source >= sourcesCount) fail(`source index ${source} outside "sources" (${sourcesCount})`);
      if (sourceLine < 0) fail('negative original line');
      if (sourceColumn < 0) fail('negative original column');
      if (count === 5) {
        name += fields[4];
        if (name < 0 || name >= namesCount) fail(`name index ${name} outside "names" (${namesCount})`);
        segment = [column, source, sourceLine, sourceColumn, name];
      } else {
        segment = [column, source, sourceLine, sourceColumn];
      }
    }
    line.push(segment);
    segments++;
    segmentInLine++;
  }
  if (!sorted) line.sort(byColumn);
  lines.push(line);
  return { lines, segments };
}

function byColumn(a: DecodedSegment, b: DecodedSegment): number {
  return a[0] - b[0];
}
