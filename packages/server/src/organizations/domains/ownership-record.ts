import type { SvcDomainOwnershipRecord } from '@svc/contract';
import type { DomainCheck } from './repository.js';
import type { TxtAnswer } from './txt-lookup.js';

/**
 * The settings of docs/reference/organizations.md "The TXT look-up" (`SVC_DOMAIN_VERIFICATION_RECORD_PREFIX`,
 * `…_VALUE_PREFIX`): the record is named `<recordPrefix>.<domain>` and holds `<valuePrefix>=<value>`.
 */
export interface OwnershipRecordPrefixes {
  readonly recordPrefix: string;
  readonly valuePrefix: string;
}

/**
 * The TXT record that proves a claim (docs/reference/organizations.md "Lifecycle": type TXT, name, value).
 */
export function ownershipRecord(
  prefixes: OwnershipRecordPrefixes,
  claim: { readonly domain: string; readonly verificationValue: string },
): SvcDomainOwnershipRecord {
  return {
    type: 'TXT',
    name: `${prefixes.recordPrefix}.${claim.domain}`,
    value: `${prefixes.valuePrefix}=${claim.verificationValue}`,
  };
}

/**
 * Reads a look-up's answer against the expected record. The value must equal one TXT record (its
 * character-strings joined; surrounding spaces ignored, as DNS consoles add them); another record that
 * starts with the value prefix is a mismatch (an old claim's value, a typo), any other TXT record at the
 * name is ignored, like SPF ignores records that are not `v=spf1` (RFC 7208 §4.5).
 */
export function readOwnershipAnswer(
  expected: SvcDomainOwnershipRecord,
  answer: TxtAnswer,
  valuePrefix: string,
  checkedAt: number,
): DomainCheck {
  if (answer.kind === 'error') {
    return {
      checkedAt,
      result: 'dns_error',
      message: `The DNS look-up of ${expected.name} got no answer (${answer.code}); try again later.`,
    };
  }
  const records = answer.kind === 'records' ? answer.records.map((record) => record.trim()) : [];
  if (records.includes(expected.value)) {
    return { checkedAt, result: 'verified', message: `${expected.name} holds the expected TXT record.` };
  }
  if (records.some((record) => record.startsWith(`${valuePrefix}=`))) {
    return {
      checkedAt,
      result: 'value_mismatch',
      message: `The TXT record at ${expected.name} holds another ${valuePrefix} value; publish ${expected.value}.`,
    };
  }
  return {
    checkedAt,
    result: 'record_missing',
    message: `No TXT record ${expected.value} was found at ${expected.name}.`,
  };
}
