import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders never searched: installed packages ship their own maps, which are not build output. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/**
 * Every `*.js.map` file under `dir`, recursively, as absolute paths in a stable (sorted) order.
 * Symbolic links are not followed (a linked folder could lead outside the build output).
 */
export async function findSourceMaps(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(path);
      } else if (entry.isFile() && entry.name.endsWith('.js.map')) {
        found.push(path);
      }
    }
  };
  await walk(dir);
  return found.sort();
}
