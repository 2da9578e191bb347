import type { EmailDeliveryStatus } from '@svc/contract';
import type { EmailTemplate } from './templates.js';

/** An operator override of one built-in template. */
export interface EmailTemplateOverride extends EmailTemplate {
  readonly key: string;
  /** Epoch milliseconds. */
  readonly updatedAt: number;
}

/** Storage of template overrides (the built-ins live in code). */
export interface EmailTemplateRepository {
  find(key: string): Promise<EmailTemplateOverride | undefined>;
  list(): Promise<EmailTemplateOverride[]>;
  /** Inserts or replaces the override of `key`. */
  save(override: EmailTemplateOverride): Promise<void>;
  /** True when an override existed. */
  remove(key: string): Promise<boolean>;
}

/** One row of the delivery log. Bodies are non-null only on development outbox rows. */
export interface EmailDeliveryRecord {
  readonly id: string;
  readonly templateKey: string;
  readonly to: string;
  readonly subject: string;
  readonly status: EmailDeliveryStatus;
  readonly providerMessageId: string | null;
  readonly failureDetail: string | null;
  readonly textBody: string | null;
  readonly htmlBody: string | null;
  readonly createdAt: number;
  readonly sentAt: number | null;
}

export interface EmailDeliveryFilter {
  readonly status?: EmailDeliveryStatus | undefined;
  readonly templateKey?: string | undefined;
}

/** Storage of the delivery log. */
export interface EmailDeliveryRepository {
  insert(record: EmailDeliveryRecord): Promise<void>;
  /** Records the outcome of a queued delivery. */
  complete(
    id: string,
    outcome: {
      status: EmailDeliveryStatus;
      providerMessageId: string | null;
      failureDetail: string | null;
      sentAt: number | null;
    },
  ): Promise<void>;
  find(id: string): Promise<EmailDeliveryRecord | undefined>;
  /** Newest first by (createdAt, id). */
  list(
    filter: EmailDeliveryFilter,
    page: { readonly limit: number; readonly cursor?: string | undefined },
  ): Promise<{ data: EmailDeliveryRecord[]; nextCursor: string | null }>;
}
