/**
 * The real sentry-cli 3.8 binary (npm `@sentry/cli`, pinned) against a running Tracker, on an
 * upload token: `info`, `releases new|set-commits --local|finalize`, `deploys new`; then what it
 * did is visible through GraphQL and the dashboard, down to the suspect commit of an issue.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTempDir } from '@tracker/core/testing';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, sendError, startTracker, waitFor, type TestEnv } from './helpers';
import { accountWithUploadToken, makeGitRepo, runSentryCli, sentryApi } from './sentry-api-helpers';

const RELEASE_QUERY = `query($p: ID!) { releases(projectId: $p) { version environment dateReleased
  commits { id repository authorName authorEmail message timestamp files } } }`;
const SUSPECTS_QUERY = `query($id: ID!) { issue(id: $id) { id suspectCommits { release files
  commit { id authorName authorEmail message timestamp } } } }`;

for (const mode of MODES) {
  describe(`sentry-cli 3.8 against Tracker (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let a: Awaited<ReturnType<typeof accountWithUploadToken>>;
    const tmp = createTempDir();
    const repo = join(tmp.path, 'repo');
    const home = join(tmp.path, 'home');
    let shas: string[];
    const cli = (args: string[]) =>
      runSentryCli(args, {
        url: tracker.url,
        token: a.uploadToken,
        org: a.organization.slug,
        project: 'web-app',
        cwd: repo,
        home,
      });

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
      a = await accountWithUploadToken(tracker);
      mkdirSync(repo, { recursive: true });
      mkdirSync(home, { recursive: true });
      shas = makeGitRepo(repo, [
        {
          files: { 'README.md': '# shop\n', 'src/checkout/cart.ts': 'export const total = 0;\n' },
          message: 'Initial shop',
          author: 'Grace Hopper',
          email: 'grace@example.com',
          date: '2026-11-20T10:00:00+00:00',
        },
        {
          files: { 'src/checkout/cart.ts': 'export function total(items) { return items.reduce(); }\n' },
          message: 'Cart: sum the items without an initial value',
          author: 'Ada Lovelace',
          email: 'ada@example.com',
          date: '2026-11-21T10:00:00+00:00',
        },
        {
          files: { 'docs/notes.md': 'unrelated\n' },
          message: 'Docs: notes',
          author: 'Alan Turing',
          email: 'alan@example.com',
          date: '2026-11-22T10:00:00+00:00',
        },
      ]);
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
      tmp.remove();
    });

    test('info verifies the upload token and prints the scopes', async () => {
      const r = await cli(['info']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Default Organization: org-/);
      assert.match(r.stdout, /project:releases/);
    });

    test('releases new, set-commits --local, finalize and deploys new all succeed', async () => {
      const created = await cli(['releases', 'new', 'shop@1.4.0']);
      assert.equal(created.code, 0, created.stdout + created.stderr);
      assert.match(created.stdout, /Created release shop@1\.4\.0/);

      const commits = await cli(['releases', 'set-commits', 'shop@1.4.0', '--local']);
      assert.equal(commits.code, 0, commits.stdout + commits.stderr);
      assert.match(commits.stdout, /Success! Set commits for release shop@1\.4\.0/);

      const finalized = await cli(['releases', 'finalize', 'shop@1.4.0']);
      assert.equal(finalized.code, 0, finalized.stdout + finalized.stderr);
      assert.match(finalized.stdout, /Finalized release shop@1\.4\.0/);

      const deploy = await cli(['deploys', 'new', '--release', 'shop@1.4.0', '-e', 'staging', '-n', 'blue']);
      assert.equal(deploy.code, 0, deploy.stdout + deploy.stderr);
      assert.match(deploy.stdout, /Created new deploy blue for 'staging'/);

      const info = await cli(['releases', 'info', 'shop@1.4.0']);
      assert.equal(info.code, 0, info.stdout + info.stderr);
      assert.match(info.stdout, /shop@1\.4\.0/);
    });

    test('GraphQL shows the release per environment, its finalize date and its commits with their files', async () => {
      const data = await gqlOk(tracker.url, RELEASE_QUERY, { p: a.project.id }, a.token);
      const rows = data.releases.filter((r: { version: string }) => r.version === 'shop@1.4.0');
      assert.deepEqual(rows.map((r: { environment: string }) => r.environment).sort(), ['production', 'staging']);
      for (const r of rows) {
        assert.ok(r.dateReleased && !Number.isNaN(Date.parse(r.dateReleased)), JSON.stringify(r));
        assert.deepEqual(
          r.commits.map((c: { id: string }) => c.id),
          [shas[2], shas[1], shas[0]],
        );
      }
      const ada = rows[0].commits[1];
      assert.equal(ada.authorName, 'Ada Lovelace');
      assert.equal(ada.authorEmail, 'ada@example.com');
      assert.match(ada.message, /^Cart: sum the items/);
      assert.equal(ada.timestamp, '2026-11-21T10:00:00.000Z');
      assert.deepEqual(ada.files, ['src/checkout/cart.ts']);
      assert.deepEqual(rows[0].commits[2].files.sort(), ['README.md', 'src/checkout/cart.ts']);
    });

    test('an issue whose in-app frame names a changed file shows that suspect commit, newest first', async () => {
      const sent = await sendError(tracker.url, a.key, {
        message: 'Reduce of empty array with no initial value',
        type: 'TypeError',
        environment: 'staging',
        release: 'shop@1.4.0',
        stack:
          'TypeError: Reduce of empty array with no initial value\n' +
          '    at Array.reduce (<anonymous>)\n' +
          '    at total (/srv/shop/src/checkout/cart.ts:1:48)\n' +
          '    at render (/srv/shop/node_modules/ui/index.js:3:1)',
      });
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      const issueId = await waitFor('the issue', async () => {
        const [row] = await tracker.db.ds.query('SELECT issue_id FROM events WHERE event_id = $1', [sent.body.id]);
        return row?.issue_id as string | undefined;
      });
      const data = await gqlOk(tracker.url, SUSPECTS_QUERY, { id: issueId }, a.token);
      const suspects = data.issue.suspectCommits;
      assert.deepEqual(
        suspects.map((s: { commit: { id: string } }) => s.commit.id),
        [shas[1], shas[0]],
        'the two commits that changed cart.ts, newest first; not the docs commit',
      );
      assert.equal(suspects[0].release, 'shop@1.4.0');
      assert.deepEqual(suspects[0].files, ['src/checkout/cart.ts']);
      assert.equal(suspects[0].commit.authorName, 'Ada Lovelace');

      const page = await issuePage(tracker.url, a.email, a.project.id, issueId);
      for (const shown of ['Suspect commits', 'Cart: sum the items without an initial value', 'Ada Lovelace']) {
        assert.ok(page.includes(shown), `the issue page shows "${shown}"`);
      }
      assert.ok(!page.includes('Docs: notes'), 'the commit that changed no frame file is not a suspect');
    });

    test("a later release's commits do not become suspects of an issue that first appeared earlier", async () => {
      const created = await cli(['releases', 'new', 'shop@1.5.0']);
      assert.equal(created.code, 0, created.stdout + created.stderr);
      const put = await sentryApi(
        tracker.url,
        'PUT',
        `/api/0/organizations/${a.organization.slug}/releases/shop@1.5.0/`,
        a.uploadToken,
        {
          commits: [
            {
              id: 'f00dfeed',
              repository: 'shop',
              author_name: 'Later Author',
              author_email: 'later@example.com',
              message: 'Cart: a later change',
              timestamp: '2026-11-25T10:00:00+00:00',
              patch_set: [{ path: 'src/checkout/cart.ts', type: 'M' }],
            },
          ],
        },
      );
      assert.equal(put.status, 200, put.text);
      const sent = await sendError(tracker.url, a.key, {
        message: 'Reduce of empty array with no initial value',
        type: 'TypeError',
        environment: 'production',
        release: 'shop@1.5.0',
        stack:
          'TypeError: Reduce of empty array with no initial value\n' +
          '    at Array.reduce (<anonymous>)\n' +
          '    at total (/srv/shop/src/checkout/cart.ts:1:48)\n' +
          '    at render (/srv/shop/node_modules/ui/index.js:3:1)',
      });
      assert.equal(sent.status, 202);
      const issueId = await waitFor('the event', async () => {
        const [row] = await tracker.db.ds.query('SELECT issue_id FROM events WHERE event_id = $1', [sent.body.id]);
        return row?.issue_id as string | undefined;
      });
      const data = await gqlOk(tracker.url, SUSPECTS_QUERY, { id: issueId }, a.token);
      assert.deepEqual(
        data.issue.suspectCommits.map((s: { release: string; commit: { id: string } }) => [s.release, s.commit.id]),
        [
          ['shop@1.4.0', shas[1]],
          ['shop@1.4.0', shas[0]],
        ],
      );
    });
  });
}

/** The issue page as the dashboard renders it for a signed-in member. */
async function issuePage(url: string, email: string, projectId: string, issueId: string): Promise<string> {
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({ email, password: 'correct horse battery' }),
    redirect: 'manual',
  });
  await login.arrayBuffer();
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  assert.match(cookie, /^tracker_session=/, `signed in (${login.status})`);
  const res = await fetch(`${url}/projects/${projectId}/issues/${issueId}`, { headers: { cookie } });
  const html = await res.text();
  assert.equal(res.status, 200, html.slice(0, 500));
  return html;
}
