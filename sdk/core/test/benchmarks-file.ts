import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const FILE = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const HEADER = `# SDK benchmarks

Written by \`npm run bench\` in \`sdk/browser\` (size) and \`sdk/node\` (capture cost); each run
replaces its own section. Figures from one run on the machine named in the section.
`;

/**
 * Replaces (or appends) the section between `<!-- name:start -->` and `<!-- name:end -->` in
 * sdk/BENCHMARKS.md, or in `file` (e.g. the repository's docs/benchmarks.md).
 */
export function writeBenchmarkSection(name: string, markdown: string, file = FILE): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text = from >= 0 && to > from ? text.slice(0, from) + block + text.slice(to + end.length) : text.trimEnd() + '\n\n' + block + '\n';
  writeFileSync(file, text);
}

export function machineLine(): string {
  return `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${new Date().toISOString().slice(0, 10)}`;
}
