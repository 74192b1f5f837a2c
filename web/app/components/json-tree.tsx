import { visibleText } from '../lib/visible-text';

/** Entries shown per object or array; the rest are counted, not rendered. */
const MAX_ENTRIES = 200;

type JsonTreeProps = {
  /** Any JSON value an event carried (its context, its user). */
  value: unknown;
  /** Text for screen readers and tests: what the tree is. */
  label: string;
};

/**
 * A JSON value written by whoever holds the DSN, as an expandable tree: the top level open,
 * nested objects and arrays in `<details>` (the first level open, deeper ones closed), so it
 * expands without any script under the strict CSP (decision 007). Keys and values are React
 * text only, bidi controls made visible; strings are shown JSON-quoted, so a newline or a
 * trailing space is seen rather than lost.
 */
export function JsonTree({ value, label }: JsonTreeProps) {
  if (value === null || typeof value !== 'object') {
    return (
      <p className="json-tree" aria-label={label}>
        <JsonScalar value={value} />
      </p>
    );
  }
  return <JsonEntries value={value} depth={0} label={label} />;
}

function JsonEntries({ value, depth, label }: { value: object; depth: number; label?: string }) {
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const hidden = entries.length - MAX_ENTRIES;
  return (
    <ul className="json-tree" aria-label={label}>
      {entries.slice(0, MAX_ENTRIES).map(([key, child]) => (
        <li key={key}>
          <JsonEntry name={key} value={child} depth={depth} index={Array.isArray(value)} />
        </li>
      ))}
      {hidden > 0 && <li className="muted">… {hidden} more</li>}
    </ul>
  );
}

function JsonEntry({ name, value, depth, index }: { name: string; value: unknown; depth: number; index: boolean }) {
  const key = <span className={index ? 'json-index' : 'json-key'}>{visibleText(name)}</span>;
  if (value === null || typeof value !== 'object') {
    return (
      <>
        {key}: <JsonScalar value={value} />
      </>
    );
  }
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  if (size === 0) {
    return (
      <>
        {key}: <span className="json-empty">{Array.isArray(value) ? '[]' : '{}'}</span>
      </>
    );
  }
  return (
    <details open={depth === 0}>
      <summary>
        {key}{' '}
        <span className="muted">
          {Array.isArray(value) ? `[${size} item${size === 1 ? '' : 's'}]` : `{${size} key${size === 1 ? '' : 's'}}`}
        </span>
      </summary>
      <JsonEntries value={value} depth={depth + 1} />
    </details>
  );
}

function JsonScalar({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="json-string">{visibleText(JSON.stringify(value))}</span>;
  if (typeof value === 'number' || typeof value === 'boolean')
    return <span className="json-literal">{String(value)}</span>;
  return <span className="json-literal">null</span>;
}
