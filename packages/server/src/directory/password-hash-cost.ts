/** What an argon2id password hash costs: memory in KiB and passes over it (parallelism is always 1). */
export interface PasswordHashCost {
  readonly memoryCost: number;
  readonly timeCost: number;
}

/** OWASP Password Storage Cheat Sheet parameters for argon2id: m=19 MiB, t=2, p=1 (docs/reference/sign-in.md "Password"). */
export const DEFAULT_PASSWORD_HASH_COST: PasswordHashCost = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
});

/** argon2id's own floor: 8 KiB of memory per lane and one pass. */
const ARGON2_MINIMUM: PasswordHashCost = { memoryCost: 8, timeCost: 1 };

/** The OWASP cheat sheet's equally strong argon2id configurations; a cost must reach one of them. */
const OWASP_MINIMUMS: readonly PasswordHashCost[] = [
  { memoryCost: 47_104, timeCost: 1 },
  { memoryCost: 19_456, timeCost: 2 },
  { memoryCost: 12_288, timeCost: 3 },
  { memoryCost: 9_216, timeCost: 4 },
  { memoryCost: 7_168, timeCost: 5 },
];

const reaches = (cost: PasswordHashCost, floor: PasswordHashCost) =>
  cost.memoryCost >= floor.memoryCost && cost.timeCost >= floor.timeCost;

/**
 * Why `cost` cannot hash passwords, or undefined. Below the OWASP minimums only in development mode,
 * where tests and local runs trade strength for speed; argon2id's own floor always applies.
 */
export function passwordHashCostIssue(cost: PasswordHashCost, development: boolean): string | undefined {
  if (
    !Number.isInteger(cost.memoryCost) ||
    !Number.isInteger(cost.timeCost) ||
    !reaches(cost, ARGON2_MINIMUM)
  ) {
    return `passwordHashing needs whole numbers, memoryCost of at least 8 (KiB) and timeCost of at least 1, got memoryCost ${cost.memoryCost} and timeCost ${cost.timeCost}.`;
  }
  if (!development && !OWASP_MINIMUMS.some((floor) => reaches(cost, floor))) {
    return `passwordHashing memoryCost ${cost.memoryCost} with timeCost ${cost.timeCost} is weaker than every OWASP argon2id minimum (e.g. memoryCost 19456 with timeCost 2); weaker costs are allowed only in development mode.`;
  }
  return undefined;
}
