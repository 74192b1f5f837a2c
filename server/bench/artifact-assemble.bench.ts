/**
 * Issue 30's target: a 1 MB artifact bundle (a sentry-cli zip of real esbuild maps) is assembled
 * in < 2 s. Against a real Tracker in this process (embedded PGlite, then PostgreSQL + Redis):
 * upload the bundle as one chunk, then time `POST …/artifactbundle/assemble/` (join, sha1, unzip
 * within the limits, validate every map, store by debug ID and release, one transaction). The
 * baseline of the same run is `POST /ingest/sourcemaps` with the same maps as JSON. CPU is this
 * process's (server and client: the client's share is a fetch of a small JSON body).
 *
 *   cd server && TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/artifact-assemble.bench.ts
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createTempDir,
  describeMachine,
  fmt,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
} from '@tracker/core/testing';
import { strToU8, zipSync } from 'fflate';
import { createTestEnv, startTracker, type Mode } from '../test/helpers';
import { assemble, buildApp, cliTenant, sha1, uploadChunks } from '../test/sentry-cli-harness';

const ROUNDS = 5;
const TARGET_BYTES = 1024 * 1024;

/** Maps with fresh debug IDs, zipped as sentry-cli does, until the zip reaches 1 MB. */
function makeBundle(map: string, script: string) {
  const files: Record<string, Uint8Array> = {};
  const manifest: Record<string, unknown> = {};
  const maps: Array<{ filename: string; map: string; debugId: string }> = [];
  let zip = new Uint8Array();
  for (let i = 0; zip.length < TARGET_BYTES; i++) {
    const debugId = randomUUID();
    const text = JSON.stringify({ ...JSON.parse(map), debug_id: debugId });
    files[`files/_/_/app${i}.js.map`] = strToU8(text);
    files[`files/_/_/app${i}.js`] = strToU8(`${script}\n//# debugId=${debugId}`);
    manifest[`files/_/_/app${i}.js.map`] = {
      type: 'source_map',
      url: `~/app${i}.js.map`,
      headers: { 'debug-id': debugId },
    };
    manifest[`files/_/_/app${i}.js`] = {
      type: 'minified_source',
      url: `~/app${i}.js`,
      headers: { 'debug-id': debugId, sourcemap: `app${i}.js.map` },
    };
    maps.push({ filename: `app${i}.js.map`, map: text, debugId });
    zip = zipSync({ 'manifest.json': strToU8(JSON.stringify({ files: manifest, attributes: {} })), ...files });
  }
  return { zip, maps };
}

async function runMode(mode: Mode, map: string, script: string) {
  const env = await createTestEnv(mode);
  const tracker = await startTracker(env, { roles: ['ingest', 'api'] });
  try {
    const t = await cliTenant(tracker.url);
    const rows = {
      assemble: [] as number[],
      assembleCpu: [] as number[],
      json: [] as number[],
      jsonCpu: [] as number[],
    };
    let zipBytes = 0;
    let uncompressed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { zip, maps } = makeBundle(map, script);
      zipBytes = zip.length;
      uncompressed = maps.reduce((n, m) => n + m.map.length, 0);
      const up = await uploadChunks(tracker.url, t, [{ name: sha1(zip), data: zip }]);
      if (up.status !== 200) throw new Error(`chunk upload: ${up.status} ${await up.text()}`);
      let cpu = process.cpuUsage();
      let at = performance.now();
      const r = await assemble(tracker.url, t, { checksum: sha1(zip), chunks: [sha1(zip)], version: `bench-${round}` });
      rows.assemble.push(performance.now() - at);
      let used = process.cpuUsage(cpu);
      rows.assembleCpu.push(used.user + used.system);
      if (r.body.state !== 'ok') throw new Error(`assemble: ${JSON.stringify(r.body)}`);

      cpu = process.cpuUsage();
      at = performance.now();
      const j = await fetch(`${tracker.url}/ingest/sourcemaps`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.uploadToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          release: `json-${round}`,
          files: maps.map(({ filename, map: m }) => ({ filename, map: m })),
        }),
      });
      rows.json.push(performance.now() - at);
      used = process.cpuUsage(cpu);
      rows.jsonCpu.push(used.user + used.system);
      if (j.status !== 200) throw new Error(`/ingest/sourcemaps: ${j.status} ${await j.text()}`);
    }
    return { mode, zipBytes, uncompressed, ...rows };
  } finally {
    await tracker.close();
    await env.cleanup();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const machine = describeMachine();
  const loadAtStart = loadAverage();
  const dir = createTempDir();
  await buildApp(dir.path);
  const map = readFileSync(join(dir.path, 'app.js.map'), 'utf8');
  const script = readFileSync(join(dir.path, 'app.js'), 'utf8');
  dir.remove();
  const results = [];
  for (const mode of ['embedded', 'postgres+redis'] as Mode[]) results.push(await runMode(mode, map, script));
  const out = results.flatMap((r) => {
    const mb = r.zipBytes / (1024 * 1024);
    return [
      [
        r.mode,
        'artifact bundle assemble',
        fmt(r.zipBytes),
        fmt(median(r.assemble), 1),
        fmt(Math.max(...r.assemble), 1),
        fmt(median(r.assembleCpu) / mb),
      ],
      [
        r.mode,
        'baseline: /ingest/sourcemaps, same maps as JSON',
        fmt(r.uncompressed),
        fmt(median(r.json), 1),
        fmt(Math.max(...r.json), 1),
        fmt(median(r.jsonCpu) / mb),
      ],
    ];
  });
  const markdown = `### sentry-cli artifact bundles: assemble of a 1 MB bundle (issue 30: < 2 s)

\`cd server && TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/artifact-assemble.bench.ts\`

- **Machine**: ${machineLine(machine)}; 1-minute load average ${loadAtStart} at the start, ${loadAverage()} at the end.
- A zip of real esbuild maps (the @sentry/browser 11 test app) with fresh debug IDs, uploaded as one chunk, then assembled with a release: ${ROUNDS} rounds per mode, each a new bundle. CPU is this process's (Tracker in process plus the client's small requests), per MB of zip.

${table(['mode', 'request', 'body bytes', 'median ms', 'max ms', 'CPU µs per MB of bundle'], out)}
`;
  console.log(markdown);
  writeDocSection('artifact-assemble', markdown);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
