/** What a capability records: a kind such as `admin.organization.created` and who and what it concerns. */
export interface AuditEventInput {
  readonly kind: string;
  readonly actorType?: 'operator' | 'user' | 'client' | 'system';
  readonly actorId?: string;
  readonly organizationId?: string;
  readonly userId?: string;
  readonly clientId?: string;
  /**
   * The record the event is about, when the writer cannot tell it from the kind (audit/subject.ts):
   * an email template's key, for example.
   */
  readonly subjectId?: string;
  readonly ipAddress?: string;
  /** Extra detail; never a token, code, password or secret. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** The append-only audit log that every capability writes through. */
export interface AuditLog {
  record(event: AuditEventInput): Promise<void>;
}

/** Who caused an event: an operator of the admin APIs, a signed-in user, an OAuth client or the service itself. */
export type AuditActorType = NonNullable<AuditEventInput['actorType']>;
