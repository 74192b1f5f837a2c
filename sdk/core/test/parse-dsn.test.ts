import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveEndpoints, parseDsn } from '../src/index';

test('a URL DSN gives the key and the origin’s /ingest/error endpoint', () => {
  assert.deepEqual(parseDsn('https://et_abc123@ingest.example.com/42'), {
    key: 'et_abc123',
    endpoint: 'https://ingest.example.com/ingest/error',
  });
  assert.deepEqual(parseDsn('http://et_k-1@127.0.0.1:3000/7'), {
    key: 'et_k-1',
    endpoint: 'http://127.0.0.1:3000/ingest/error',
  });
});

test('an explicit endpoint wins over the one derived from a URL DSN', () => {
  assert.deepEqual(parseDsn('https://et_abc@a.example/1', 'https://b.example/proxy/ingest/error'), {
    key: 'et_abc',
    endpoint: 'https://b.example/proxy/ingest/error',
  });
});

test('a bare key needs an endpoint', () => {
  assert.equal(parseDsn('et_abc'), null);
  assert.deepEqual(parseDsn('et_abc', 'https://x.example/ingest/error'), {
    key: 'et_abc',
    endpoint: 'https://x.example/ingest/error',
  });
});

test('invalid or missing DSNs parse to null instead of throwing', () => {
  for (const bad of [undefined, null, '', 'nonsense', 42, {}, 'https://example.com/1', 'https://abc@example.com/1',
    'ftp://et_abc@example.com/1', 'https://et_abc@example.com', 'https://et_abc@example.com/']) {
    assert.equal(parseDsn(bad), null, String(bad));
  }
  assert.equal(parseDsn('et_abc', 'not a url'), null);
  assert.equal(parseDsn('et_abc', 'javascript:alert(1)'), null);
});

test('logs and vitals go to the origin, feedback keeps the proxy prefix', () => {
  assert.deepEqual(deriveEndpoints('https://app.example/proxy/ingest/error'), {
    error: 'https://app.example/proxy/ingest/error',
    log: 'https://app.example/ingest/log',
    vitals: 'https://app.example/ingest/vitals',
    feedback: 'https://app.example/proxy/ingest/feedback',
  });
});

test('no feedback endpoint when the error endpoint does not end in /ingest/error', () => {
  const endpoints = deriveEndpoints('https://app.example/collect');
  assert.equal(endpoints.feedback, undefined);
  assert.equal(endpoints.log, 'https://app.example/ingest/log');
});
