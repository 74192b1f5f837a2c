import type { InputHTMLAttributes } from 'react';

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { name: string; label: string; hint?: string };

/**
 * A labelled input; the hint is tied to it with aria-describedby so screen readers read it too.
 * The id is `field-<name>` unless given: pass one when a page has two fields of the same name.
 */
export function Field({ label, hint, name, id: givenId, ...input }: FieldProps) {
  const id = givenId ?? `field-${name}`;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-describedby={hintId} {...input} />
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The API's message for a rejected form, announced when it appears. */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
