import { SAML_ATTRIBUTE_NAMES, type SvcSsoCertificate, type SvcSsoConnection } from '@svc/contract';
import { Time } from '../../../ui/format.js';
import { EmptyState, Facts, Panel } from '../../../ui/page.js';
import { daysUntil, EXPIRY_WARNING_DAYS, ExpiryBadge, lastValidUntil } from './saml-status.js';
import { ImportMetadata } from './saml-metadata.js';

/** The warning a connection's certificates call for: all passed, or the last one ending soon. */
function CertificateNotice(props: { readonly certificates: readonly SvcSsoCertificate[] }) {
  const until = lastValidUntil(props.certificates);
  if (until === null) return null;
  const days = daysUntil(until);
  if (days > EXPIRY_WARNING_DAYS) return null;
  return (
    <p className="notice notice-warning" role="note">
      {days < 0
        ? 'Every signing certificate of the IdP has expired: its answers are refused and nobody signs in through this connection. Import its current metadata.'
        : `The IdP's last signing certificate expires in ${days} ${days === 1 ? 'day' : 'days'}: import its metadata again once it lists the next certificate, or sign-ins stop then.`}
    </p>
  );
}

function Certificates(props: { readonly certificates: readonly SvcSsoCertificate[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Signing certificates</caption>
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Valid from</th>
            <th scope="col">Expiry</th>
            <th scope="col">SHA-256 fingerprint</th>
          </tr>
        </thead>
        <tbody>
          {props.certificates.map((certificate) => (
            <tr key={certificate.fingerprintSha256}>
              <th scope="row" className="row-name">
                {certificate.subject}
              </th>
              <td>
                <Time iso={certificate.notBefore} />
              </td>
              <td>
                <ExpiryBadge notAfter={certificate.notAfter} />
              </td>
              <td>
                <code className="id">{certificate.fingerprintSha256}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * What the imported metadata said (docs/reference/federation.md "What Svc reads of the metadata"): the
 * IdP's entity ID, its sign-in URL and signing certificates with their expiry; and the import.
 */
export function IdentityProviderPanel(props: { readonly connection: SvcSsoConnection }) {
  const { connection } = props;
  return (
    <Panel title="Identity provider" actions={<ImportMetadata connection={connection} />}>
      {connection.idpEntityId === null ? (
        <EmptyState title="No IdP metadata yet.">
          Once the IdP knows the details above, import its metadata: pasted, uploaded or from its URL. The
          import enables the connection.
        </EmptyState>
      ) : (
        <>
          <CertificateNotice certificates={connection.idpCertificates} />
          <Facts
            items={[
              ['IdP entity ID', <code className="id">{connection.idpEntityId}</code>],
              ['Sign-in URL', <code className="id">{connection.idpSsoUrl ?? '—'}</code>],
              ['Metadata imported', <Time iso={connection.metadataImportedAt} />],
            ]}
          />
          <h3>Signing certificates</h3>
          <p className="hint">
            An answer signed with any of these is accepted; two while the IdP rolls its key over.
          </p>
          <Certificates certificates={connection.idpCertificates} />
        </>
      )}
    </Panel>
  );
}

const MAPPED_FIELDS = [
  ['Email', SAML_ATTRIBUTE_NAMES.email, 'else the NameID, when its format is emailAddress'],
  ['First name', SAML_ATTRIBUTE_NAMES.firstName, null],
  ['Last name', SAML_ATTRIBUTE_NAMES.lastName, null],
  ['Display name', SAML_ATTRIBUTE_NAMES.displayName, 'else the first and last names'],
] as const;

/**
 * The attributes a SAML answer's user is read from: fixed for every connection (the names the common
 * IdPs send by default), so the IdP is set up to send one of them rather than Svc to read another.
 */
export function SamlAttributeMapping() {
  return (
    <Panel title="Attribute mapping">
      <p className="hint">
        Svc reads each field from the first of these attributes the answer carries (names compared without
        regard to case). Configure the IdP to send one of them; the mapping is the same for every SAML
        connection.
      </p>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">SAML attribute mapping</caption>
          <thead>
            <tr>
              <th scope="col">Svc field</th>
              <th scope="col">Attributes, in order</th>
            </tr>
          </thead>
          <tbody>
            {MAPPED_FIELDS.map(([field, names, otherwise]) => (
              <tr key={field}>
                <th scope="row" className="row-name">
                  {field}
                </th>
                <td>
                  {names.map((name) => (
                    <code key={name} className="id attribute-name">
                      {name}
                    </code>
                  ))}
                  {otherwise !== null && <span className="cell-detail muted">{otherwise}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
