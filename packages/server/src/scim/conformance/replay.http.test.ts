import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import type { ScimGroupMembershipChange } from '../directory-events.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { scimCall, scimTenant, type ScimTenant } from '../../test-support/scim.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

/** One request of a provider's documented sequence and what Svc must answer. */
const stepSchema = z.object({
  name: z.string(),
  request: z.object({ method: z.string(), path: z.string(), body: z.unknown().optional() }),
  expect: z.object({
    status: z.number(),
    /** A subset of the answer's JSON. */
    body: z.record(z.string(), z.unknown()).optional(),
    /** Top-level attributes the answer must not carry. */
    absent: z.array(z.string()).optional(),
  }),
  /** Values of the answer kept for later steps as {{name}}. */
  capture: z.record(z.string(), z.string()).optional(),
  /** Whether the provisioned user is an active member of the organization after the step. */
  member: z.boolean().optional(),
  /** The group membership change the step publishes to the directory subscribers. */
  membership: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }).optional(),
});
const fixtureSchema = z.object({
  client: z.string(),
  source: z.string(),
  contentType: z.string(),
  steps: z.array(stepSchema).min(1),
});

function fixture(name: string): z.output<typeof fixtureSchema> {
  return fixtureSchema.parse(JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')));
}

/** Replaces every {{name}} in the JSON of `value` with what earlier steps captured. */
function substitute<T>(value: T, captured: ReadonlyMap<string, string>): T {
  const text = JSON.stringify(value).replace(/\{\{(\w+)\}\}/g, (_match, name: string) => {
    const found = captured.get(name);
    if (found === undefined) throw new Error(`{{${name}}} was not captured by an earlier step`);
    return found;
  });
  return JSON.parse(text) as T;
}

/** A path with its query encoded as a client would send it (the fixtures keep filters readable). */
function encodedPath(path: string): string {
  const question = path.indexOf('?');
  if (question < 0) return path;
  const query = new URLSearchParams();
  for (const part of path.slice(question + 1).split('&')) {
    const equals = part.indexOf('=');
    query.append(part.slice(0, equals), decodeURIComponent(part.slice(equals + 1)));
  }
  return `${path.slice(0, question)}?${query.toString()}`;
}

/**
 * Replays, in order, the SCIM requests Microsoft Entra ID and Okta document for their provisioning
 * clients (fixtures beside this file), on both databases: each answer's status and body, the
 * organization membership of the provisioned user, and the group changes published before the answer.
 */
describeEachDatabase('SCIM conformance replays', (kind) => {
  let t: TestSvc;
  const published: ScimGroupMembershipChange[] = [];

  beforeAll(async () => {
    t = await createTestSvc(kind);
    t.svc.scimEvents.subscribe({
      membershipChanged: (change) => {
        published.push(change);
        return Promise.resolve();
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  for (const name of ['entra-id', 'okta']) {
    const { client, contentType, steps } = fixture(name);
    it(`answers ${client} as it expects, request by request`, async () => {
      const tenant: ScimTenant = await scimTenant(t, client);
      const captured = new Map<string, string>();
      for (const raw of steps) {
        const step = substitute(raw, captured);
        t.clock.advance(1000);
        published.length = 0;
        const answer = await scimCall(
          t,
          tenant.token,
          step.request.method,
          encodedPath(step.request.path),
          step.request.body,
          {
            'content-type': contentType,
          },
        );
        expect(answer.status, `${step.name}: ${JSON.stringify(answer.body)}`).toBe(step.expect.status);
        if (step.expect.body !== undefined) expect(answer.body, step.name).toMatchObject(step.expect.body);
        for (const attribute of step.expect.absent ?? []) {
          expect(answer.body, `${step.name}: ${attribute}`).not.toHaveProperty(attribute);
        }
        for (const [key, attribute] of Object.entries(step.capture ?? {})) {
          captured.set(key, String(answer.body?.[attribute]));
        }
        if (step.member !== undefined) {
          const userId = captured.get('userId') ?? '';
          expect(await t.svc.admin.userHasMembershipAsync(userId, tenant.organizationId), step.name).toBe(
            step.member,
          );
        }
        if (step.membership !== undefined) {
          expect(
            published.map((change) => ({
              added: [...change.addedUserIds].sort(),
              removed: [...change.removedUserIds].sort(),
            })),
            step.name,
          ).toEqual([
            { added: [...step.membership.added].sort(), removed: [...step.membership.removed].sort() },
          ]);
        }
      }
    });
  }
});
