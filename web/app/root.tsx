import type { LinksFunction, MetaFunction } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react';
import type { ReactNode } from 'react';
import { ErrorMessage } from './components/error-message';
import { useNonce } from './lib/nonce';
import additionsHref from './additions.css?url';
import stylesHref from './styles.css?url';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesHref },
  { rel: 'stylesheet', href: additionsHref },
];

export const meta: MetaFunction = () => [{ title: 'Tracker' }];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main className="page page-narrow">
      <ErrorMessage />
    </main>
  );
}
