/** One map as it will travel: its size is the bytes of `{"filename":…,"map":…}` in the body. */
export interface PlannedFile {
  filename: string;
  path: string;
  entryBytes: number;
  /** The debug ID of the script the map belongs to (`//# debugId=`), sent beside it. */
  debugId?: string;
}

/** The bytes of `{"release":…,"files":[]}`: a body's size is this + entries + commas. */
export function bodyOverheadBytes(release: string): number {
  return Buffer.byteLength(JSON.stringify({ release, files: [] }));
}

/**
 * Splits the files into request bodies of at most `maxFiles` entries and `maxBytes` bytes of
 * JSON, keeping their order (greedy: a batch closes when the next file would not fit). Every
 * file must fit in a body on its own; the caller sets aside those that do not.
 */
export function planBatches(
  files: PlannedFile[],
  overheadBytes: number,
  maxFiles: number,
  maxBytes: number,
): PlannedFile[][] {
  const batches: PlannedFile[][] = [];
  let current: PlannedFile[] = [];
  let bytes = overheadBytes;
  for (const file of files) {
    const added = file.entryBytes + (current.length > 0 ? 1 : 0); // the comma
    if (current.length > 0 && (current.length >= maxFiles || bytes + added > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = overheadBytes;
    }
    bytes += file.entryBytes + (current.length > 0 ? 1 : 0);
    current.push(file);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The exact size of JSON.stringify({release, files}) for one batch. */
export function batchBytes(batch: PlannedFile[], overheadBytes: number): number {
  return batch.reduce((sum, file) => sum + file.entryBytes, overheadBytes) + Math.max(0, batch.length - 1);
}
