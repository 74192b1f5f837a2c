import { AppError, errorMessage } from '../errors';
import { decodeMappingsStrict, MappingsError } from './mappings';
import type { SegmentIndex } from './segment-index';

/** A regular version 3 source map, as uploaded (https://tc39.es/ecma426/). */
export interface SourceMapV3 {
  version: 3;
  file?: string;
  sourceRoot?: string;
  sources: Array<string | null>;
  sourcesContent?: Array<string | null>;
  names?: string[];
  mappings: string;
  ignoreList?: number[];
}

/**
 * An index map: the concatenation of other maps, each placed at an offset of the generated file.
 * Supported when every section embeds its map (`map`); sections that point elsewhere (`url`) are
 * rejected, since an upload has nothing to fetch them from.
 */
export interface IndexSourceMapV3 {
  version: 3;
  file?: string;
  sections: Array<{ offset: { line: number; column: number }; map: SourceMapV3 | IndexSourceMapV3 }>;
}

export type ParsedSourceMap = SourceMapV3 | IndexSourceMapV3;

/** Index maps nest; real ones nest once. The bound keeps a hostile upload from recursing deep. */
const MAX_SECTION_DEPTH = 4;

/**
 * Checks an uploaded source map and returns it parsed. Throws `AppError('BAD_USER_INPUT')` whose
 * message names `filename` and says what is wrong: not JSON, not a version 3 source map
 * (`version` 3, `mappings` a string, `sources` an array of strings; `names`, `sourcesContent`,
 * `sourceRoot` of the right types when present), or `mappings` that do not decode (bad base64 VLQ,
 * wrong field count, negative positions, source or name indexes out of range). Index maps
 * (`sections`) are accepted when each section embeds its map and offsets ascend.
 */
export function validateSourceMap(filename: string, text: string): ParsedSourceMap {
  return checkSourceMap(filename, text).map;
}

/** What the symbolicator needs beyond the parsed map: decoded mappings (decoded once). */
export interface CheckedSourceMap {
  map: ParsedSourceMap;
  /**
   * The map with every `mappings` string replaced by its decoded, packed form (sections
   * included), so the symbolicator does not decode it a second time.
   */
  decoded: DecodedRegularMap | DecodedIndexMap;
  /** Decoded segments over all sections. */
  segments: number;
}

export interface DecodedRegularMap extends Omit<SourceMapV3, 'mappings'> {
  mappings: SegmentIndex;
}

export interface DecodedIndexMap extends Omit<IndexSourceMapV3, 'sections'> {
  sections: Array<{ offset: { line: number; column: number }; map: DecodedRegularMap | DecodedIndexMap }>;
}

export function checkSourceMap(filename: string, text: string): CheckedSourceMap {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw bad(filename, `is not valid JSON (${errorMessage(error)})`);
  }
  const counter = { segments: 0 };
  const decoded = checkMap(filename, json, '', 0, counter);
  return { map: json as ParsedSourceMap, decoded, segments: counter.segments };
}

function checkMap(
  filename: string,
  json: unknown,
  where: string,
  depth: number,
  counter: { segments: number },
): DecodedRegularMap | DecodedIndexMap {
  const notMap = (what: string) => bad(filename, `is not a source map${where}: ${what}`);
  if (!isObject(json)) throw notMap('expected a JSON object');
  if (json.version !== 3) throw notMap(`"version" must be 3 (got ${describe(json.version)})`);
  if (json.file !== undefined && json.file !== null && typeof json.file !== 'string') {
    throw notMap('"file" must be a string');
  }

  if ('sections' in json) {
    if (depth >= MAX_SECTION_DEPTH) throw notMap(`index maps nested more than ${MAX_SECTION_DEPTH} deep`);
    if ('mappings' in json) throw notMap('an index map ("sections") cannot also have "mappings"');
    if (!Array.isArray(json.sections)) throw notMap('"sections" must be an array');
    const sections: DecodedIndexMap['sections'] = [];
    let prevLine = -1;
    let prevColumn = -1;
    json.sections.forEach((section: unknown, i: number) => {
      const at = `${where} (section ${i})`;
      const sectionError = (what: string) => bad(filename, `is not a source map${at}: ${what}`);
      if (!isObject(section)) throw sectionError('expected an object');
      if ('url' in section) throw sectionError('sections with "url" are not supported: embed the map in "map"');
      const offset = section.offset;
      if (!isObject(offset) || !isPosition(offset.line) || !isPosition(offset.column)) {
        throw sectionError('"offset" must be {line, column} with non-negative integers');
      }
      const line = offset.line as number;
      const column = offset.column as number;
      if (line < prevLine || (line === prevLine && column <= prevColumn)) {
        throw sectionError('section offsets must ascend');
      }
      prevLine = line;
      prevColumn = column;
      sections.push({ offset: { line, column }, map: checkMap(filename, section.map, at, depth + 1, counter) });
    });
    return { version: 3, file: typeof json.file === 'string' ? json.file : undefined, sections };
  }

  if (typeof json.mappings !== 'string') throw notMap('"mappings" must be a string');
  if (!Array.isArray(json.sources) || !json.sources.every((s) => s === null || typeof s === 'string')) {
    throw notMap('"sources" must be an array of strings');
  }
  if (json.names !== undefined && (!Array.isArray(json.names) || !json.names.every((s) => typeof s === 'string'))) {
    throw notMap('"names" must be an array of strings');
  }
  if (
    json.sourcesContent !== undefined &&
    json.sourcesContent !== null &&
    (!Array.isArray(json.sourcesContent) || !json.sourcesContent.every((s) => s === null || typeof s === 'string'))
  ) {
    throw notMap('"sourcesContent" must be an array of strings or nulls');
  }
  if (json.sourceRoot !== undefined && json.sourceRoot !== null && typeof json.sourceRoot !== 'string') {
    throw notMap('"sourceRoot" must be a string');
  }
  const names = (json.names as string[] | undefined) ?? [];
  let decoded;
  try {
    decoded = decodeMappingsStrict(json.mappings, json.sources.length, names.length);
  } catch (error) {
    if (error instanceof MappingsError) throw bad(filename, `has invalid mappings${where}: ${error.message}`);
    throw error;
  }
  counter.segments += decoded.segments;
  return {
    version: 3,
    file: typeof json.file === 'string' ? json.file : undefined,
    sourceRoot: typeof json.sourceRoot === 'string' ? json.sourceRoot : undefined,
    sources: json.sources as Array<string | null>,
    sourcesContent: Array.isArray(json.sourcesContent) ? (json.sourcesContent as Array<string | null>) : undefined,
    names,
    mappings: decoded.index,
    ignoreList: Array.isArray(json.ignoreList) ? (json.ignoreList as number[]) : undefined,
  };
}

function bad(filename: string, what: string): AppError {
  // Names are user input: quote them, and keep an absurd one from flooding the message.
  const shown = filename.length > 100 ? `${filename.slice(0, 100)}…` : filename;
  return new AppError('BAD_USER_INPUT', `Source map ${JSON.stringify(shown)} ${what}`);
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPosition(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
