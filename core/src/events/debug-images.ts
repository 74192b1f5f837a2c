import { normalizeDebugId } from '../artifacts/debug-ids';

/**
 * A bundle the event's code was loaded from, with its debug ID (Sentry's `debug_meta.images`
 * of type `sourcemap`): frames whose file is `codeFile` are symbolicated with the map uploaded
 * under `debugId`, whatever the release (decision 044).
 */
export interface DebugImage {
  codeFile: string;
  debugId: string;
}

export const MAX_DEBUG_IMAGES = 100;
const MAX_CODE_FILE_CHARS = 2048;

/** Keeps the well-formed images (a URL and a UUID), the first 100; drops the rest, never the event. */
export function limitDebugImages(list: unknown[]): DebugImage[] {
  const out: DebugImage[] = [];
  for (const item of list) {
    if (out.length >= MAX_DEBUG_IMAGES) break;
    if (typeof item !== 'object' || item === null) continue;
    const { codeFile, debugId } = item as Record<string, unknown>;
    const id = normalizeDebugId(debugId);
    if (typeof codeFile !== 'string' || codeFile.length === 0 || codeFile.length > MAX_CODE_FILE_CHARS || id === null)
      continue;
    out.push({ codeFile, debugId: id });
  }
  return out;
}

/**
 * The debug ID for a frame's file: the image whose `codeFile` is the frame's file, exactly or
 * once the query and hash are cut from both (a cache-busting `?v=` on one side only).
 */
export function createDebugIdLookup(images: readonly DebugImage[]): (filename: string) => string | null {
  if (images.length === 0) return () => null;
  const exact = new Map<string, string>();
  const bare = new Map<string, string>();
  for (const image of images) {
    if (!exact.has(image.codeFile)) exact.set(image.codeFile, image.debugId);
    const b = withoutQuery(image.codeFile);
    if (!bare.has(b)) bare.set(b, image.debugId);
  }
  return (filename) => exact.get(filename) ?? bare.get(withoutQuery(filename)) ?? null;
}

function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/s, '');
}
