import { X509Certificate } from 'node:crypto';
import type { SvcSsoCertificate, SvcSsoConnection } from '@svc/contract';
import { toIso } from '../../kernel/clock.js';
import type { SsoConnectionRecord } from './repository.js';

/** A stored PEM certificate as operators check it against their IdP's console. */
function toSvcSsoCertificate(pem: string): SvcSsoCertificate {
  const certificate = new X509Certificate(pem);
  return {
    subject: certificate.subject.split('\n').join(', '),
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    fingerprintSha256: certificate.fingerprint256,
  };
}

/** A connection as operators read it (docs/reference/federation.md "SAML connections"). */
export function toSvcSsoConnection(record: SsoConnectionRecord): SvcSsoConnection {
  return {
    id: record.id,
    organizationId: record.organizationId,
    displayName: record.displayName,
    primaryDomain: record.primaryDomain,
    autoProvisionUsers: record.autoProvisionUsers,
    autoLinkByEmail: record.autoLinkByEmail,
    enabled: record.enabled,
    spEntityId: record.spEntityId,
    acsUrl: record.acsUrl,
    idpEntityId: record.idpEntityId,
    idpSsoUrl: record.idpSsoUrl,
    idpCertificates: record.idpSigningCertificates.map(toSvcSsoCertificate),
    metadataImportedAt: record.metadataImportedAt === null ? null : toIso(record.metadataImportedAt),
    createdAt: toIso(record.createdAt),
    updatedAt: toIso(record.updatedAt),
  };
}
