import { isObject, textOf, type JsonObject } from './sentry-values';

/**
 * `debug_meta.images` of type `sourcemap` as `{codeFile, debugId}` for the queued event (the
 * queued schema bounds and checks them). Other image types (native code) have no use here.
 */
export function debugImagesOf(debugMeta: unknown): JsonObject[] {
  const images = isObject(debugMeta) && Array.isArray(debugMeta.images) ? (debugMeta.images as unknown[]) : [];
  const out: JsonObject[] = [];
  for (const image of images) {
    if (!isObject(image) || image.type !== 'sourcemap') continue;
    const codeFile = textOf(image.code_file);
    const debugId = textOf(image.debug_id);
    if (codeFile && debugId) out.push({ codeFile, debugId });
    if (out.length >= 1_000) break;
  }
  return out;
}
