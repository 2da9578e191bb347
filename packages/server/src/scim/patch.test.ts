import { describe, expect, it } from 'vitest';
import { ScimError } from './errors.js';
import { applyPatch, parsePatchBody } from './patch.js';
import { ENTERPRISE_USER_SCHEMA, PATCH_OP_SCHEMA } from './schema-names.js';

const patched = (resource: Record<string, unknown>, Operations: unknown[]) =>
  applyPatch(resource, parsePatchBody({ schemas: [PATCH_OP_SCHEMA], Operations }), [ENTERPRISE_USER_SCHEMA]);

/** PATCH operations as the providers send them, on a resource's JSON (RFC 7644 §3.5.2). */
describe('SCIM PATCH', () => {
  const user = {
    userName: 'ann@acme.test',
    name: { givenName: 'Ann', familyName: 'Lee' },
    emails: [
      { value: 'ann@acme.test', type: 'work', primary: true },
      { value: 'ann@home.test', type: 'home' },
    ],
  };

  it('reads op, path and value case-insensitively and leaves the input untouched', () => {
    const result = patched(user, [{ OP: 'REPLACE', PATH: 'Name.GivenName', Value: 'Anne' }]);
    expect(result.name).toEqual({ givenName: 'Anne', familyName: 'Lee' });
    expect(user.name.givenName).toBe('Ann');
  });

  it('merges a path-less value whose keys are attributes, paths or an extension object', () => {
    const result = patched(user, [
      {
        op: 'add',
        value: {
          displayName: 'Ann Lee',
          'name.familyName': 'Lee-Smith',
          [ENTERPRISE_USER_SCHEMA]: { department: 'R&D' },
          [`${ENTERPRISE_USER_SCHEMA}:costCenter`]: '42',
        },
      },
    ]);
    expect(result).toMatchObject({
      displayName: 'Ann Lee',
      name: { givenName: 'Ann', familyName: 'Lee-Smith' },
      [ENTERPRISE_USER_SCHEMA]: { department: 'R&D', costCenter: '42' },
    });
  });

  it('targets the items a value filter matches, and creates the item an equality names', () => {
    const replaced = patched(user, [
      { op: 'replace', path: 'emails[type eq "home"].value', value: 'a@new.test' },
    ]);
    expect(replaced.emails).toEqual([user.emails[0], { value: 'a@new.test', type: 'home' }]);
    const created = patched({ userName: 'x' }, [
      { op: 'add', path: 'emails[type eq "work"].value', value: 'x@y.test' },
    ]);
    expect(created.emails).toEqual([{ type: 'work', value: 'x@y.test' }]);
    const removedSub = patched(user, [{ op: 'remove', path: 'emails[type eq "work"].primary' }]);
    expect(removedSub.emails).toEqual([{ value: 'ann@acme.test', type: 'work' }, user.emails[1]]);
    const removedItem = patched(user, [{ op: 'remove', path: 'emails[type eq "home"]' }]);
    expect(removedItem.emails).toEqual([user.emails[0]]);
  });

  it('compares the strings of a value filter case-insensitively, as RFC 7643 declares type and value', () => {
    const removed = patched(user, [{ op: 'remove', path: 'emails[type eq "HOME"]' }]);
    expect(removed.emails).toEqual([user.emails[0]]);
    const replaced = patched(user, [
      { op: 'replace', path: 'emails[value eq "ANN@acme.test"].type', value: 'other' },
    ]);
    expect(replaced.emails).toEqual([{ ...user.emails[0], type: 'other' }, user.emails[1]]);
    const kept = patched(user, [{ op: 'remove', path: 'emails[type ne "WORK"]' }]);
    expect(kept.emails).toEqual([user.emails[0]]);
  });

  it('adds to a multi-valued attribute without duplicates and removes listed values by value', () => {
    const group = { displayName: 'G', members: [{ value: 'u1' }] };
    const added = patched(group, [
      { op: 'add', path: 'members', value: [{ value: 'u1', display: 'U1' }, { value: 'u2' }] },
    ]);
    expect(added.members).toEqual([{ value: 'u1' }, { value: 'u2' }]);
    const removed = patched(added, [{ op: 'remove', path: 'members', value: [{ value: 'u1', $ref: null }] }]);
    expect(removed.members).toEqual([{ value: 'u2' }]);
    const replaced = patched(added, [{ op: 'replace', path: 'members', value: [{ value: 'u3' }] }]);
    expect(replaced.members).toEqual([{ value: 'u3' }]);
    const emails = patched(user, [
      { op: 'add', path: 'emails', value: [{ value: 'ANN@home.test', type: 'home' }] },
    ]);
    expect(emails.emails).toEqual(user.emails);
  });

  it('ignores the removal of what is not there', () => {
    expect(patched(user, [{ op: 'remove', path: `${ENTERPRISE_USER_SCHEMA}:manager` }])).toEqual(user);
    expect(patched(user, [{ op: 'remove', path: 'nickName' }])).toEqual(user);
  });

  it('refuses bodies that are not PatchOp messages', () => {
    for (const body of [null, [], { Operations: [] }, { schemas: [PATCH_OP_SCHEMA], Operations: 'x' }]) {
      expect(() => parsePatchBody(body)).toThrow(ScimError);
    }
  });
});
