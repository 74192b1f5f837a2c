import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AppError, discoverProvider, parseEmailDomains } from '../src';

/** Issue 32: what Tracker accepts as an identity provider's discovery document, before anything is saved. */
describe('SSO discovery and settings input', () => {
  let server: http.Server;
  let base = '';
  const documents = new Map<string, (self: string) => string>();

  before(async () => {
    server = http.createServer((req, res) => {
      const prefix = (req.url ?? '').split('/.well-known/')[0]!;
      const make = documents.get(prefix);
      if (!make || !req.url?.endsWith('/.well-known/openid-configuration')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(make(`${base}${prefix}`));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const rejects = (p: Promise<unknown>, code: string, message: RegExp) =>
    assert.rejects(p, (e: unknown) => e instanceof AppError && e.code === code && message.test(e.message));

  test('refuses a discovery URL that is not https unless private targets are allowed', async () => {
    await rejects(discoverProvider('http://login.example.com', false), 'BAD_USER_INPUT', /must be an https URL/);
    await rejects(discoverProvider('https://127.0.0.1:9', false), 'BAD_USER_INPUT', /not a public address/);
    await rejects(discoverProvider('https://localhost', false), 'BAD_USER_INPUT', /this machine/);
    await rejects(discoverProvider('ftp://login.example.com', true), 'BAD_USER_INPUT', /scheme must be http or https/);
  });

  test('refuses a document missing fields, naming them', async () => {
    documents.set('/partial', (self) => JSON.stringify({ issuer: self, authorization_endpoint: `${self}/auth` }));
    await rejects(discoverProvider(`${base}/partial`, true), 'BAD_USER_INPUT', /has no token_endpoint, jwks_uri/);
  });

  test('refuses a document for another issuer, a code-less provider and a document of a megabyte', async () => {
    const full = (self: string, extra: object = {}) =>
      JSON.stringify({
        issuer: self,
        authorization_endpoint: `${self}/auth`,
        token_endpoint: `${self}/token`,
        jwks_uri: `${self}/jwks`,
        ...extra,
      });
    documents.set('/other', () => full('https://elsewhere.example.com'));
    await rejects(discoverProvider(`${base}/other`, true), 'BAD_USER_INPUT', /discovery at .* failed: .*issuer/i);
    documents.set('/implicit', (self) => full(self, { response_types_supported: ['id_token'] }));
    await rejects(discoverProvider(`${base}/implicit`, true), 'BAD_USER_INPUT', /authorization code flow/);
    documents.set('/huge', (self) => full(self, { pad: 'x'.repeat(1024 * 1024) }));
    await rejects(discoverProvider(`${base}/huge`, true), 'BAD_USER_INPUT', /larger than 64 KB/);
    documents.set('/good', (self) => full(self, { code_challenge_methods_supported: ['S256'] }));
    const metadata = await discoverProvider(`${base}/good`, true);
    assert.equal(metadata.token_endpoint, `${base}/good/token`);
  });

  test('email domains: lower-cased, de-duplicated, and only host names', () => {
    assert.deepEqual(parseEmailDomains([' Acme.COM', '@acme.com', 'acme.co.uk']), ['acme.com', 'acme.co.uk']);
    for (const bad of [['com'], ['acme .com'], ['*.acme.com'], ['acme.com/x'], []]) {
      assert.throws(
        () => parseEmailDomains(bad),
        (e: unknown) => e instanceof AppError && e.code === 'BAD_USER_INPUT',
      );
    }
  });
});
