import { FlattenMap, TraceMap, decodedMappings, type SectionedSourceMapInput } from '@jridgewell/trace-mapping';
import { isInAppFilename } from '../stacktrace/parse-stack';
import type { SourceContext, StackFrame } from '../stacktrace/stack-frame';
import { frameBasename } from './filenames';
import { SCOPE_BYTES, collectFunctionScopes, enclosingFunctionName, type FunctionScopes } from './scope-names';
import { sourcePathFromMap } from './source-path';
import { FIELDS, createSegmentIndex, findSegment, unpackSegments, type SegmentIndex } from './segment-index';
import { checkSourceMap, type DecodedIndexMap, type DecodedRegularMap } from './validate';

/** Which uploaded map a lookup wants: `filename` is the minified file's basename (see filenames.ts). */
export interface SourceMapKey {
  projectId: string;
  release: string;
  filename: string;
}

export interface SymbolicatorOptions {
  /**
   * Budget of the map cache, in estimated bytes (see `estimateMapBytes`). Least recently used
   * entries are evicted past it. A single map larger than the whole budget is used for the calls
   * that asked for it but not kept.
   */
  maxCacheBytes: number;
  /** The stored map text for a key, or null when the release has no such map. */
  loadMap: (key: SourceMapKey) => Promise<string | null>;
  /**
   * How long "no map for this key" is remembered, so a release without maps costs one `loadMap`
   * per file per this period instead of one per frame. Default 60 s. An upload in this process
   * should call `invalidate`; another process's upload is seen after at most this long.
   */
  negativeTtlMs?: number;
  /** Lines of source context each side of the frame's line. Default 5. */
  contextLines?: number;
  /** Context lines are cut to this many characters. Default 200. */
  maxContextLineChars?: number;
  /**
   * Called when `loadMap` returns text that is not a valid source map (uploads are validated, so
   * this means stored data went bad). The key is then treated as having no map.
   */
  onInvalidMap?: (key: SourceMapKey, error: Error) => void;
  /** Clock for the negative cache (tests). */
  now?: () => number;
}

/** The frame as the engine printed it, kept beside a symbolicated frame. */
export interface MinifiedFrame {
  filename: string;
  function: string | null;
  lineno: number | null;
  colno: number | null;
}

/**
 * Source lines around the frame's line, from the map's `sourcesContent`. Frames on the same line
 * share one frozen object: read it, copy it to change it.
 */
export type { SourceContext };

/**
 * A frame after symbolication. When a map matched, `filename` / `lineno` / `colno` / `function`
 * are the original ones, `inApp` is recomputed from the original path, and `minified` holds what
 * the engine printed; otherwise the frame is the input frame, unchanged, without `minified`.
 */
export interface SymbolicatedFrame extends StackFrame {
  minified?: MinifiedFrame;
  context?: SourceContext;
  /**
   * The source as the map names it (`webpack:///./src/app/cart.ts`), when that differs from
   * `filename` (`src/app/cart.ts`, see sourcePathFromMap). Grouping reads this one, so issues
   * grouped before paths were tidied keep getting their events.
   */
  mapSource?: string;
}

export interface SymbolicatorStats {
  /** Entries (maps and remembered misses) in the cache and their estimated bytes. */
  entries: number;
  bytes: number;
  /** `loadMap` calls made, and lookups answered from the cache. */
  loads: number;
  hits: number;
  evictions: number;
}

/**
 * Estimated memory of a parsed map, what `maxCacheBytes` counts: the map's text length (the
 * strings kept — `sourcesContent`, `names`, `sources` — plus the `mappings` string, which is
 * dropped after decoding: a mild overestimate) and `SEGMENT_BYTES` per mapping segment (packed,
 * see segment-index.ts; the bulk of a decoded map besides its sources). When a source's content is
 * first split into lines for context, `LINE_BYTES` per line is added to the entry. The bench
 * (core/bench/symbolicate.bench.ts) reports the measured heap and array buffers against this
 * estimate.
 */
export function estimateMapBytes(textLength: number, segments: number): number {
  return textLength + segments * SEGMENT_BYTES;
}

/**
 * Memory per segment once packed: its column and four fields as 32-bit integers, in array buffers
 * (outside the JS heap, but memory all the same). Decoded as trace-mapping keeps them, one JS
 * array each, a segment took about 88 bytes.
 */
export const SEGMENT_BYTES = 4 + FIELDS * 4;

