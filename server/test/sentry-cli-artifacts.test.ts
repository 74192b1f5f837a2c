import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { zipSync, strToU8 } from 'fflate';
import type { Tracker } from '../src';
import { MODES, createTestEnv, startTracker, type TestEnv } from './helpers';
import { assemble, cliTenant, sha1, uploadChunks } from './sentry-cli-harness';

const DEBUG_ID = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
const OTHER_ID = '2a2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
const MAP = JSON.stringify({
  version: 3,
  file: 'app.js',
  sources: ['src/app.ts'],
  sourcesContent: ['export const a = 1;\n'],
  names: [],
  mappings: 'AAAA',
  debug_id: DEBUG_ID,
});

/** A bundle as sentry-cli writes it: `manifest.json` and the files it lists. */
function bundle(
  files: Record<string, { type: string; url: string; headers?: Record<string, string>; data: Uint8Array }>,
) {
  const manifest = {
    files: Object.fromEntries(
      Object.entries(files).map(([path, f]) => [path, { type: f.type, url: f.url, headers: f.headers ?? {} }]),
    ),
    attributes: {},
  };
  return zipSync({
    'manifest.json': strToU8(JSON.stringify(manifest)),
    ...Object.fromEntries(Object.entries(files).map(([p, f]) => [p, f.data])),
  });
}

const goodBundle = () =>
  bundle({
    'files/_/_/app.js.map': {
      type: 'source_map',
      url: '~/app.js.map',
      headers: { 'debug-id': DEBUG_ID },
      data: strToU8(MAP),
    },
  });

/**
 * sentry-cli's upload endpoints spoken directly (issue 30): the options, the release-bound and
 * legacy uploads, and hostile uploads, each answered with a clear status or assemble state and
 * nothing stored before it lost. The real sentry-cli runs in sentry-cli-sourcemaps.test.ts.
 */
