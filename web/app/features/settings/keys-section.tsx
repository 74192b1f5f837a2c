import { Form } from '@remix-run/react';
import { ConfirmButton } from '../../components/confirm-button';
import { SetupInstructions } from '../../components/setup-instructions';
import type { ProjectKeysQuery } from '../../graphql/graphql';
import { Section, type FormatTime, type SectionData } from './settings-section';

type KeysSectionProps = { dsn: string; keys: SectionData<ProjectKeysQuery>; time: FormatTime; busy: boolean };

/**
 * The DSN with its snippet, the project's keys (disable one, set its rate limit) and key
 * rotation. A rate limit left empty means none for the key (docs/quotas.md).
 */
export function KeysSection({ dsn, keys, time, busy }: KeysSectionProps) {
  return (
    <Section id="dsn-heading" title="DSN and keys">
      <SetupInstructions dsn={dsn} dsnOnly />
      {keys.reason ? (
        <p className="muted">{keys.reason}</p>
      ) : (
        <>
          <h3>Keys</h3>
          {/* The rate-limit form makes the table wider than a phone: it scrolls in its own box. */}
          <div className="table-scroll" tabIndex={0} role="region" aria-label="DSN keys">
            <table className="data-table">
              <caption className="visually-hidden">DSN keys, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Public key</th>
                  <th scope="col">State</th>
                  <th scope="col">Rate limit (per second)</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data?.projectKeys.map((k) => (
                  <tr key={k.id}>
                    <th scope="row" className="mono break">
                      {k.publicKey}
                    </th>
                    <td>{k.enabled ? 'enabled' : <>disabled {time(k.disabledAt)}</>}</td>
                    <td>
                      {k.enabled ? (
                        <RateLimitForm keyId={k.id} publicKey={k.publicKey} value={k.rateLimitPerSecond} busy={busy} />
                      ) : (
                        (k.rateLimitPerSecond ?? 'none')
                      )}
                    </td>
                    <td>{time(k.createdAt)}</td>
                    <td>
                      {k.enabled && (
                        <Form method="post">
                          <input type="hidden" name="id" value={k.id} />
                          <ConfirmButton
                            intent="disableKey"
                            label="Disable"
                            confirmLabel="Disable this key"
                            name={k.publicKey}
                            disabled={busy}
                          />
                        </Form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Form method="post" className="checkbox-row">
            <button type="submit" name="intent" value="rotateKey" className="button" disabled={busy}>
              Rotate key
            </button>
            <label>
              <input type="checkbox" name="keepOldKeys" /> Keep the old keys working (for a gradual roll-out)
            </label>
          </Form>
        </>
      )}
    </Section>
  );
}

type RateLimitFormProps = { keyId: string; publicKey: string; value: number | null; busy: boolean };

/** One key's rate limit: a number of items per second, or empty for none. The API checks the range. */
function RateLimitForm({ keyId, publicKey, value, busy }: RateLimitFormProps) {
  const inputId = `rate-limit-${keyId}`;
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="id" value={keyId} />
      <label htmlFor={inputId} className="visually-hidden">
        Rate limit of {publicKey}, items per second (empty: no limit)
      </label>
      <input
        id={inputId}
        className="rate-limit-input"
        name="rateLimitPerSecond"
        type="number"
        min={1}
        max={1_000_000}
        step={1}
        inputMode="numeric"
        placeholder="no limit"
        defaultValue={value ?? ''}
      />
      <button type="submit" name="intent" value="setKeyRateLimit" className="button" disabled={busy}>
        Save limit
      </button>
    </Form>
  );
}
