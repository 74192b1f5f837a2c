/**
 * A destructive submit behind a second click, without a script or a browser dialog: the first
 * click opens a <details> that holds the real submit button.
 */
export function ConfirmButton(props: {
  intent: string;
  label: string;
  confirmLabel: string;
  disabled?: boolean;
  name?: string;
}) {
  return (
    <details className="confirm">
      <summary
        className="button button-small button-danger"
        aria-label={props.name ? `${props.label} ${props.name}` : undefined}
      >
        {props.label}
      </summary>
      <button
        type="submit"
        name="intent"
        value={props.intent}
        className="button button-small button-danger"
        disabled={props.disabled}
      >
        {props.confirmLabel}
      </button>
    </details>
  );
}
