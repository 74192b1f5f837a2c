import { useState } from 'react';

/** A JavaScript string literal for the snippet; the DSN is ours, but quote it properly anyway. */
function quote(value: string): string {
  return `'${value.replace(/[\\']/g, '\\$&')}'`;
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

/**
 * The DSN with copy-paste snippets; `dsnOnly` for Settings, where our own snippets would be
 * noise: it shows only the Sentry SDK snippets, folded, for a team moving an app over.
 */
export function SetupInstructions({ dsn, dsnOnly = false }: { dsn: string; dsnOnly?: boolean }) {
  const sentry = sentrySnippets(dsn);
  const browser = `import * as Tracker from '@tracker/browser';

Tracker.init({
  dsn: ${quote(dsn)},
  release: '1.0.0', // the version you deploy; enables regressions and release health
});`;
  const node = `import * as Tracker from '@tracker/node';

Tracker.init({
  dsn: ${quote(dsn)},
  release: '1.0.0',
});`;
  // @tracker/next holds only the source-map uploader so far: a Next.js app uses the browser SDK
  // in instrumentation-client.ts and the Node SDK in instrumentation.ts.
  const next = `// instrumentation-client.ts (runs in the browser)
import * as Tracker from '@tracker/browser';

Tracker.init({
  dsn: ${quote(dsn)},
  release: process.env.NEXT_PUBLIC_TRACKER_RELEASE,
});

// instrumentation.ts (runs on the server)
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const Tracker = await import('@tracker/node');
    Tracker.init({
      dsn: ${quote(dsn)},
      release: process.env.NEXT_PUBLIC_TRACKER_RELEASE,
    });
  }
}

// package.json: upload source maps after each build
// "build": "next build && tracker-upload-sourcemaps"`;
  if (!dsn) {
    return (
      <p className="notice">
        Every DSN key of this project is disabled. Rotate the key under Settings to get a new DSN.
      </p>
    );
  }
  return (
    <div className="setup">
      <div className="field">
        <label htmlFor="project-dsn">DSN</label>
        <div className="copy-row">
          <input id="project-dsn" type="text" readOnly value={dsn} className="mono" />
          <CopyButton text={dsn} label="Copy DSN" />
        </div>
        <p className="hint">Public and write-only: it can send events to this project, nothing else.</p>
      </div>
      {dsnOnly ? null : (
        <>
          <Snippet title="In the browser" packageName="@tracker/browser" code={browser} />
          <Snippet title="In Node.js" packageName="@tracker/node" code={node} />
          <Snippet
            title="In Next.js"
            packageName="@tracker/browser @tracker/node @tracker/next"
            label="Next.js"
            code={next}
          />
        </>
      )}
      <details className="sentry-sdks" open={!dsnOnly}>
        <summary>Already using a Sentry SDK? Keep it and use this DSN</summary>
        <p className="hint">
          Errors, messages, user feedback and logs are kept; performance data, sessions and replays are dropped.
        </p>
        <Snippet title="Sentry in the browser" packageName="@sentry/browser" code={sentry.browser} />
        <Snippet title="Sentry in Node.js" packageName="@sentry/node" code={sentry.node} />
        <Snippet
          title="Sentry in Python"
          packageName="sentry-sdk"
          label="sentry-python"
          install="pip install sentry-sdk"
          code={sentry.python}
        />
      </details>
    </div>
  );
}

function Snippet({
  title,
  packageName,
  code,
  label = packageName,
  install = `npm install ${packageName}`,
}: {
  title: string;
  packageName: string;
  code: string;
  label?: string;
  install?: string;
}) {
  return (
    <section className="snippet">
      <div className="snippet-head">
        <h3>{title}</h3>
        <CopyButton text={code} label={`Copy the ${label} snippet`} />
      </div>
      <pre>
        <code>{install}</code>
      </pre>
      <pre>
        <code>{code}</code>
      </pre>
    </section>
  );
}

// Without JavaScript (or clipboard permission) the text stays selectable; the button just does nothing.
function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button type="button" className="button button-small" onClick={copy} aria-label={label}>
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </button>
  );
}
