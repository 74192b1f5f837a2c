import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { SdkSetup } from '../load-context';
import { CopyBlock, CopyButton } from './copy-button';

/** A JavaScript string literal for the snippet; the DSN is ours, but quote it properly anyway. */
function quote(value: string): string {
  return `'${value.replace(/[\\']/g, '\\$&')}'`;
}

/** An HTML attribute value for the `<script>` snippet. */
function attribute(value: string): string {
  return `"${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
}

/** A Python string literal for the sentry-python snippet. */
function pyQuote(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The same DSN in Sentry's SDKs, unchanged (docs/sentry-compatibility.md): they send to
 * `/api/<number>/envelope/`, a second door to the same pipeline.
 */
function sentrySnippets(dsn: string) {
  return {
    browser: `import * as Sentry from '@sentry/browser';

Sentry.init({
  dsn: ${quote(dsn)},
  release: '1.0.0',
  // Only errors, messages, feedback and logs are kept; tracing and replays are dropped.
});`,
    node: `import * as Sentry from '@sentry/node';

Sentry.init({
  dsn: ${quote(dsn)},
  release: '1.0.0',
});`,
    python: `import sentry_sdk

sentry_sdk.init(
    dsn=${pyQuote(dsn)},
    release="1.0.0",
)`,
  };
}

/** Whether the organization's plan may register releases, and where to upgrade when it may not. */
export type ReleasePlan = { allowed: true } | { allowed: false; plans: string; billingPath: string };

/**
 * The DSN with copy-paste snippets; `dsnOnly` for Settings, where the snippets would be noise.
 * Every install line points at this instance (`sdk`): the SDKs are on no public registry, and
 * the instance serves the script, the ES module and the npm tarballs itself
 * (docs/decisions/014-sdks-served-by-the-instance.md). Versioned URLs, so a lockfile's
 * integrity stays valid when the instance is upgraded.
 */
export function SetupInstructions({
  dsn,
  dsnOnly = false,
  sdk,
  releases,
  focusDsn = false,
}: {
  dsn: string;
  dsnOnly?: boolean;
  /** Focus and select the DSN when the page opens: a project waiting for its first event. */
  focusDsn?: boolean;
  sdk?: SdkSetup | null;
  releases?: ReleasePlan;
}) {
  const sentry = sentrySnippets(dsn);
  if (!dsn) {
    return (
      <p className="notice">
        Every DSN key of this project is disabled. Rotate the key under Settings to get a new DSN.
      </p>
    );
  }
  return (
    <div className="setup">
      <DsnField dsn={dsn} focus={focusDsn} />
      {dsnOnly ? null : sdk ? (
        <Snippets dsn={dsn} sdk={sdk} releases={releases} />
      ) : (
        <p className="notice">
          This instance was started without its SDK files (they are written by <code>npm run build</code>), so it cannot
          serve them yet. Send errors with the DSN over HTTP meanwhile (<code>POST /ingest/error</code>).
        </p>
      )}
      <details className="sentry-sdks" open={!dsnOnly}>
        <summary>Already using a Sentry SDK? Keep it and use this DSN</summary>
        <p className="hint">
          Errors, messages, user feedback and logs are kept; performance data, sessions and replays are dropped.
        </p>
        <Snippet
          title="Sentry in the browser"
          label="@sentry/browser"
          install="npm install @sentry/browser"
          code={sentry.browser}
        />
        <Snippet title="Sentry in Node.js" label="@sentry/node" install="npm install @sentry/node" code={sentry.node} />
        <Snippet title="Sentry in Python" label="sentry-python" install="pip install sentry-sdk" code={sentry.python} />
      </details>
    </div>
  );
}

function DsnField({ dsn, focus }: { dsn: string; focus: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focus && input.current) {
      input.current.focus();
      input.current.select();
    }
  }, [focus, dsn]);
  return (
    <div className="field">
      <label htmlFor="project-dsn">DSN</label>
      <div className="copy-row">
        <input ref={input} id="project-dsn" type="text" readOnly value={dsn} className="mono" />
        <CopyButton text={dsn} label="Copy DSN" />
      </div>
      <p className="hint">Public and write-only: it can send events to this project, nothing else.</p>
    </div>
  );
}

function Snippets({ dsn, sdk, releases }: { dsn: string; sdk: SdkSetup; releases?: ReleasePlan }) {
  const script = `<script src=${attribute(sdk.scriptUrl)}
  integrity=${attribute(sdk.scriptIntegrity)}
  crossorigin="anonymous"></script>
<script>
  Tracker.init({
    dsn: ${quote(dsn)},
    release: '1.0.0', // the version you deploy; source maps are looked up by it
  });
</script>`;
  // The preload carries the integrity: the import that follows uses the module it fetched.
  const module = `<link rel="modulepreload" href=${attribute(sdk.moduleUrl)}
  integrity=${attribute(sdk.moduleIntegrity)} crossorigin="anonymous">
<script type="module">
  import * as Tracker from ${quote(sdk.moduleUrl)};

  Tracker.init({ dsn: ${quote(dsn)}, release: '1.0.0' });
</script>`;
  const browser = `import * as Tracker from '@tracker/browser';

Tracker.init({
  dsn: ${quote(dsn)},
  release: '1.0.0', // the version you deploy; source maps are looked up by it
});`;
  // Both module systems: a project without "type": "module" in package.json is CommonJS, where an
  // `import` statement fails ("Cannot use import statement outside a module"); the package ships both.
  const node = `import * as Tracker from '@tracker/node';

Tracker.init({
  dsn: ${quote(dsn)},
  release: '1.0.0',
});`;
  const nodeCommonJs = `const Tracker = require('@tracker/node');

Tracker.init({
  dsn: ${quote(dsn)},
  release: '1.0.0',
});`;
  const next = `// .env: NEXT_PUBLIC_TRACKER_DSN and TRACKER_DSN
//   ${dsn}

// instrumentation-client.ts (runs in the browser)
import { init } from '@tracker/next/client';

init({ environment: 'production' });

// instrumentation.ts (runs on the server)
export { register, onRequestError } from '@tracker/next/server';

// package.json: upload source maps after each build
// "postbuild": "tracker-upload-sourcemaps"`;
  const register = `curl -X POST ${sdk.publicUrl}/ingest/release \\
  -H 'Authorization: Bearer etu_<upload token>' -H 'Content-Type: application/json' \\
  -d '{"version":"1.0.0","environment":"production"}'`;
  return (
    <>
      <Snippet
        title="In the browser, with a script tag"
        hint={`@tracker/browser ${sdk.version}, served by this instance; the integrity hash makes the browser refuse any other file.`}
        label="script tag"
        code={script}
      />
      <Snippet title="In the browser, as an ES module" label="ES module" code={module} />
      <Snippet
        title="In the browser, with a bundler"
        install={`npm install ${sdk.tarballs.browser}`}
        label="@tracker/browser"
        code={browser}
      />
      {[
        {
          system: 'ES modules (import)',
          hint: 'For .mjs files, or a package.json with "type": "module".',
          label: 'ES module',
          code: node,
        },
        {
          system: 'CommonJS (require)',
          hint: 'For .cjs files, or a package.json without "type": "module" (npm init\'s default).',
          label: 'CommonJS',
          code: nodeCommonJs,
        },
      ].map((s) => (
        <Snippet
          key={s.label}
          title={`In Node.js, ${s.system}`}
          hint={s.hint}
          install={`npm install ${sdk.tarballs.node}`}
          label={`@tracker/node ${s.label}`}
          code={s.code}
        />
      ))}
      <Snippet
        title="In Next.js"
        hint="@tracker/next installs @tracker/browser and @tracker/node from this instance too."
        install={`npm install ${sdk.tarballs.next}`}
        label="Next.js"
        code={next}
      />
      {releases?.allowed ? (
        <Snippet
          title="Register each deploy"
          hint="Create an upload token under Settings; a release registered per deploy drives regressions and release health."
          label="release registration"
          code={register}
        />
      ) : releases ? (
        <section className="snippet">
          <h3>Register each deploy</h3>
          <p className="muted">
            Registering releases (regressions by release, release health) needs {releases.plans}.{' '}
            <Link to={releases.billingPath}>Upgrade in Billing</Link>. Events still carry their <code>release</code>,
            and source maps uploaded for it de-minify their stack traces on every plan.
          </p>
        </section>
      ) : null}
    </>
  );
}

function Snippet({
  title,
  hint,
  install,
  code,
  label,
}: {
  title: string;
  hint?: string;
  install?: string;
  code: string;
  label: string;
}) {
  return (
    <section className="snippet">
      <div className="snippet-head">
        <h3>{title}</h3>
        <CopyButton text={code} label={`Copy the ${label} snippet`} />
      </div>
      {hint ? <p className="hint">{hint}</p> : null}
      {install ? <CopyBlock text={install} label={`Copy the ${label} install command`} /> : null}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </section>
  );
}
