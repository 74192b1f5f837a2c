/**
 * Operator commands while the embedded server runs (issue 31, decision 052): the real server
 * (`server/src/main.ts` in its own process, as `npm start` runs it) holds the data folder, and
 * the command line sends each command over the control socket in it. Another user is refused:
 * the test runs as root and runs the command line, and a bare connection, as `nobody` (uid 65534);
 * loosened modes and a request without the folder's token are refused too.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTempDir, type TempDir } from '@tracker/core/testing';
import * as tar from 'tar';
import { runCli } from '../src/cli';
import { controlPaths } from '../src/operator/control-paths';
import { startChildServer, type ChildServer } from './child-server';
import { gql, gqlOk, sendError, signUpWithProject } from './helpers';

const NOBODY = 65534;
const ROOT = join(__dirname, '..', '..');

/** Runs `node <args>` as `nobody`; resolves with its exit code and output. */
function runAsNobody(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      uid: NOBODY,
      gid: NOBODY,
      // Cast: some installed type packages (Next.js's) make NODE_ENV a required key of ProcessEnv.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: '/tmp',
        TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'),
        ...env,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** One raw request line to the socket, as root; the answer line, or the connection's error code. */
function rawRequest(socketPath: string, line: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const s = connect(socketPath, () => s.write(`${line}\n`));
    s.on('data', (d) => (answer += d));
    s.on('end', () => resolve(answer));
    s.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`));
  });
}

describe(
  'operator commands while the embedded server runs (control socket)',
  { skip: process.getuid?.() !== 0 && 'needs root to act as another user' },
  () => {
    let dir: TempDir;
    let server: ChildServer | undefined;
    let env: Record<string, string>;
    let paths: ReturnType<typeof controlPaths>;
    let owner: Awaited<ReturnType<typeof signUpWithProject>>;

    before(async () => {
      dir = createTempDir('trk-ctl-');
      env = { TRACKER_DATA_DIR: dir.path };
      paths = controlPaths(dir.path);
      server = await startChildServer(
        { TRACKER_DATA_DIR: dir.path, TRACKER_LOG_LEVEL: 'info' },
        'ingest,worker,api,web',
        {
          startTimeoutMs: 180_000,
        },
      );
      owner = await signUpWithProject(server.url);
    });
    after(async () => {
      await server?.kill();
      dir?.remove();
    });

    test("the control folder is the owner's alone: 0700 directory, 0600 socket and token", () => {
      assert.equal(statSync(paths.dir).mode & 0o777, 0o700);
      assert.equal(statSync(paths.socket).mode & 0o777, 0o600);
      assert.equal(statSync(paths.token).mode & 0o777, 0o600);
    });

    test('every command works while the server runs, and takes effect at once', async () => {
      const plan = `query($id: ID!) { organization(id: $id) { plan } }`;
      const set = await runCli(['org:set-plan', owner.organization.slug, 'pro'], env);
      assert.deepEqual(set, { code: 0, out: `${owner.organization.slug} is now on the pro plan` });
      assert.equal(
        (await gqlOk(server!.url, plan, { id: owner.organization.id }, owner.token)).organization.plan,
        'pro',
      );
      const marked = await gqlOk(
        server!.url,
        `mutation($p: ID!) { markRelease(projectId: $p, version: "2.0.0") { version } }`,
        { p: owner.project.id },
        owner.token,
      );
      assert.equal(marked.markRelease.version, '2.0.0');

      // An unknown plan: a clear message, a failing exit, nothing changed.
      const unknown = await runCli(['org:set-plan', owner.organization.slug, 'platinum'], env);
      assert.equal(unknown.code, 1);
      assert.match(unknown.out, /unknown plan "platinum": expected one of free, pro, business/);
      assert.equal(
        (await gqlOk(server!.url, plan, { id: owner.organization.id }, owner.token)).organization.plan,
        'pro',
      );
      assert.equal((await runCli(['org:set-plan', 'only-one'], env)).code, 2);

      const created = await runCli(['user:create', 'second-admin@example.com', '--admin'], env);
      assert.equal(created.code, 0, created.out);
      assert.match(
        created.out,
        /^created second-admin@example\.com \(organization \S+, instance admin\)\npassword: \S+$/,
      );
      const password = /password: (\S+)/.exec(created.out)![1];
      const login = await gqlOk(
        server!.url,
        `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`,
        { e: 'second-admin@example.com', p: password },
      );
      const admin = await gqlOk(server!.url, '{ viewer { isInstanceAdmin } }', {}, login.login.token);
      assert.equal(admin.viewer.isInstanceAdmin, true);

      // The running edge forgets the old key at once (the command ran in its process).
      const rotated = await runCli(['key:rotate', owner.project.id], env);
      assert.equal(rotated.code, 0, rotated.out);
      const newKey = /new DSN: http:\/\/(et_[0-9a-f]{32})@/.exec(rotated.out)![1];
      assert.equal(
        (await sendError(server!.url, owner.key, { type: 'E', message: 'm', environment: 'p' })).status,
        401,
      );
      assert.equal((await sendError(server!.url, newKey, { type: 'E', message: 'm', environment: 'p' })).status, 202);

      assert.deepEqual(await runCli(['dead-letter:list'], env), { code: 0, out: 'no dead letters' });
      assert.deepEqual(await runCli(['dead-letter:replay', '--all'], env), { code: 0, out: 'no dead letters' });
      assert.deepEqual(await runCli(['dead-letter:purge', '--older-than', '30'], env), {
        code: 0,
        out: 'deleted 0 dead letter(s) older than 30 day(s)',
      });
      assert.match(server!.output(), /operator command over the control socket/);
    });

    test('another user is refused: by the command line, and by the kernel for a bare connection', async () => {
      const cliArgs = ['--conditions=@tracker/source', '--import', 'tsx', join(ROOT, 'server/src/cli.ts')];
      const setFree = [...cliArgs, 'org:set-plan', owner.organization.slug, 'free'];
      // The data folder as mkdtemp made it (0700): the other user cannot even look inside.
      const hidden = await runAsNobody(setFree, env);
      assert.equal(hidden.code, 1, hidden.out);
      assert.match(hidden.out, /error: \S+\/control belongs to another user: only the data folder's owner may use it/);
      // A data folder others may read: the control folder's owner is checked, and it is not them.
      chmodSync(dir.path, 0o755);
      const cli = await runAsNobody(setFree, env);
      assert.equal(cli.code, 1, cli.out);
      assert.match(
        cli.out,
        /error: \S+\/control belongs to user 0, not to you \(user 65534\): run the command as the user that runs Tracker/,
      );
      // Without the command line's own check, the kernel refuses the connection (0700 folder, 0600 socket).
      const bare = await runAsNobody(
        [
          '-e',
          `require('node:net').connect(${JSON.stringify(paths.socket)}).on('error', (e) => { console.log(e.code); process.exit(3); }).on('connect', () => { console.log('connected'); process.exit(0); })`,
        ],
        {},
      );
      assert.deepEqual(bare, { code: 3, out: 'EACCES\n' });
      const plan = await gqlOk(
        server!.url,
        `query($id: ID!) { organization(id: $id) { plan } }`,
        { id: owner.organization.id },
        owner.token,
      );
      assert.equal(plan.organization.plan, 'pro', 'nothing changed');
    });

    test("a request without the folder's token, or through a folder opened up to others, is refused", async () => {
      const request = (token: string) =>
        JSON.stringify({ v: 1, token, command: 'org:set-plan', args: [owner.organization.slug, 'free'] });
      const wrong = JSON.parse(await rawRequest(paths.socket, request('0'.repeat(64))));
      assert.equal(wrong.code, 1);
      assert.match(wrong.out, /refused by the running Tracker: the request did not carry the token/);
      assert.match(JSON.parse(await rawRequest(paths.socket, 'not json')).out, /not a control request/);
      assert.match(
        JSON.parse(await rawRequest(paths.socket, JSON.stringify({ v: 99 }))).out,
        /unknown protocol version/,
      );

      const token = readFileSync(paths.token, 'utf8');
      chmodSync(paths.dir, 0o755);
      try {
        // The server checks the folder on every request: the right token through an open folder is refused.
        const opened = JSON.parse(await rawRequest(paths.socket, request(token)));
        assert.equal(opened.code, 1);
        assert.match(opened.out, /control is open to other users \(mode 755\)/);
        // And the command line will not use it either.
        const cli = await runCli(['org:set-plan', owner.organization.slug, 'free'], env);
        assert.equal(cli.code, 1);
        assert.match(cli.out, /open to other users \(mode 755\)/);
      } finally {
        chmodSync(paths.dir, 0o700);
      }
      const plan = await gqlOk(
        server!.url,
        `query($id: ID!) { organization(id: $id) { plan } }`,
        { id: owner.organization.id },
        owner.token,
      );
      assert.equal(plan.organization.plan, 'pro', 'nothing changed');
      assert.match(server!.output(), /control socket request refused/);
    });

    test("with no server running (a dead run's socket left behind) the command opens the folder itself", async () => {
      await server!.kill();
      server = undefined;
      const set = await runCli(['org:set-plan', owner.organization.slug, 'business'], env);
      assert.deepEqual(set, { code: 0, out: `${owner.organization.slug} is now on the business plan` });
      // A backup of the folder leaves the dead run's socket and token out.
      const file = join(dir.path, '..', `${dir.path.split('/').pop()}.backup`);
      try {
        const backedUp = await runCli(['backup', file], env);
        assert.equal(backedUp.code, 0, backedUp.out);
        const names: string[] = [];
        await tar.t({ file, onReadEntry: (e) => void names.push(e.path) });
        assert.ok(names.length > 0);
        assert.deepEqual(
          names.filter((n) => n.replace(/^\.\//, '').startsWith('control')),
          [],
        );
      } finally {
        rmSync(file, { force: true });
      }
      const restarted = await startChildServer({ TRACKER_DATA_DIR: dir.path }, 'ingest,worker,api,web', {
        startTimeoutMs: 180_000,
      });
      server = restarted;
      const r = await gql(
        restarted.url,
        `query($id: ID!) { organization(id: $id) { plan } }`,
        { id: owner.organization.id },
        owner.token,
      );
      assert.equal(r.data?.organization.plan, 'business');
    });
  },
);
