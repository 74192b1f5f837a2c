/** A secret the API returns once (a token, an invitation link): shown with a warning, never stored. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret" role="status">
      <label htmlFor="secret-value">
        <strong>{label}</strong>: copy it now, it will not be shown again.
      </label>
      <input id="secret-value" type="text" readOnly value={value} className="mono" />
    </div>
  );
}
