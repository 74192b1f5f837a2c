import { useEffect, useRef } from 'react';
import { CopyButton } from './copy-button';

/**
 * A secret the API returns once (a token, an invitation link): shown with a warning, never stored.
 * It takes the focus when it appears (selected, scrolled to the middle of the screen), so it is
 * where the eye is after the click that created it, and it has a copy button.
 */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    el.select();
    el.scrollIntoView({ block: 'center' });
  }, [value]);
  return (
    <div className="secret" role="status">
      <label htmlFor="secret-value">
        <strong>{label}</strong>: copy it now, it will not be shown again.
      </label>
      <div className="copy-row">
        <input ref={input} id="secret-value" type="text" readOnly value={value} className="mono" />
        <CopyButton text={value} label="Copy the secret" />
      </div>
    </div>
  );
}
