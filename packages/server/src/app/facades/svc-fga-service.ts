import {
  fgaGrantRequestSchema,
  fgaManagedRevocationSchema,
  recordPathSchema,
  type SvcFgaAccessTestResult,
  type SvcFgaGrant,
  type SvcFgaSubjectRef,
} from '@svc/contract';
import type { z } from 'zod';
import type { AdminActor } from '../../audit/actor.js';
import type { FgaAdmin } from '../../fga/fga-admin.js';
import { toDecisionView, toGrantView } from '../../fga/views.js';
import { SvcValidationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';

/** What an application asks: may `subject` use `permissionKey` on `resourceId`? */
export interface SvcFgaCheck {
  readonly subject: SvcFgaSubjectRef;
  readonly resourceId: string;
  readonly permissionKey: string;
}

/**
 * The in-process fine-grained authorization API (`svc.fga`). `checkAsync` is made to be called on every
 * request of a host app: it reads one row (the model's version) and answers from the node's cache, and
 * a grant revoked on any node is refused by the next check on every node.
 */
export class SvcFgaService {
  readonly #fga: FgaAdmin;

  constructor(fga: FgaAdmin) {
    this.#fga = fga;
  }

  /** Whether the subject holds the permission on the resource (a grant on it or on an ancestor). */
  async checkAsync(request: SvcFgaCheck): Promise<boolean> {
    return (await this.#fga.check.check(checked(request))).allowed;
  }

  /** The same answer with the grant, group and ancestor that allow it (null when denied). */
  async explainAsync(request: SvcFgaCheck): Promise<SvcFgaAccessTestResult> {
    return toDecisionView(await this.#fga.check.check(checked(request), true));
  }

  /**
   * Grants a role on a resource. `managedBy` names the source that manages the grant (a SCIM
   * connection: `scim:<connectionId>`); without it the grant is the operator's.
   */
  async grantAsync(request: z.input<typeof fgaGrantRequestSchema>, actor?: AdminActor): Promise<SvcFgaGrant> {
    const input = validate(fgaGrantRequestSchema, request, 'grant');
    return toGrantView((await this.#fga.grants.create(input, actor)).grant);
  }

  /** Revokes a grant: gone from the lists and from the next check on every node. */
  async revokeGrantAsync(grantId: string, actor?: AdminActor): Promise<SvcFgaGrant> {
    const { id } = validate(recordPathSchema, { id: grantId }, 'grant id');
    return toGrantView(await this.#fga.grants.revoke(id, actor));
  }

  /** Revokes every grant the source `managedBy` made (of one subject, when given). */
  async revokeManagedGrantsAsync(
    managedBy: string,
    options: { readonly subjectId?: string } = {},
    actor?: AdminActor,
  ): Promise<SvcFgaGrant[]> {
    const { managedBy: source, subjectId } = validate(
      fgaManagedRevocationSchema,
      { managedBy, ...options },
      'revocation',
    );
    const revoked = await this.#fga.grants.revokeManaged(
      source,
      subjectId === undefined ? {} : { subjectId },
      actor,
    );
    return revoked.map(toGrantView);
  }
}

/** The check's input, checked by hand: a schema parse on every call would cost more than the check. */
function checked(request: SvcFgaCheck): SvcFgaCheck {
  const subject = request?.subject as Partial<SvcFgaSubjectRef> | undefined;
  if (
    typeof request?.resourceId === 'string' &&
    typeof request.permissionKey === 'string' &&
    typeof subject?.id === 'string' &&
    typeof subject.type === 'string'
  ) {
    return request;
  }
  throw new SvcValidationError('A check takes { subject: { type, id }, resourceId, permissionKey }.');
}