for (const mode of MODES) {
  describe(`sentry-cli's artifact endpoints, hostile uploads included (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api'] });
    });
    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
    });

    const storedMaps = async (projectId: string) =>
      Number(
        (
          await tracker.db.ds.query('SELECT count(*) AS n FROM debug_id_source_maps WHERE project_id = $1', [projectId])
        )[0].n,
      );

    /** Uploads a good bundle first, so each refusal can be shown to lose nothing. */
    async function tenantWithAMap() {
      const t = await cliTenant(tracker.url);
      const zip = goodBundle();
      assert.equal((await uploadChunks(tracker.url, t, [{ name: sha1(zip), data: zip }])).status, 200);
      const r = await assemble(tracker.url, t, { checksum: sha1(zip), chunks: [sha1(zip)] });
      assert.deepEqual(r.body, { state: 'ok', missingChunks: [], detail: null });
      assert.equal(await storedMaps(t.project.id), 1);
      return t;
    }

    test('advertises chunked uploads as sentry-cli reads them', async () => {
      const t = await cliTenant(tracker.url);
      const r = await fetch(`${tracker.url}/api/0/organizations/${t.org}/chunk-upload/`, {
        headers: { authorization: `Bearer ${t.uploadToken}` },
      });
      assert.equal(r.status, 200);
      const body = (await r.json()) as any;
      assert.equal(body.hashAlgorithm, 'sha1');
      assert.deepEqual(body.compression, ['gzip']);
      for (const k of ['chunkSize', 'chunksPerRequest', 'maxRequestSize', 'concurrency'])
        assert.equal(typeof body[k], 'number', k);
      for (const a of ['artifact_bundles', 'release_files', 'sources']) assert.ok(body.accept.includes(a), a);
      assert.equal(body.url, `/organizations/${t.org}/chunk-upload/`);
    });

    test('a zip bomb is refused with an error state, and the map stored before stays', async () => {
      const t = await tenantWithAMap();
      const bomb = bundle({
        'files/_/_/app.js.map': { type: 'source_map', url: '~/app.js.map', data: new Uint8Array(40 * 1024 * 1024) },
      });
      assert.ok(bomb.length < 1024 * 1024, `the bomb is small (${bomb.length} bytes)`);
      assert.equal((await uploadChunks(tracker.url, t, [{ name: sha1(bomb), data: bomb }])).status, 200);
      const r = await assemble(tracker.url, t, { checksum: sha1(bomb), chunks: [sha1(bomb)] });
      assert.equal(r.status, 200);
      assert.equal(r.body.state, 'error');
      assert.match(r.body.detail, /zip bomb/);
      assert.equal(await storedMaps(t.project.id), 1, 'nothing else lost');
    });

    test('a chunk whose content does not match its sha1 is refused whole (400), and never assembled', async () => {
      const t = await tenantWithAMap();
      const data = strToU8('real content');
      const wrong = sha1(strToU8('other content'));
      const good = strToU8('good chunk');
      const r = await uploadChunks(tracker.url, t, [
        { name: sha1(good), data: good },
        { name: wrong, data },
      ]);
      assert.equal(r.status, 400);
      assert.match(((await r.json()) as any).detail, /sha1/);
      const a = await assemble(tracker.url, t, {
        checksum: sha1(Buffer.concat([good, data])),
        chunks: [sha1(good), wrong],
      });
      assert.deepEqual(
        a.body,
        { state: 'not_found', missingChunks: [sha1(good), wrong], detail: null },
        'the request stored nothing',
      );
      assert.equal(await storedMaps(t.project.id), 1);
    });

    test('an assemble naming chunks never sent answers not_found with exactly those', async () => {
      const t = await tenantWithAMap();
      // Another bundle than the one already assembled (that one would answer ok at once).
      const zip = bundle({
        'files/_/_/other.js.map': {
          type: 'source_map',
          url: '~/other.js.map',
          data: strToU8(MAP.replace(DEBUG_ID, OTHER_ID)),
        },
      });
      const half = [zip.subarray(0, 50), zip.subarray(50)];
      assert.equal((await uploadChunks(tracker.url, t, [{ name: sha1(half[0]), data: half[0] }])).status, 200);
      const r = await assemble(tracker.url, t, { checksum: sha1(zip), chunks: half.map((h) => sha1(h)) });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { state: 'not_found', missingChunks: [sha1(half[1])], detail: null });
      // sentry-cli then uploads the missing one and asks again.
      assert.equal((await uploadChunks(tracker.url, t, [{ name: sha1(half[1]), data: half[1] }])).status, 200);
      const again = await assemble(tracker.url, t, { checksum: sha1(zip), chunks: half.map((h) => sha1(h)) });
      assert.equal(again.body.state, 'ok');
      assert.equal(await storedMaps(t.project.id), 2, 'its map is stored under its own debug ID');
    });

    test("another project's token is refused (403) on the organization and on the bundle's projects", async () => {
      const mine = await tenantWithAMap();
      const theirs = await cliTenant(tracker.url, 'Other');
      const r = await fetch(`${tracker.url}/api/0/organizations/${mine.org}/chunk-upload/`, {
        headers: { authorization: `Bearer ${theirs.uploadToken}` },
      });
      assert.equal(r.status, 403);
      assert.match(((await r.json()) as any).detail, /organization/);
      const zip = goodBundle();
      const a = await assemble(
        tracker.url,
        { ...theirs, projectSlug: mine.projectSlug, org: theirs.org },
        { checksum: sha1(zip), chunks: [sha1(zip)], projects: [String(mine.number)] },
      );
      assert.equal(a.status, 403);
      assert.equal(await storedMaps(mine.project.id), 1);
      assert.equal(await storedMaps(theirs.project.id), 0);
    });

    test('a release-bound bundle stores its map by debug ID and by release under the script it serves', async () => {
      const t = await cliTenant(tracker.url);
      const zip = bundle({
        'files/_/_/static/app.3f2a.js': {
          type: 'minified_source',
          url: '~/static/app.3f2a.js',
          headers: { sourcemap: 'maps/app.3f2a.js.map', 'debug-id': OTHER_ID },
          data: strToU8('throw new Error("x")'),
        },
        'files/_/_/maps/app.3f2a.js.map': { type: 'source_map', url: '~/maps/app.3f2a.js.map', data: strToU8(MAP) },
      });
      assert.equal((await uploadChunks(tracker.url, t, [{ name: sha1(zip), data: zip }])).status, 200);
      const r = await fetch(
        `${tracker.url}/api/0/organizations/${t.org}/releases/${encodeURIComponent('shop@1.0')}/assemble/`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${t.uploadToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ checksum: sha1(zip), chunks: [sha1(zip)] }),
        },
      );
      assert.deepEqual(await r.json(), { state: 'ok', missingChunks: [], detail: null });
      const byRelease = await tracker.db.ds.query('SELECT release, filename FROM source_maps WHERE project_id = $1', [
        t.project.id,
      ]);
      assert.deepEqual(byRelease, [{ release: 'shop@1.0', filename: 'app.3f2a.js' }]);
      const byId = await tracker.db.ds.query(
        'SELECT debug_id, filename FROM debug_id_source_maps WHERE project_id = $1',
        [t.project.id],
      );
      assert.deepEqual(
        byId,
        [{ debug_id: OTHER_ID, filename: '~/maps/app.3f2a.js.map' }],
        "the script's debug-id header names the map",
      );
    });

    test('the legacy release-files upload stores a map (201) and refuses another project (403)', async () => {
      const t = await cliTenant(tracker.url);
      const other = await cliTenant(tracker.url, 'Other');
      const upload = (tenant: typeof t, project: string, name: string, data: string) => {
        const form = new FormData();
        form.append('file', new Blob([data]), name.slice(name.lastIndexOf('/') + 1));
        form.append('name', name);
        return fetch(`${tracker.url}/api/0/projects/${tenant.org}/${project}/releases/2.0.0/files/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.uploadToken}` },
          body: form,
        });
      };
      const r = await upload(t, t.projectSlug, '~/assets/app.js.map', MAP);
      assert.equal(r.status, 201);
      assert.equal(((await r.json()) as any).name, '~/assets/app.js.map');
      assert.equal((await upload(t, t.projectSlug, '~/assets/app.js', 'var a=1;')).status, 201);
      const bad = await upload(t, t.projectSlug, '~/assets/broken.js.map', '{"version": 3}');
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as any).detail, /broken\.js\.map/);
      assert.equal((await upload(other, t.projectSlug, '~/x.js.map', MAP)).status, 403);
      const rows = await tracker.db.ds.query('SELECT release, filename FROM source_maps WHERE project_id = $1', [
        t.project.id,
      ]);
      assert.deepEqual(rows, [{ release: '2.0.0', filename: 'app.js.map' }]);
    });

    test('a path-traversal name in the manifest fails the bundle with a clear state', async () => {
      const t = await tenantWithAMap();
      const evil = bundle({
        '../../etc/app.js.map': { type: 'source_map', url: '~/app.js.map', data: strToU8(MAP) },
      });
      assert.equal((await uploadChunks(tracker.url, t, [{ name: sha1(evil), data: evil }])).status, 200);
      const r = await assemble(tracker.url, t, { checksum: sha1(evil), chunks: [sha1(evil)] });
      assert.equal(r.body.state, 'error');
      assert.match(r.body.detail, /unsafe .*name/);
      assert.equal(await storedMaps(t.project.id), 1);
    });
  });
}
