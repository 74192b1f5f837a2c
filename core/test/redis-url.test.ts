import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, jobProjectId, loadConfig, parseRedisUrl, queueShardOf, queueStreamKeys } from '../src';

const base = { DATABASE_URL: 'postgres://localhost/x', TRACKER_DATA_DIR: '/tmp/x' };

test('a cluster URL names its seeds, credentials and TLS', () => {
  assert.deepEqual(parseRedisUrl('redis+cluster://app:s%40cret@10.0.0.1:7000,redis-b:7001'), {
    kind: 'cluster',
    rootNodes: ['redis://10.0.0.1:7000', 'redis://redis-b:7001'],
    username: 'app',
    password: 's@cret',
    tls: false,
  });
  assert.equal(parseRedisUrl('rediss+cluster://h:7000').kind, 'cluster');
  assert.deepEqual((parseRedisUrl('rediss+cluster://h:7000') as { rootNodes: string[] }).rootNodes, [
    'rediss://h:7000',
  ]);
  assert.deepEqual(parseRedisUrl('redis://localhost:6379/2'), { kind: 'single', url: 'redis://localhost:6379/2' });
});

test('refuses REDIS_URLs a cluster or server cannot take, naming the field', () => {
  for (const bad of [
    'redis+cluster://',
    'redis+cluster://h',
    'redis+cluster://h:7000,',
    'redis+cluster://h:7000/1',
    'http://h:6379',
    'redis+cluster://h:99999',
  ]) {
    assert.throws(
      () => loadConfig({ ...base, REDIS_URL: bad }),
      (err: unknown) => err instanceof ConfigError && err.message.includes('REDIS_URL'),
      bad,
    );
  }
});

test('TRACKER_QUEUE_SHARDS: 1 by default, more needs Redis, and braces in the prefix are refused', () => {
  assert.equal(loadConfig({ ...base, REDIS_URL: 'redis://h:6379' }).queueShards, 1);
  assert.equal(loadConfig({ ...base, REDIS_URL: 'redis://h:6379', TRACKER_QUEUE_SHARDS: '4' }).queueShards, 4);
  assert.throws(() => loadConfig({ ...base, TRACKER_QUEUE_SHARDS: '4' }), /TRACKER_QUEUE_SHARDS/);
  assert.throws(
    () => loadConfig({ ...base, REDIS_URL: 'redis://h:6379', TRACKER_QUEUE_SHARDS: '0' }),
    /TRACKER_QUEUE_SHARDS/,
  );
  assert.throws(
    () => loadConfig({ ...base, REDIS_URL: 'redis+cluster://h:7000', TRACKER_REDIS_PREFIX: 'a{b}' }),
    /TRACKER_REDIS_PREFIX/,
  );
  // One server and one stream: a brace is nobody's business.
  assert.equal(loadConfig({ ...base, REDIS_URL: 'redis://h:6379', TRACKER_REDIS_PREFIX: 'a{b}' }).redisPrefix, 'a{b}');
});

test('one shard keeps the old stream name; more carry their hash tag', () => {
  assert.deepEqual(queueStreamKeys('t', 1), ['t:jobs']);
  assert.deepEqual(queueStreamKeys('t', 3), ['t:jobs:{0}', 't:jobs:{1}', 't:jobs:{2}']);
});

test("a job's project is read from its head, or parsed; the shard is stable", () => {
  const id = '6f1c1a0e-3b1e-4c1e-9d7a-0c6f0f3f9a11';
  const head = `{"v":1,"kind":"error","projectId":"${id}","receivedAt":"x","event":{"context":{"projectId":"other"}}}`;
  assert.equal(jobProjectId(head), id);
  assert.equal(jobProjectId(Buffer.from(head)), id);
  assert.equal(jobProjectId(`{"kind":"log","log":{},"projectId":"${id}"}`), id);
  assert.equal(jobProjectId('poison'), undefined);
  assert.equal(queueShardOf(id, 4), queueShardOf(id, 4));
  assert.equal(queueShardOf(undefined, 4), 0);
  const spread = new Set(
    Array.from({ length: 64 }, (_, i) => queueShardOf(`${id.slice(0, -2)}${i.toString(16).padStart(2, '0')}`, 4)),
  );
  assert.equal(spread.size, 4);
});
