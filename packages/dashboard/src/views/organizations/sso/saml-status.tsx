import type { SvcSsoCertificate, SvcSsoConnection } from '@svc/contract';

const DAY_MS = 86_400_000;

/** How soon before a certificate's end the console warns: time to get the IdP's next one imported. */
export const EXPIRY_WARNING_DAYS = 30;

/** Where a connection stands: a draft waits for the IdP's metadata; only an enabled one signs users in. */
export function SamlStatus(props: { readonly connection: SvcSsoConnection }) {
  const { connection } = props;
  if (connection.enabled) return <span className="badge badge-on">Enabled</span>;
  if (connection.idpEntityId === null) return <span className="badge">Draft: no IdP metadata</span>;
  return <span className="badge">Disabled</span>;
}

/**
 * The last day a response signed by one of the IdP's certificates is accepted: the latest end among
 * them (during a key rollover the metadata lists the current and the next), null without metadata.
 */
export function lastValidUntil(certificates: readonly SvcSsoCertificate[]): string | null {
  const ends = certificates.map((certificate) => certificate.notAfter).sort();
  return ends.at(-1) ?? null;
}

/** Whole days from now to `iso` (negative once passed). */
export function daysUntil(iso: string, now = Date.now()): number {
  return Math.floor((Date.parse(iso) - now) / DAY_MS);
}

/**
 * A certificate's end as the operator needs it: passed, near (within {@link EXPIRY_WARNING_DAYS}), or
 * the date.
 */
export function ExpiryBadge(props: { readonly notAfter: string | null }) {
  if (props.notAfter === null) return <span className="muted">—</span>;
  const days = daysUntil(props.notAfter);
  const date = new Date(props.notAfter).toLocaleDateString();
  if (days < 0) return <span className="badge badge-danger">Expired {date}</span>;
  if (days <= EXPIRY_WARNING_DAYS) {
    return (
      <span className="badge badge-danger">
        Expires in {days} {days === 1 ? 'day' : 'days'}
      </span>
    );
  }
  return <time dateTime={props.notAfter}>Until {date}</time>;
}
