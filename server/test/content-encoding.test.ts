import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { queryRows, setOrganizationPlan } from '@tracker/core';
import type { Tracker } from '../src';
import {
  chromeStack,
  createTestEnv,
  gqlOk,
  ISSUES_QUERY,
  MODES,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

type Coding = 'gzip' | 'deflate' | 'br';

/** How a client may compress a body: the header it sends and the bytes it sends. */
const VARIANTS: Array<{ name: string; header: string; encode: (b: Buffer) => Buffer }> = [
  { name: 'gzip', header: 'gzip', encode: (b) => zlib.gzipSync(b) },
  { name: 'deflate', header: 'deflate', encode: (b) => zlib.deflateSync(b) },
  { name: 'br', header: 'br', encode: (b) => zlib.brotliCompressSync(b) },
  // "deflate" is zlib-wrapped by the RFC, but some clients send the raw stream.
  { name: 'raw deflate', header: 'deflate', encode: (b) => zlib.deflateRawSync(b) },
];

const GIB = 1024 * 1024 * 1024;

/** `size` zero bytes compressed with `coding`, built a megabyte at a time (never held whole). */
async function bomb(coding: Coding, size: number): Promise<Buffer> {
  const z =
    coding === 'gzip'
      ? zlib.createGzip({ level: 9 })
      : coding === 'deflate'
        ? zlib.createDeflate({ level: 9 })
        : // quality 4 packs 1 GiB of zeros into under 1 KB in about a second (11 takes half a minute)
          zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => z.on('end', resolve));
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < size / chunk.length; i++) {
    if (!z.write(chunk)) await new Promise((resolve) => z.once('drain', resolve));
  }
  z.end();
  await ended;
  return Buffer.concat(out);
}

/** Bombs built once for both runtimes: each expands to 1 GiB (gzip and deflate: ~1 MB; br: < 1 KB). */
let bombs: Promise<Record<Coding, Buffer>> | undefined;
const gigabyteBombs = () =>
  (bombs ??= (async () => ({ gzip: await bomb('gzip', GIB), deflate: await bomb('deflate', GIB), br: await bomb('br', GIB) }))());

