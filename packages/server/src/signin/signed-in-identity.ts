import type { ResumeData } from './repository.js';

/** Who signed in, where, and how: what the caller turns into tokens (direct) or a code (authorize). */
export interface SignedInIdentity {
  readonly userId: string;
  readonly clientId: string;
  readonly organizationId: string | null;
  readonly amr: readonly string[];
  readonly authTime: number;
  readonly flow: string;
  readonly resume: ResumeData | null;
}
