import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const FILE = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const HEADER = `# SDK benchmarks

Written by \`npm run bench\` in \`sdk/browser\` (size) and \`sdk/node\` (capture cost); each run
replaces its own section. Figures from one run on the machine named in the section.
`;

/** Replaces (or appends) the section between `<!-- name:start -->` and `<!-- name:end -->`. */
export function writeBenchmarkSection(name: string, markdown: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text = from >= 0 && to > from ? text.slice(0, from) + block + text.slice(to + end.length) : text.trimEnd() + '\n\n' + block + '\n';
  writeFileSync(FILE, text);
}

export function machineLine(): string {
  return `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${new Date().toISOString().slice(0, 10)}`;
}
