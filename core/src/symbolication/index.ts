export { MAX_MAP_FILENAME_LENGTH, frameBasename, isPlainMapFilename, normalizeMapFilename } from './filenames';
export { validateSourceMap, type IndexSourceMapV3, type ParsedSourceMap, type SourceMapV3 } from './validate';
export {
  CONTEXT_BYTES,
  LINE_BYTES,
  SEGMENT_BYTES,
  Symbolicator,
  estimateMapBytes,
  type MinifiedFrame,
  type SourceContext,
  type SourceMapKey,
  type SymbolicatedFrame,
  type SymbolicatorOptions,
  type SymbolicatorStats,
} from './symbolicator';
export { sourcePathFromMap } from './source-path';
