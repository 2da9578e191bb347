import { useEffect, type ReactNode } from 'react';
import { messageOf } from '../api/client.js';
import { Button } from './button.js';

/** A console page: its heading (and the window's title), a line of context and its main actions. */
export function Page(props: {
  readonly title: string;
  readonly description?: ReactNode;
  readonly actions?: ReactNode;
  /** A link back up (to the list a record belongs to). */
  readonly back?: ReactNode;
  readonly children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${props.title} · Svc`;
  }, [props.title]);
  return (
    <section className="page" aria-labelledby="page-title">
      {props.back !== undefined && <p className="back">{props.back}</p>}
      <header className="page-header">
        <div>
          <h1 id="page-title">{props.title}</h1>
          {props.description !== undefined && <p className="muted">{props.description}</p>}
        </div>
        {props.actions !== undefined && <div className="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

/** What an empty list says: what it holds, and what to do next. */
export function EmptyState(props: { readonly title: string; readonly children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{props.title}</p>
      {props.children !== undefined && <div className="muted">{props.children}</div>}
    </div>
  );
}

/** A section of a record's page. */
export function Panel(props: {
  readonly title: string;
  readonly actions?: ReactNode;
  readonly children: ReactNode;
}) {
  return (
    <section className="panel" aria-label={props.title}>
      <header className="panel-header">
        <h2>{props.title}</h2>
        {props.actions !== undefined && <div className="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

/** A record's page while it loads or when it failed. */
export function Loading(props: { readonly error: Error | null; readonly retry: () => void }) {
  if (props.error === null) return <p className="muted">Loading…</p>;
  return (
    <div className="notice notice-error" role="alert">
      <p>{messageOf(props.error)}</p>
      <Button onPress={props.retry}>Try again</Button>
    </div>
  );
}

/** Name–value pairs of a record. */
export function Facts(props: { readonly items: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="facts">
      {props.items.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
