// The few tar operations serving the SDK tarballs needs: list the files of an `npm pack`
// tarball and replace one of them. npm pack writes plain ustar (short paths, no pax headers,
// fixed mtimes), so a reader of 512-byte headers suffices; node-tar would be a dependency for
// ~60 lines.

const BLOCK = 512;

export interface TarEntry {
  /** The full path, e.g. `package/package.json`. */
  name: string;
  /** The raw 512-byte header, kept so an unchanged entry is written back byte for byte. */
  header: Buffer;
  data: Buffer;
}

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** The entries of an uncompressed tar archive, in order; stops at the end-of-archive blocks. */
export function readTar(tar: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const prefix = field(header, 345, 155);
    const base = field(header, 0, 100);
    const name = prefix ? `${prefix}/${base}` : base;
    const start = offset + BLOCK;
    if (!Number.isFinite(size) || start + size > tar.length) throw new Error(`truncated tar entry ${name}`);
    entries.push({ name, header: Buffer.from(header), data: Buffer.from(tar.subarray(start, start + size)) });
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}

/** A header with a new size and its checksum recomputed (the sum of its bytes, the checksum field as spaces). */
function resized(header: Buffer, size: number): Buffer {
  const out = Buffer.from(header);
  out.write(size.toString(8).padStart(11, '0') + '\0', 124, 12, 'ascii');
  out.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of out) sum += byte;
  out.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return out;
}

/** An uncompressed tar archive of these entries (each header's size field set from its data). */
export function writeTar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(resized(entry.header, entry.data.length), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
