import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveTags, MAX_USER_AGENT_CHARS, withDerivedTags } from '../src/events/derive-tags';
import { MAX_TAGS } from '../src/events/wire-fields';

describe('deriveTags', () => {
  test('a Safari iPhone User-Agent gives browser, os and the device model', () => {
    const userAgent =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
    assert.deepEqual(deriveTags({ userAgent }), {
      browser: 'Mobile Safari 17',
      'browser.name': 'Mobile Safari',
      os: 'iOS 17.1.1',
      'os.name': 'iOS',
      device: 'iPhone',
    });
  });

  test('a desktop User-Agent has no device', () => {
    const userAgent =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86';
    assert.deepEqual(deriveTags({ userAgent }), {
      browser: 'Edge 131',
      'browser.name': 'Edge',
      os: 'Windows 10',
      'os.name': 'Windows',
    });
  });

  test("Node's runtime and os context; names without a version; junk ignored", () => {
    assert.deepEqual(
      deriveTags({ runtime: { name: 'node', version: '20.20.2' }, os: { name: 'Linux', version: '6.1' } }),
      {
        runtime: 'node 20.20.2',
        'runtime.name': 'node',
        os: 'Linux 6.1',
        'os.name': 'Linux',
      },
    );
    assert.deepEqual(deriveTags({ runtime: { name: 'bun' } }), { runtime: 'bun', 'runtime.name': 'bun' });
    for (const context of [null, {}, { runtime: 'node' }, { runtime: { name: '' } }, { os: [1] }, { userAgent: 7 }]) {
      assert.deepEqual(deriveTags(context as Record<string, unknown> | null), {});
    }
    assert.deepEqual(deriveTags({ userAgent: 'curl/8.5.0' }), {});
    assert.deepEqual(deriveTags({ userAgent: `Mozilla/5.0 Firefox/133.0 ${'x'.repeat(MAX_USER_AGENT_CHARS)}` }), {});
  });
});

describe('deriveTags for any SDK (decision 046)', () => {
  const chromeOnWindows =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

  test("the request's User-Agent header, whatever its case, when the context has none", () => {
    for (const name of ['User-Agent', 'user-agent', 'USER-AGENT']) {
      assert.deepEqual(deriveTags({}, { headers: { accept: '*/*', [name]: chromeOnWindows } }), {
        browser: 'Chrome 131',
        'browser.name': 'Chrome',
        os: 'Windows 10',
        'os.name': 'Windows',
      });
    }
    assert.deepEqual(deriveTags(null, { headers: { 'User-Agent': chromeOnWindows } })['browser.name'], 'Chrome');
  });

  test("context.userAgent wins over the request's header", () => {
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const tags = deriveTags({ userAgent: firefox }, { headers: { 'User-Agent': chromeOnWindows } });
    assert.equal(tags['browser.name'], 'Firefox');
  });

  test("contexts the event has win over the User-Agent's, tag by tag (a server SDK's own OS)", () => {
    const tags = deriveTags(
      { os: { name: 'Debian', version: '12' }, device: { model: 'Pixel 7' } },
      { headers: { 'User-Agent': chromeOnWindows } },
    );
    assert.deepEqual(tags, {
      browser: 'Chrome 131',
      'browser.name': 'Chrome',
      os: 'Debian 12',
      'os.name': 'Debian',
      device: 'Pixel 7',
    });
    const own = deriveTags(
      { browser: { name: 'Chrome', version: '130.0.6723.91' } },
      { headers: { 'User-Agent': chromeOnWindows } },
    );
    assert.equal(own.browser, 'Chrome 130');
  });
});

describe('withDerivedTags', () => {
  test("the event's own tags win and are never pushed out by derived ones", () => {
    const own = { browser: 'Kiosk 7' };
    assert.deepEqual(withDerivedTags(own, { browser: 'Chrome 131', 'browser.name': 'Chrome' }), {
      browser: 'Kiosk 7',
      'browser.name': 'Chrome',
    });
    const full = Object.fromEntries(Array.from({ length: MAX_TAGS }, (_, i) => [`t${i}`, 'v']));
    assert.equal(withDerivedTags(full, { browser: 'Chrome 131' }), full);
    const almost = Object.fromEntries(Array.from({ length: MAX_TAGS - 1 }, (_, i) => [`t${i}`, 'v']));
    assert.equal(Object.keys(withDerivedTags(almost, { browser: 'Chrome 131', os: 'Linux' })).length, MAX_TAGS);
  });

  test('derived values are cut to 200 characters with …', () => {
    const { runtime } = withDerivedTags({}, deriveTags({ runtime: { name: 'node', version: '9'.repeat(300) } }));
    assert.equal(runtime.length, 200);
    assert.ok(runtime.endsWith('…'));
  });
});
