import type { ReactNode } from 'react';

/**
 * A section whose API does not exist in this build yet. Says so plainly rather than showing
 * made-up numbers; the page slots in once the API has the fields (see the TODO at each use).
 */
export function ComingSoon({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card coming" aria-labelledby="coming-heading">
      <h2 id="coming-heading">{title}</h2>
      <p className="muted">{children}</p>
      <p className="hint">Coming: the data is already collected; the API to read it here is not there yet.</p>
    </section>
  );
}
