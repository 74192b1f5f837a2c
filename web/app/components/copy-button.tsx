import { useState } from 'react';

/**
 * Copies `text` to the clipboard. Without JavaScript (or clipboard permission) the text beside it
 * stays selectable and the button does nothing. The visible word is "Copy"; `label` ("Copy DSN")
 * is the accessible name.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
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
    // The name is the visible word and, hidden, what it copies ("Copy DSN"): an aria-label would
    // stop matching the visible text once it says "Copied" (axe: label-content-name-mismatch).
    <button type="button" className="button button-small copy-button" onClick={copy}>
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
      <span className="visually-hidden">{label.replace(/^Copy/, '')}</span>
    </button>
  );
}

/** A command or snippet as a block with its copy button. */
export function CopyBlock({ text, label }: { text: string; label: string }) {
  return (
    <div className="copy-block">
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={label} />
    </div>
  );
}
