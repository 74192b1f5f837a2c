import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Longest wait for source files before an event goes without them (the capture never waits longer). */
export const CONTEXT_LINES_TIMEOUT_MS = 100;
/** Files larger than this are not read (a bundle's source lines are not worth the memory). */
export const MAX_SOURCE_FILE_BYTES = 1_000_000;
/** Source files kept in memory, the least recently used forgotten first. */
export const MAX_CACHED_SOURCE_FILES = 10;
const LINES_AROUND = 5;
const MAX_LINE_CHARS = 200;
const MAX_CONTEXT_FRAMES = 50;

export interface ContextLines {
  filename: string;
  lineno: number;
  preContext: string[];
  contextLine: string;
  postContext: string[];
}

interface FrameLocation {
  filename: string;
  lineno: number;
  colno: number;
}

// Promises, so that two captures of the same file share one read; `lines` once it is done, so
// an event whose files are all in memory needs no timer. A file that could not be read is
// remembered as null and not tried again while it stays in the cache.
interface CachedFile {
  read: Promise<string[] | null>;
  lines?: string[] | null;
}
const cache = new Map<string, CachedFile>();

/**
 * The `at …` frames of a V8 stack whose file can be read: an absolute path or a `file://` URL,
 * not Node's own (`node:`, `internal/`), not a dependency (`node_modules`), not eval'd code.
 * `filename` is spelled as in the stack text: the server matches its parsed frames by it.
 */
export function findInAppFrames(stack: string): FrameLocation[] {
  const frames: FrameLocation[] = [];
  for (const raw of stack.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('at ')) continue;
    let location = line.slice(3);
    if (location.endsWith(')')) {
      // The matching paren, not the last one: `/app/(group)/page.js` is a path Next writes.
      let depth = 0;
      let i = location.length - 1;
      for (; i >= 0; i--) {
        if (location[i] == ')') depth++;
        else if (location[i] == '(' && --depth == 0) break;
      }
      location = location.slice(i + 1, -1);
    }
    location = location.replace(/^async /, '');
    const match = /^(.+):(\d+):(\d+)$/.exec(location);
    if (!match || location.startsWith('eval at ')) continue;
    const filename = match[1];
    const path = filename.replace(/\\/g, '/');
    if (!/^(?:file:\/\/|\/|[a-z]:\/)/i.test(path) || path.includes('/node_modules/')) continue;
    frames.push({ filename, lineno: Number(match[2]), colno: Number(match[3]) });
  }
  return frames;
}

async function readLines(filename: string): Promise<string[] | null> {
  try {
    const path = filename.startsWith('file://') ? fileURLToPath(filename) : filename;
    // stat first: a FIFO or a device would block a thread-pool thread on open() or never end.
    const info = await stat(path);
    if (!info.isFile() || info.size > MAX_SOURCE_FILE_BYTES) return null;
    return (await readFile(path, 'utf8')).split(/\r?\n/);
  } catch {
    return null;
  }
}

function loadFile(filename: string): CachedFile {
  let file = cache.get(filename);
  if (file) cache.delete(filename);
  else {
    const entry: CachedFile = { read: readLines(filename) };
    void entry.read.then((lines) => (entry.lines = lines));
    file = entry;
  }
  cache.set(filename, file);
  if (cache.size > MAX_CACHED_SOURCE_FILES) cache.delete(cache.keys().next().value!);
  return file;
}

/** At most 200 characters of a line, around the column when it is longer (minified code). */
function snip(line: string, colno: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const start = Math.max(0, Math.min(colno - 1 - MAX_LINE_CHARS / 2, line.length - MAX_LINE_CHARS));
  return line.slice(start, start + MAX_LINE_CHARS);
}

/**
 * Source lines around the in-app frames of `stacks` (the error's, then its causes'), read from
 * disk as Sentry's ContextLines integration does. Waits at most `timeoutMs`: files still being
 * read then are left out (and cached for the next event). Never rejects.
 */
export async function readContextLines(
  stacks: (string | undefined)[],
  timeoutMs = CONTEXT_LINES_TIMEOUT_MS,
): Promise<ContextLines[] | undefined> {
  const frames: FrameLocation[] = [];
  const seen = new Set<string>();
  for (const stack of stacks) {
    if (typeof stack != 'string') continue;
    for (const frame of findInAppFrames(stack)) {
      const key = frame.filename + ':' + frame.lineno;
      if (frames.length < MAX_CONTEXT_FRAMES && !seen.has(key)) {
        seen.add(key);
        frames.push(frame);
      }
    }
  }
  if (!frames.length) return undefined;
  const files = new Map<string, CachedFile>();
  for (const { filename } of frames) if (!files.has(filename)) files.set(filename, loadFile(filename));
  const pending = [...files.values()].filter((file) => file.lines === undefined);
  if (pending.length) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(pending.map((file) => file.read)),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }
  const result: ContextLines[] = [];
  for (const { filename, lineno, colno } of frames) {
    const lines = files.get(filename)!.lines;
    const at = lineno - 1;
    if (!lines || at >= lines.length) continue;
    const around = (from: number, to: number) => lines.slice(Math.max(0, from), to).map((l) => snip(l, colno));
    result.push({
      filename,
      lineno,
      preContext: around(at - LINES_AROUND, at),
      contextLine: snip(lines[at], colno),
      postContext: around(at + 1, at + 1 + LINES_AROUND),
    });
  }
  return result.length ? result : undefined;
}
