import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../src/accounts';
import {
  CHUNK_TTL_MS,
  MAX_PENDING_CHUNKS_PER_ORG,
  findMissingChunks,
  purgeExpiredChunks,
  sha1Hex,
  storeChunks,
} from '../src/artifacts';
import { openDatabase, type Database } from '../src/db';
import { AppError } from '../src/errors';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const chunk = (text: string) => ({ checksum: sha1Hex(Buffer.from(text)), data: Buffer.from(text) });

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`sentry-cli upload chunks (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let orgId: string;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir.path }, { migrate: true });
      const owner = await signUp(
        db.ds,
        { email: `chunks-${kind}@example.com`, password: 'correct horse battery', organizationName: 'Chunks' },
        'pro',
      );
      orgId = owner.organization.id;
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir.remove();
    });

    test('unassembled chunks go after 24 hours, younger ones stay', async () => {
      const [old, young] = [chunk('old chunk'), chunk('young chunk')];
      await storeChunks(db.ds, orgId, [old, young]);
      await db.ds.query(`UPDATE artifact_chunks SET uploaded_at = now() - interval '25 hours' WHERE checksum = $1`, [
        old.checksum,
      ]);
      assert.equal(await purgeExpiredChunks(db.ds, Date.now()), 1);
      assert.deepEqual(await findMissingChunks(db.ds, orgId, [old.checksum, young.checksum]), [old.checksum]);
      assert.equal(await purgeExpiredChunks(db.ds, Date.now() + CHUNK_TTL_MS + 60_000), 1, 'a day later');
    });

    test('an organization holds a bounded number of chunks; a chunk sent again is not counted twice', async () => {
      const many = Array.from({ length: MAX_PENDING_CHUNKS_PER_ORG }, (_, i) => chunk(`c${i}`));
      assert.equal(await storeChunks(db.ds, orgId, many), MAX_PENDING_CHUNKS_PER_ORG);
      await storeChunks(db.ds, orgId, [many[0]]);
      await assert.rejects(
        storeChunks(db.ds, orgId, [chunk('one too many')]),
        (e: unknown) => e instanceof AppError && e.code === 'PAYLOAD_TOO_LARGE' && /at most 1000/.test(e.message),
      );
      await purgeExpiredChunks(db.ds, Date.now() + CHUNK_TTL_MS + 60_000);
    });
  });
}
