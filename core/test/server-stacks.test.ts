import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_FRAMES, parseStack } from '../src/stacktrace';
import type { StackFrame } from '../src/stacktrace';

const stack = (name: string) => readFileSync(join(__dirname, 'fixtures', 'server-stacks', name), 'utf8');
const pick = ({ filename, function: fn, lineno, colno, inApp }: StackFrame) => ({ filename, fn, lineno, colno, inApp });

describe('stacks of other runtimes, as OpenTelemetry sends them (fixtures made by the real runtimes)', () => {
  test('CPython: the raised exception’s block of a chained traceback, innermost first, with its source lines', () => {
    const frames = parseStack(stack('python-chained.txt'));
    assert.deepEqual(frames.map(pick), [
      { filename: '/tmp/stk/app.py', fn: 'read_config', lineno: 11, colno: null, inApp: true },
      { filename: '/tmp/stk/app.py', fn: 'main', lineno: 15, colno: null, inApp: true },
    ]);
    assert.deepEqual(frames[0].context, { pre: [], line: 'raise RuntimeError("config unreadable") from e', post: [] });
  });

  test('CPython: 3.11 caret lines are not source, library and frozen frames are not in-app', () => {
    const text = [
      'Traceback (most recent call last):',
      '  File "<frozen runpy>", line 198, in _run_module_as_main',
      '  File "/usr/lib/python3/dist-packages/requests/api.py", line 59, in request',
      '    return session.request(method=method, url=url, **kwargs)',
      '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
      '  File "/srv/app/jobs.py", line 3, in run',
      '    ^^^^^',
      'ValueError: x',
    ].join('\n');
    const frames = parseStack(text);
    assert.deepEqual(
      frames.map((f) => [f.function, f.inApp, f.context?.line ?? null]),
      [
        ['run', true, null],
        ['request', false, 'return session.request(method=method, url=url, **kwargs)'],
        ['_run_module_as_main', false, null],
      ],
    );
  });

  test('Go: runtime/debug.Stack() of one goroutine, the runtime frame not in-app', () => {
    assert.deepEqual(parseStack(stack('go-debug-stack.txt')).map(pick), [
      {
        filename: '/usr/lib/go-1.19/src/runtime/debug/stack.go',
        fn: 'runtime/debug.Stack',
        lineno: 24,
        colno: null,
        inApp: false,
      },
      { filename: '/tmp/stk/main.go', fn: 'main.(*Store).Load', lineno: 11, colno: null, inApp: true },
      { filename: '/tmp/stk/main.go', fn: 'main.handle', lineno: 16, colno: null, inApp: true },
      { filename: '/tmp/stk/main.go', fn: 'main.main', lineno: 20, colno: null, inApp: true },
    ]);
  });

  test('Go: a panic print; `created by` is where the goroutine started, not one of its frames', () => {
    assert.deepEqual(parseStack(stack('go-panic.txt')).map(pick), [
      { filename: '/tmp/stk/panic.go', fn: 'main.worker', lineno: 5, colno: null, inApp: true },
      { filename: '/tmp/stk/panic.go', fn: 'main.main.func1', lineno: 12, colno: null, inApp: true },
    ]);
  });

  test('Go: only the first goroutine; dependencies from the module cache and net/http are not in-app', () => {
    const text = [
      'goroutine 7 [running]:',
      'github.com/acme/shop/orders.(*Service).Place(0xc000010000, {0x6b5e60, 0xc000012345})',
      '\t/home/ci/shop/orders/service.go:88 +0x1b4',
      'github.com/go-chi/chi/v5.(*Mux).ServeHTTP(0xc00009e000, {0x6b9a20, 0xc0000c2000}, 0xc0000d0000)',
      '\t/root/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.8/mux.go:90 +0x310',
      'net/http.serverHandler.ServeHTTP({0xc0000a0000?}, {0x6b9a20, 0xc0000c2000}, 0xc0000d0000)',
      '\t/usr/local/go/src/net/http/server.go:2936 +0x316',
      '',
      'goroutine 1 [IO wait]:',
      'internal/poll.runtime_pollWait(0x7f0, 0x72)',
      '\t/usr/local/go/src/runtime/netpoll.go:306 +0x89',
    ].join('\n');
    assert.deepEqual(
      parseStack(text).map((f) => [f.function, f.lineno, f.inApp]),
      [
        ['github.com/acme/shop/orders.(*Service).Place', 88, true],
        ['github.com/go-chi/chi/v5.(*Mux).ServeHTTP', 90, false],
        ['net/http.serverHandler.ServeHTTP', 2936, false],
      ],
    );
  });

  test('JVM: the reported exception’s frames, not its cause’s; module prefixes dropped', () => {
    assert.deepEqual(parseStack(stack('java-caused-by.txt')).map(pick), [
      { filename: 'App.java', fn: 'com.example.shop.App.start', lineno: 14, colno: null, inApp: true },
      { filename: 'App.java', fn: 'com.example.shop.App.lambda$main$0', lineno: 19, colno: null, inApp: true },
      { filename: 'App.java', fn: 'com.example.shop.App.main', lineno: 20, colno: null, inApp: true },
    ]);
    const cause = stack('java-caused-by.txt').split('Caused by: ')[1];
    assert.deepEqual(parseStack(cause).slice(0, 3).map(pick), [
      {
        filename: 'java.io.FileInputStream',
        fn: 'java.io.FileInputStream.open0',
        lineno: null,
        colno: null,
        inApp: false,
      },
      { filename: 'FileInputStream.java', fn: 'java.io.FileInputStream.open', lineno: 216, colno: null, inApp: false },
      {
        filename: 'FileInputStream.java',
        fn: 'java.io.FileInputStream.<init>',
        lineno: 157,
        colno: null,
        inApp: false,
      },
    ]);
  });

  test('.NET: the outer exception’s frames (after the inner one’s), with and without symbols', () => {
    assert.deepEqual(parseStack(stack('dotnet-inner.txt')).map(pick), [
      { filename: '/src/Shop/Config.cs', fn: 'Shop.Config.Load', lineno: 16, colno: null, inApp: true },
      { filename: '/src/Shop/Program.cs', fn: 'Shop.Program.<>c.<Main>b__0_0', lineno: 9, colno: null, inApp: true },
      {
        filename: 'System.Threading.Tasks.Task',
        fn: 'System.Threading.Tasks.Task.InnerInvoke',
        lineno: null,
        colno: null,
        inApp: false,
      },
      { filename: '/src/Shop/Program.cs', fn: 'Shop.Program.<Main>$', lineno: 3, colno: null, inApp: true },
    ]);
  });

  test('JavaScript frames are not taken for managed ones: `fn (url)` keeps its space', () => {
    const frames = parseStack(
      'Error: x\n    at run (/srv/app.js:3:9)\n    at /srv/app.js:9:1\n    at new Foo (/srv/foo.js:1:2)',
    );
    assert.deepEqual(
      frames.map((f) => [f.function, f.filename, f.lineno, f.colno]),
      [
        ['run', '/srv/app.js', 3, 9],
        [null, '/srv/app.js', 9, 1],
        ['new Foo', '/srv/foo.js', 1, 2],
      ],
    );
  });

  test('hostile text: bounded frames, no throw, a header alone gives nothing', () => {
    const deep =
      'Traceback (most recent call last):\n' +
      '  File "/a.py", line 1, in f\n    f()\n'.repeat(5_000) +
      'RecursionError: x';
    const frames = parseStack(deep);
    assert.equal(frames.length, MAX_FRAMES);
    const goroutines = 'goroutine 1 [running]:\n' + 'main.f()\n\t/a.go:1 +0x1\n'.repeat(5_000);
    assert.equal(parseStack(goroutines).length, MAX_FRAMES);
    assert.deepEqual(parseStack('Traceback (most recent call last):'), []);
    assert.deepEqual(parseStack('goroutine 1 [running]:\nnot a frame'), []);
    assert.deepEqual(parseStack('at x(' + '('.repeat(10_000)), []);
  });
});