// Imported bindings copied once: where the sources run as CommonJS made by esbuild (tsx, the
// benches, the tests), each read of an imported name is a getter call, and the warm path reads
// these per frame (a profile of core/bench/symbolicate.bench.ts put ~3 % of it in the getters).
const SEGMENT_FIELDS = FIELDS;
const segmentAt = findSegment;
/** Heap per line of a split source: its slot and a sliced string (the characters are shared). */
export const LINE_BYTES = 40;
/** Heap per cached context: a frozen object and two frozen arrays of up to 5 (shared) strings. */
export const CONTEXT_BYTES = 240;
const NEGATIVE_ENTRY_BYTES = 64;
const DEFAULT_NEGATIVE_TTL_MS = 60_000;

interface LoadedMap {
  /** Its cache key, to account for memory it gains after loading. */
  key: string;
  /** The segments, packed for the lookup (segment-index.ts). */
  segments: SegmentIndex;
  /** Original file of each source index, resolved against `sourceRoot` as trace-mapping does. */
  resolvedSources: readonly string[];
  names: readonly string[];
  sourcesContent: ReadonlyArray<string | null> | undefined;
  /** Each source's content split into lines, on first use (null: no content). */
  sources: Array<SplitSource | null | undefined>;
  /** Each source's in-app flag, on first use: 0 unknown, 1 no, 2 yes. */
  inApp: Uint8Array;
  /** Each source's path as shown (sourcePathFromMap), on first use. */
  paths: Array<string | undefined>;
  /** Each source's function scopes, parsed on first use (null: no content, or unparsable). */
  scopes: Array<FunctionScopes | null | undefined>;
}

type CacheEntry =
  { map: LoadedMap; bytes: number; expiresAt: number } | { map: null; bytes: number; expiresAt: number };

/**
 * Maps minified stack frames back to original source through the source maps uploaded for a
 * release. Pure apart from `loadMap`: no database, no clock beyond the negative cache.
 *
 * Parsed maps are cached per (projectId, release, filename) in one LRU bounded by
 * `maxCacheBytes`; misses ("no map") are cached too, for `negativeTtlMs`. Concurrent lookups of
 * the same key share one `loadMap` call. A failing `loadMap` rejects `symbolicate` (nothing is
 * cached), so the caller can retry the event later.
 *
 * Function names: a frame's own position in the minified code is the call it was making, so the
 * map's name there is the *callee's*. A frame's original name is therefore taken from its caller:
 * the name the map records at the next (outer) frame's position, when that frame is in the same
 * file (what Node does with `--enable-source-maps` when it has no enclosing-function position).
 * A frame without such a caller (the outermost frame of a bundle: an event listener, an export
 * called from another file) takes the name of the function that holds its original position in
 * the map's `sourcesContent` (scope-names.ts). The caller's name comes first because it was the
 * only rule before, and grouping reads names: issues keep their events. Otherwise the minified
 * name is kept. `new ` and `async ` prefixes of the minified name are kept.
 */