async function post(url: string, path: string, body: Buffer | string, headers: Record<string, string>) {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

function tinyMap(file = 'app.js'): string {
  return JSON.stringify({ version: 3, file, sources: ['src/app.ts'], names: [], mappings: 'AAAA' });
}

const CREATE_TOKEN = `mutation($p: ID!, $n: String!) { createUploadToken(projectId: $p, name: $n) { token } }`;

for (const mode of MODES) {
  describe(`Content-Encoding on every ingest endpoint (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    let a: Awaited<ReturnType<typeof signUpWithProject>>;
    let uploadToken: string;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      url = tracker.url;
      a = await signUpWithProject(url);
      // Registering releases is a release-health feature (not on the free plan).
      await setOrganizationPlan(tracker.db.ds, a.organization.slug, 'pro');
      uploadToken = (await gqlOk(url, CREATE_TOKEN, { p: a.project.id, n: 'CI' }, a.token)).createUploadToken.token;
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    const rowWhere = async (sql: string, params: unknown[]) => (await queryRows<any>(tracker.db.ds, sql, params))[0];

    /**
     * Every ingest endpoint: the body to send (distinct per `tag`), its authorization, its body
     * limit as the 413 names it, and how to find what it stored.
     */
    const endpoints = () => {
      const dsn = { authorization: `DSN ${a.key}` };
      const upload = { authorization: `Bearer ${uploadToken}` };
      return [
        {
          path: '/ingest/error',
          headers: dsn,
          status: 202,
          limit: '1 MB',
          body: (tag: string) => ({
            type: `Encoded${tag.replace(/\W/g, '')}Error`,
            message: `sent as ${tag}`,
            environment: 'production',
            stack: chromeStack(`fn${tag.replace(/\W/g, '')}`, 1),
          }),
          stored: async (tag: string, res: any) => {
            const issues = (await gqlOk(url, ISSUES_QUERY, { p: a.project.id, first: 100 }, a.token)).issues;
            const issue = issues.nodes.find((i: any) => i.latestEvent?.eventId === res.id);
            return issue?.latestEvent.message === `sent as ${tag}`;
          },
        },
        {
          path: '/ingest/log',
          headers: dsn,
          status: 202,
          limit: '1 MB',
          body: (tag: string) => ({ level: 'info', message: `sent as ${tag}` }),
          stored: async (tag: string, res: any) =>
            (await rowWhere('SELECT message FROM logs WHERE project_id = $1 AND id = $2', [a.project.id, res.id]))
              ?.message === `sent as ${tag}`,
        },
        {
          path: '/ingest/vitals',
          headers: dsn,
          status: 202,
          limit: '1 MB',
          body: (tag: string) => ({ url: `https://a.example/${encodeURIComponent(tag)}`, metrics: { LCP: 1200 } }),
          stored: async (tag: string, res: any) =>
            (await rowWhere('SELECT url FROM vitals_reports WHERE project_id = $1 AND id = $2', [a.project.id, res.id]))
              ?.url === `https://a.example/${encodeURIComponent(tag)}`,
        },
        {
          path: '/ingest/feedback',
          headers: dsn,
          status: 202,
          limit: '1 MB',
          body: (tag: string) => ({ message: `sent as ${tag}` }),
          stored: async (tag: string, res: any) =>
            (await rowWhere('SELECT message FROM feedback WHERE project_id = $1 AND id = $2', [a.project.id, res.id]))
              ?.message === `sent as ${tag}`,
        },
        {
          path: '/ingest/release',
          headers: upload,
          status: 200,
          limit: '16 KB',
          body: (tag: string) => ({ version: `v-${tag}` }),
          stored: async (tag: string) =>
            (await rowWhere('SELECT version FROM releases WHERE project_id = $1 AND version = $2', [a.project.id, `v-${tag}`]))
              ?.version === `v-${tag}`,
        },
        {
          path: '/ingest/sourcemaps',
          headers: upload,
          status: 200,
          limit: '10 MB',
          body: (tag: string) => ({ release: `r-${tag}`, files: [{ filename: 'app.js.map', map: tinyMap() }] }),
          stored: async (tag: string) =>
            (
              await rowWhere('SELECT filename FROM source_maps WHERE project_id = $1 AND release = $2', [
                a.project.id,
                `r-${tag}`,
              ])
            )?.filename === 'app.js.map',
        },
      ];
    };

    test('gzip, deflate (zlib-wrapped and raw) and br bodies are accepted and stored on every endpoint', async () => {
      for (const e of endpoints()) {
        for (const v of VARIANTS) {
          const tag = `${v.name} ${mode}`;
          const body = v.encode(Buffer.from(JSON.stringify(e.body(tag))));
          const r = await post(url, e.path, body, { ...e.headers, 'content-encoding': v.header });
          assert.equal(r.status, e.status, `${e.path} ${v.name}: ${JSON.stringify(r.body)}`);
          await waitFor(`${e.path} ${v.name} stored`, () => e.stored(tag, r.body));
        }
      }
    });

    test('identity, an empty value and any letter case are fine', async () => {
      const e = endpoints()[1];
      for (const [header, body] of [
        ['identity', Buffer.from(JSON.stringify(e.body('identity')))],
        ['', Buffer.from(JSON.stringify(e.body('empty')))],
        ['GZip', zlib.gzipSync(JSON.stringify(e.body('GZip')))],
        ['x-gzip', zlib.gzipSync(JSON.stringify(e.body('x-gzip')))],
      ] as const) {
        const r = await post(url, e.path, body, { ...e.headers, 'content-encoding': header });
        assert.equal(r.status, 202, `"${header}": ${JSON.stringify(r.body)}`);
      }
    });

    test('a compressed POST /ingest/error is left to fastify by the fast path, and both paths still answer', async () => {
      const e = endpoints()[0];
      const plain = await post(url, e.path, JSON.stringify(e.body('warm')), e.headers); // the key is now cached
      assert.equal(plain.status, 202);
      const taken = tracker.ingestFastPath!.taken;
      const again = await post(url, e.path, JSON.stringify(e.body('plain')), e.headers);
      assert.equal(again.status, 202);
      assert.equal(tracker.ingestFastPath!.taken, taken + 1, 'the fast path still takes plain bodies');
      const gz = await post(url, e.path, zlib.gzipSync(JSON.stringify(e.body('fast path'))), {
        ...e.headers,
        'content-encoding': 'gzip',
      });
      assert.equal(gz.status, 202, JSON.stringify(gz.body));
      assert.equal(tracker.ingestFastPath!.taken, taken + 1, 'fastify took the compressed one');
      await waitFor('the compressed event', () => e.stored('fast path', gz.body));
    });

    test('a decompression bomb is 413 on every endpoint, and memory stays bounded', async () => {
      const big = await gigabyteBombs();
      // The release endpoint's limit is 16 KB: its gzip and deflate bombs must be smaller than
      // that before decoding, or the Content-Length alone would refuse them.
      const small = { gzip: await bomb('gzip', 8 * 1024 * 1024), deflate: await bomb('deflate', 8 * 1024 * 1024), br: big.br };
      for (const b of [...Object.values(big), ...Object.values(small)]) assert.ok(b.length < 1024 * 1024);

      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 2);
      try {
        for (const e of endpoints()) {
          for (const coding of ['gzip', 'deflate', 'br'] as const) {
            const body = (e.path === '/ingest/release' ? small : big)[coding];
            const r = await post(url, e.path, body, { ...e.headers, 'content-encoding': coding });
            assert.equal(r.status, 413, `${e.path} ${coding}: ${JSON.stringify(r.body)}`);
            assert.deepEqual(r.body, {
              error: {
                code: 'PAYLOAD_TOO_LARGE',
                message: `body exceeds the limit of ${e.limit} once decoded (Content-Encoding: ${coding})`,
              },
            });
            peak = Math.max(peak, process.memoryUsage().rss);
          }
        }
      } finally {
        clearInterval(sampler);
      }
      const grewMb = (peak - baseline) / (1024 * 1024);
      assert.ok(grewMb < 100, `RSS grew by ${grewMb.toFixed(0)} MB while refusing 18 bombs of up to 1 GiB`);
      // Inflating stopped at the limit: nothing keeps decompressing the rest after the 413 (were it
      // to, the 15 one-GiB bombs would keep zlib's threads busy for seconds: about 1 s of CPU in
      // this second, against ~10 ms measured when it stops).
      const cpuBefore = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      assert.ok(cpuMs < 300, `${cpuMs.toFixed(0)} ms of CPU in the second after the bombs were refused`);

      // The server is fine afterwards, on the same keep-alive connections.
      const e = endpoints()[1];
      const ok = await post(url, e.path, zlib.gzipSync(JSON.stringify(e.body('after bombs'))), {
        ...e.headers,
        'content-encoding': 'gzip',
      });
      assert.equal(ok.status, 202);
    });

    test('a body just within the limit once decoded is accepted', async () => {
      // 1 MB decoded exactly: the limit is inclusive, as for plain bodies.
      const e = endpoints()[1];
      const prefix = '{"level":"info","message":"';
      const suffix = '"}';
      const text = prefix + 'x'.repeat(1024 * 1024 - prefix.length - suffix.length) + suffix;
      const r = await post(url, e.path, zlib.gzipSync(text), { ...e.headers, 'content-encoding': 'gzip' });
      // (the message is cut to the schema's cap, as for a plain body)
      assert.equal(r.status, 202, JSON.stringify(r.body));
      const over = await post(url, e.path, zlib.gzipSync(`${text} `), { ...e.headers, 'content-encoding': 'gzip' });
      assert.equal(over.status, 413);
    });

    test('a chunked compressed body (no Content-Length) is decoded within the same limit', async () => {
      const e = endpoints()[1];
      const chunked = async (bytes: Buffer) => {
        const res = await fetch(`${url}${e.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...e.headers, 'content-encoding': 'gzip' },
          body: new ReadableStream({
            start(controller) {
              for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.subarray(i, i + 16 * 1024));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit);
        return { status: res.status, body: (await res.json()) as any };
      };
      const ok = await chunked(zlib.gzipSync(JSON.stringify(e.body('chunked'))));
      assert.equal(ok.status, 202, JSON.stringify(ok.body));
      await waitFor('the chunked log', () => e.stored('chunked', ok.body));
      // Incompressible: 3 MB on the wire as well as decoded.
      const noise = await chunked(zlib.gzipSync(randomBytes(3 * 1024 * 1024)));
      assert.equal(noise.status, 413, JSON.stringify(noise.body));
      assert.equal(noise.body.error.message, 'body exceeds the limit of 1 MB once decoded (Content-Encoding: gzip)');
      const bombed = await chunked((await gigabyteBombs()).gzip);
      assert.equal(bombed.status, 413, JSON.stringify(bombed.body));
    });

    test('an unknown encoding or a list of several is 415 naming the supported ones', async () => {
      for (const e of endpoints()) {
        for (const header of ['compress', 'zstd', 'x-foo', 'gzip, br', 'identity, gzip']) {
          const r = await post(url, e.path, zlib.gzipSync(JSON.stringify(e.body('415'))), {
            ...e.headers,
            'content-encoding': header,
          });
          assert.equal(r.status, 415, `${e.path} "${header}": ${JSON.stringify(r.body)}`);
          assert.equal(r.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
          assert.equal(
            r.body.error.message,
            `Content-Encoding "${header}" is not supported; send the body as gzip, deflate, br or identity (one coding, not a list)`,
          );
        }
      }
    });

    test('a corrupt or truncated compressed body is 400 with a clear message', async () => {
      const json = Buffer.from(JSON.stringify({ level: 'info', message: 'x'.repeat(2000) }));
      const gz = zlib.gzipSync(json);
      const flipped = Buffer.from(gz);
      flipped[Math.floor(gz.length / 2)] ^= 0xff;
      const cases: Array<[string, Coding, Buffer, RegExp]> = [
        ['plain JSON labelled gzip', 'gzip', json, /^body: not valid gzip data \(incorrect header check\)/],
        ['a flipped byte in gzip', 'gzip', flipped, /^body: not valid gzip data \(/],
        ['truncated gzip', 'gzip', gz.subarray(0, gz.length - 10), /^body: not valid gzip data \(unexpected end of file\)/],
        ['garbage labelled deflate', 'deflate', Buffer.from('\u0007\u00ff\u00ff\u00ffnot deflate'), /^body: not valid deflate data \(/],
        ['plain JSON labelled br', 'br', json, /^body: not valid br data \(/],
        ['truncated br', 'br', zlib.brotliCompressSync(json).subarray(0, 20), /^body: not valid br data \(/],
      ];
      for (const e of endpoints()) {
        for (const [name, coding, body, message] of cases) {
          const r = await post(url, e.path, body, { ...e.headers, 'content-encoding': coding });
          assert.equal(r.status, 400, `${e.path} ${name}: ${JSON.stringify(r.body)}`);
          assert.equal(r.body.error.code, 'BAD_USER_INPUT');
          assert.match(r.body.error.message, message, `${e.path} ${name}`);
        }
      }
      // Well-formed compression around malformed JSON is the JSON parser's 400, as for plain bodies.
      const e = endpoints()[1];
      const r = await post(url, e.path, zlib.gzipSync('{"level": '), { ...e.headers, 'content-encoding': 'gzip' });
      assert.equal(r.status, 400);
      assert.match(r.body.error.message, /^body: malformed JSON/);
    });

    test('a browser may send Content-Encoding (the preflight allows it)', async () => {
      const res = await fetch(`${url}/ingest/error`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, content-encoding',
        },
      });
      assert.equal(res.status, 204);
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /Content-Encoding/);
    });
  });
}
