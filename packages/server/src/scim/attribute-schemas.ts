import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from './schema-names.js';

/** An attribute of a SCIM schema as Svc describes it; what is left out is RFC 7643's default. */
export interface AttributeSpec {
  readonly name: string;
  readonly type?: 'string' | 'boolean' | 'complex' | 'reference';
  readonly multiValued?: boolean;
  readonly required?: boolean;
  readonly uniqueness?: 'none' | 'server';
  readonly mutability?: 'readWrite' | 'readOnly' | 'immutable';
  readonly subAttributes?: readonly AttributeSpec[];
}

const strings = (...names: string[]): AttributeSpec[] => names.map((name) => ({ name }));
const multiValued = (name: string): AttributeSpec => ({
  name,
  type: 'complex',
  multiValued: true,
  subAttributes: [...strings('value', 'display', 'type'), { name: 'primary', type: 'boolean' }],
});

/** The schemas of the attributes Svc stores (served at /Schemas, and the names requests are read by). */
export const SCIM_SCHEMAS: readonly {
  readonly id: string;
  readonly name: string;
  readonly attributes: readonly AttributeSpec[];
}[] = [
  {
    id: USER_SCHEMA,
    name: 'User',
    attributes: [
      { name: 'userName', required: true, uniqueness: 'server' },
      {
        name: 'name',
        type: 'complex',
        subAttributes: strings(
          'formatted',
          'familyName',
          'givenName',
          'middleName',
          'honorificPrefix',
          'honorificSuffix',
        ),
      },
      ...strings(
        'displayName',
        'nickName',
        'profileUrl',
        'title',
        'userType',
        'preferredLanguage',
        'locale',
        'timezone',
      ),
      { name: 'active', type: 'boolean' },
      multiValued('emails'),
      multiValued('phoneNumbers'),
      {
        name: 'addresses',
        type: 'complex',
        multiValued: true,
        subAttributes: [
          ...strings('formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'),
          { name: 'primary', type: 'boolean' },
        ],
      },
    ],
  },
  {
    id: ENTERPRISE_USER_SCHEMA,
    name: 'EnterpriseUser',
    attributes: [
      ...strings('employeeNumber', 'costCenter', 'organization', 'division', 'department'),
      {
        name: 'manager',
        type: 'complex',
        subAttributes: [{ name: 'value' }, { name: 'displayName', mutability: 'readOnly' }],
      },
    ],
  },
  {
    id: GROUP_SCHEMA,
    name: 'Group',
    attributes: [
      { name: 'displayName', required: true, uniqueness: 'server' },
      {
        name: 'members',
        type: 'complex',
        multiValued: true,
        subAttributes: [
          { name: 'value', mutability: 'immutable' },
          { name: 'display' },
          { name: '$ref', type: 'reference', mutability: 'immutable' },
        ],
      },
    ],
  },
];