export class Symbolicator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inflight = new Map<string, Promise<CacheEntry>>();
  private readonly maxBytes: number;
  private readonly negativeTtlMs: number;
  private readonly contextLines: number;
  private readonly maxLineChars: number;
  private readonly now: () => number;
  private bytes = 0;
  private counters = { loads: 0, hits: 0, evictions: 0 };
  /** The most recently used cache key: a hit on it needs no reordering. */
  private newest: string | null = null;
  // One-entry memos: consecutive stacks usually come from the same bundle of the same release.
  private memoFilename: string | null = null;
  private memoBase: string | null = null;
  private memoKey = { projectId: '', release: '', filename: '', key: '' };

  constructor(private readonly options: SymbolicatorOptions) {
    if (!(options.maxCacheBytes >= 0)) throw new RangeError('maxCacheBytes must be a non-negative number');
    this.maxBytes = options.maxCacheBytes;
    this.negativeTtlMs = options.negativeTtlMs ?? DEFAULT_NEGATIVE_TTL_MS;
    this.contextLines = options.contextLines ?? 5;
    this.maxLineChars = options.maxContextLineChars ?? 200;
    this.now = options.now ?? Date.now;
  }

  /**
   * Symbolicates a stack (innermost first, as `parseStack` returns it). Frames without a map, or
   * whose position the map does not cover, come back unchanged; so does every frame when
   * `release` is empty and no frame has a debug ID. `debugIdOf` names the debug ID of a frame's
   * file when its map is to be found by ID (key `DEBUG_ID_RELEASE`) rather than by release.
   */
  symbolicate(
    projectId: string,
    release: string | null | undefined,
    frames: readonly StackFrame[],
    debugIdOf?: (filename: string) => string | null,
  ): Promise<SymbolicatedFrame[]> {
    // Not `async`: a stack whose maps are all cached (the usual case) is answered without
    // awaiting anything, and the promise machinery per call is the cheapest it can be.
    try {
      const count = frames.length;
      if ((!release && debugIdOf === undefined) || count === 0) return Promise.resolve(frames.slice());

      // The map each frame uses (an index into `names`, -1 for none); distinct basenames are
      // looked up once per call, and consecutive frames of one file (the usual case) share the work.
      // Preallocated: growing by push reallocates a 15-frame array several times.
      const mapIndex: number[] = new Array(count);
      const names: string[] = [];
      let lastFilename: string | null = null;
      let lastIndex = -1;
      for (let i = 0; i < count; i++) {
        const frame = frames[i];
        if (frame.lineno === null || frame.colno === null || frame.lineno < 1 || frame.colno < 1) {
          mapIndex[i] = -1;
          continue;
        }
        if (frame.filename !== lastFilename) {
          lastFilename = frame.filename;
          // A file with a debug ID takes the map uploaded under it (`DEBUG_ID_RELEASE` below);
          // the caller passes only IDs that have a map, so the release's map stays the fallback.
          const debugId = debugIdOf?.(frame.filename) ?? null;
          const base = debugId !== null ? DEBUG_ID_MARK + debugId : release ? this.basename(frame.filename) : null;
          lastIndex = base === null ? -1 : names.indexOf(base);
          if (base !== null && lastIndex === -1) lastIndex = names.push(base) - 1;
        }
        mapIndex[i] = lastIndex;
      }
      if (names.length === 0) return Promise.resolve(frames.slice());

      const maps: Array<LoadedMap | null> = [];
      let pending: Array<Promise<void>> | null = null;
      for (let n = 0; n < names.length; n++) {
        const byId = names[n].startsWith(DEBUG_ID_MARK);
        const mapRelease = byId ? DEBUG_ID_RELEASE : release!;
        const filename = byId ? names[n].slice(DEBUG_ID_MARK.length) : names[n];
        const key = this.key(projectId, mapRelease, filename);
        const cached = this.getCached(key);
        maps.push(cached === undefined ? null : cached);
        if (cached === undefined) {
          (pending ??= []).push(
            this.load(key, { projectId, release: mapRelease, filename }).then((entry) => {
              maps[n] = entry.map;
            }),
          );
        }
      }
      if (pending === null) return Promise.resolve(this.resolveFrames(frames, mapIndex, maps));
      return Promise.all(pending).then(() => this.resolveFrames(frames, mapIndex, maps));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The synchronous part of `symbolicate`, once every map the frames need is at hand. One pass,
   * looking one frame ahead: a frame's name comes from its caller's (the next frame's) position.
   */
  private resolveFrames(
    frames: readonly StackFrame[],
    mapIndex: number[],
    maps: Array<LoadedMap | null>,
  ): SymbolicatedFrame[] {
    const count = frames.length;
    const out: SymbolicatedFrame[] = new Array(count);
    let m = mapIndex[0];
    let segment = segmentFor(frames[0], m === -1 ? null : maps[m]);
    for (let i = 0; i < count; i++) {
      const frame = frames[i];
      const map = m === -1 ? null : maps[m];
      let callerM = -1;
      let caller = -1;
      if (i + 1 < count) {
        callerM = mapIndex[i + 1];
        caller = segmentFor(frames[i + 1], callerM === -1 ? null : maps[callerM]);
      }
      if (segment === -1 || map === null) {
        out[i] = frame;
      } else {
        const fields = map.segments.fields;
        const at = segment * SEGMENT_FIELDS;
        const sourceIndex = fields[at];
        const line = fields[at + 1];
        const column = fields[at + 2];
        const nameIndex = callerM === m && caller !== -1 ? fields[caller * SEGMENT_FIELDS + 3] : -1;
        const context = this.context(map, sourceIndex, line, column);
        const minified: MinifiedFrame = {
          filename: frame.filename,
          function: frame.function,
          lineno: frame.lineno,
          colno: frame.colno,
        };
        const original = nameIndex === -1 ? this.scopeName(map, sourceIndex, line, column) : map.names[nameIndex];
        const fn = original === null ? frame.function : withPrefix(frame.function, original);
        const mapSource = map.resolvedSources[sourceIndex];
        const filename = sourcePath(map, sourceIndex);
        const lineno = line + 1;
        const colno = column + 1;
        const app = inApp(map, sourceIndex);
        // One literal per combination of the optional fields, each with every field it will
        // have: a field added after creation moves the object to a new shape and, past the
        // literal's in-object slots, allocates a property store per frame.
        if (context !== null) {
          out[i] =
            mapSource !== filename
              ? { filename, function: fn, lineno, colno, inApp: app, minified, context, mapSource }
              : { filename, function: fn, lineno, colno, inApp: app, minified, context };
        } else {
          out[i] =
            mapSource !== filename
              ? { filename, function: fn, lineno, colno, inApp: app, minified, mapSource }
              : { filename, function: fn, lineno, colno, inApp: app, minified };
        }
      }
      m = callerM;
      segment = caller;
    }
    return out;
  }

  /**
   * Forgets a cached map (or a remembered miss), e.g. after a new upload replaced it: one file
   * (`filename` as uploaded or as stored, `.map` or not), or every file of the release. Loads in
   * flight for those keys are not cached when they finish.
   */
  invalidate(projectId: string, release: string, filename?: string): void {
    if (filename !== undefined) {
      const stored = filename.endsWith('.map') ? filename.slice(0, -4) : filename;
      const key = cacheKey(projectId, release, stored);
      this.delete(key);
      this.inflight.delete(key);
      return;
    }
    const prefix = cacheKey(projectId, release, '');
    for (const key of [...this.cache.keys()]) if (key.startsWith(prefix)) this.delete(key);
    for (const key of [...this.inflight.keys()]) if (key.startsWith(prefix)) this.inflight.delete(key);
  }

  get stats(): SymbolicatorStats {
    return { entries: this.cache.size, bytes: this.bytes, ...this.counters };
  }

  // ------------------------------------------------------------------------------ cache

  private basename(filename: string): string | null {
    if (filename !== this.memoFilename) {
      this.memoFilename = filename;
      this.memoBase = frameBasename(filename);
    }
    return this.memoBase;
  }

  /** The cache key string; the same one again for the same parts (its hash is then cached). */
  private key(projectId: string, release: string, filename: string): string {
    const memo = this.memoKey;
    if (memo.projectId !== projectId || memo.release !== release || memo.filename !== filename) {
      this.memoKey = { projectId, release, filename, key: cacheKey(projectId, release, filename) };
    }
    return this.memoKey.key;
  }

  /** The cached map (null: a remembered miss), or undefined when the key must be loaded. */
  private getCached(key: string): LoadedMap | null | undefined {
    const entry = this.cache.get(key);
    if (entry === undefined) return undefined;
    if (entry.map === null && entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    // Most recently used goes last.
    if (key !== this.newest) {
      this.cache.delete(key);
      this.cache.set(key, entry);
      this.newest = key;
    }
    this.counters.hits++;
    return entry.map;
  }

  private load(key: string, mapKey: SourceMapKey): Promise<CacheEntry> {
    const running = this.inflight.get(key);
    if (running !== undefined) return running;
    this.counters.loads++;
    let loading: Promise<string | null>;
    try {
      loading = this.options.loadMap(mapKey);
    } catch (error) {
      loading = Promise.reject(error);
    }
    const promise = loading.then(
      (text) => {
        const entry = this.parse(key, mapKey, text);
        // Invalidated (or superseded) while loading: answer the callers, keep nothing.
        if (this.inflight.get(key) === promise) {
          this.inflight.delete(key);
          this.store(key, entry);
        }
        return entry;
      },
      (error: unknown) => {
        if (this.inflight.get(key) === promise) this.inflight.delete(key);
        throw error;
      },
    );
    this.inflight.set(key, promise);
    return promise;
  }

  private parse(key: string, mapKey: SourceMapKey, text: string | null): CacheEntry {
    const miss = (): CacheEntry => ({
      map: null,
      bytes: NEGATIVE_ENTRY_BYTES + mapKey.projectId.length + mapKey.release.length + mapKey.filename.length,
      expiresAt: this.now() + this.negativeTtlMs,
    });
    if (text === null || text === undefined) return miss();
    let checked;
    try {
      checked = checkSourceMap(mapKey.filename, text);
    } catch (error) {
      this.options.onInvalidMap?.(mapKey, error as Error);
      return miss();
    }
    const decoded = checked.decoded;
    let trace: TraceMap;
    let segments: SegmentIndex;
    if ('sections' in decoded) {
      trace = new FlattenMap(toTraceInput(decoded) as SectionedSourceMapInput);
      segments = createSegmentIndex(decodedMappings(trace));
    } else {
      // Already decoded and packed: trace-mapping is only asked to resolve the sources (against
      // `sourceRoot`), so it gets no mappings.
      trace = new TraceMap({ ...decoded, mappings: [] } as unknown as ConstructorParameters<typeof TraceMap>[0]);
      segments = decoded.mappings;
    }
    const sources = trace.sources.length;
    // The trace is dropped here (for an index map, with its decoded arrays: four times the packed
    // size); it was needed to flatten sections and to resolve sources against `sourceRoot`.
    const map: LoadedMap = {
      key,
      segments,
      resolvedSources: trace.resolvedSources,
      names: trace.names,
      sourcesContent: trace.sourcesContent,
      sources: new Array<SplitSource | null | undefined>(sources),
      inApp: new Uint8Array(sources),
      paths: new Array<string | undefined>(sources),
      scopes: new Array<FunctionScopes | null | undefined>(sources),
    };
    return {
      map,
      bytes: estimateMapBytes(text.length, checked.segments),
      expiresAt: Infinity,
    };
  }

  private store(key: string, entry: CacheEntry): void {
    if (entry.bytes > this.maxBytes) return;
    this.delete(key);
    this.cache.set(key, entry);
    this.newest = key;
    this.bytes += entry.bytes;
    this.evict();
  }

  /** Adds to a cached map's estimate (its split sources) and evicts past the budget. */
  private grow(map: LoadedMap, bytes: number): void {
    const entry = this.cache.get(map.key);
    if (entry === undefined || entry.map !== map) return;
    entry.bytes += bytes;
    this.bytes += bytes;
    this.evict();
  }

  private evict(): void {
    // Oldest first: Map iterates in insertion order and hits re-insert.
    for (const oldKey of this.cache.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldKey);
      this.counters.evictions++;
    }
  }

  private delete(key: string): void {
    const entry = this.cache.get(key);
    if (entry === undefined) return;
    this.cache.delete(key);
    this.bytes -= entry.bytes;
    if (key === this.newest) this.newest = null;
  }

  // ------------------------------------------------------------------------------ names

  /** The enclosing function's name in the original source; its scopes are parsed once per source. */
  private scopeName(map: LoadedMap, index: number, line: number, column: number): string | null {
    let scopes = map.scopes[index];
    if (scopes === undefined) {
      const content = map.sourcesContent?.[index];
      scopes = map.scopes[index] =
        typeof content === 'string' ? collectFunctionScopes(map.resolvedSources[index] ?? '', content) : null;
      if (scopes !== null) this.grow(map, scopes.names.length * SCOPE_BYTES);
    }
    return scopes === null ? null : enclosingFunctionName(scopes, line, column);
  }

  // ------------------------------------------------------------------------------ context

  private context(map: LoadedMap, index: number, line: number, column: number): SourceContext | null {
    if (this.contextLines < 0) return null;
    let source = map.sources[index];
    if (source === undefined) {
      source = map.sources[index] = splitSource(map, index, this.maxLineChars);
      if (source !== null) {
        const cutLines = source.cut === source.lines ? 0 : source.cut.length;
        // Lines, cut lines and the per-line context slots.
        this.grow(map, (source.lines.length + cutLines) * LINE_BYTES + source.lines.length * 8);
      }
    }
    if (source === null) return null;
    // Warm path for a short line: one read of the shared context. Random frames over a large map
    // are bound by memory latency, so every object touched per frame counts.
    const context = source.contexts[line];
    if (context !== undefined) return context;
    if (line >= source.lines.length) return null;
    const text = source.lines[line];
    const max = this.maxLineChars;
    if (text.length <= max) {
      const built = this.buildContext(source, line, text);
      source.contexts[line] = built;
      this.grow(map, CONTEXT_BYTES);
      return built;
    }
    // A long line (minified sources) is cut around the frame's column, so its context is per frame;
    // the lines around it are shared.
    let around = source.long.get(line);
    if (around === undefined) {
      around = this.buildContext(source, line, '');
      source.long.set(line, around);
      this.grow(map, CONTEXT_BYTES);
    }
    return { pre: around.pre, line: cutAround(text, column, max), post: around.post };
  }

  private buildContext(source: SplitSource, line: number, text: string): SourceContext {
    const n = this.contextLines;
    const { cut } = source;
    return Object.freeze({
      pre: Object.freeze(cut.slice(Math.max(0, line - n), line)),
      line: text,
      post: Object.freeze(cut.slice(line + 1, line + 1 + n)),
    });
  }
}

/** Per source: its content's lines, split on first use, and the same lines cut for context. */
interface SplitSource {
  lines: string[];
  /** `lines` with each line longer than the cut cut to its start (the same array when none is). */
  cut: string[];
  /**
   * The context of each short line, built on first use and shared (frozen) by every frame on it;
   * always undefined for a long line.
   */
  contexts: Array<SourceContext | undefined>;
  /** For long lines: the shared lines before and after (`line` unused). */
  long: Map<number, SourceContext>;
}

function splitSource(map: LoadedMap, index: number, max: number): SplitSource | null {
  const content = map.sourcesContent?.[index];
  if (typeof content !== 'string') return null;
  const lines = content.split(LINE_BREAK);
  // Cut once here, not per frame: minified sources (vendor code) are all long lines.
  const cut = lines.some((l) => l.length > max) ? lines.map((l) => (l.length > max ? l.slice(0, max) : l)) : lines;
  // Filled, not `new Array(n)`: a large holey array would fall back to slow dictionary elements.
  const contexts: Array<SourceContext | undefined> = [];
  for (let i = 0; i < lines.length; i++) contexts.push(undefined);
  return { lines, cut, contexts, long: new Map() };
}

/** The source's path as shown, computed once per source of a cached map. */
function sourcePath(map: LoadedMap, index: number): string {
  let path = map.paths[index];
  if (path === undefined) path = map.paths[index] = sourcePathFromMap(map.resolvedSources[index] ?? '');
  return path;
}

/** The in-app rule (shared with parseStack) on the original path, once per source. */
function inApp(map: LoadedMap, index: number): boolean {
  let value = map.inApp[index];
  if (value === 0) value = map.inApp[index] = isInAppFilename(map.resolvedSources[index] ?? '') ? 2 : 1;
  return value === 2;
}

/**
 * The segment (its index in the map's `SegmentIndex`) at a frame's position, or -1: no map, or no
 * segment there (see `findSegment`, which gives the same answer as trace-mapping's
 * `originalPositionFor`; a test checks every column of the fixture bundle).
 */
function segmentFor(frame: StackFrame, map: LoadedMap | null): number {
  return map === null ? -1 : segmentAt(map.segments, frame.lineno! - 1, frame.colno! - 1);
}

/** An index map as trace-mapping's `FlattenMap` takes it: each section's segments as arrays. */
function toTraceInput(map: DecodedRegularMap | DecodedIndexMap): object {
  if ('sections' in map) {
    return { ...map, sections: map.sections.map((section) => ({ ...section, map: toTraceInput(section.map) })) };
  }
  return { ...map, mappings: unpackSegments(map.mappings) };
}

/** Line terminators as JavaScript counts them. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;

/**
 * The `release` of a `SourceMapKey` that asks for a map by debug ID (`filename` is then the ID):
 * no release name can hold a control character, so it never meets a real one.
 */
export const DEBUG_ID_RELEASE = '\u0001debug-id';
/** Marks a lookup name as a debug ID inside `symbolicate`. */
const DEBUG_ID_MARK = '\u0001';

function cacheKey(projectId: string, release: string, filename: string): string {
  return `${projectId}\u0000${release}\u0000${filename}`;
}

/** The frame's own line, cut to `max` characters around `column` when longer. */
function cutAround(line: string, column: number, max: number): string {
  if (line.length <= max) return line;
  const start = Math.max(0, Math.min(column - (max >> 1), line.length - max));
  return line.slice(start, start + max);
}

function withPrefix(minified: string | null, name: string): string {
  if (minified === null) return name;
  if (minified.startsWith('async ')) return `async ${name}`;
  if (minified.startsWith('new ')) return `new ${name}`;
  return name;
}
