import type { SecretBox } from '../kernel/crypto.js';

/** A calendar connection's tokens as sealed together. */
export interface CalendarTokens {
  readonly accessToken: string;
  readonly refreshToken: string | null;
}

type Sealer = Pick<SecretBox, 'encrypt' | 'decrypt'>;

/** The associated data binds the sealed tokens to their connection: copied to another row, they do not open. */
const aad = (calendarConnectionId: string) => `calendar-connection:${calendarConnectionId}:tokens`;

export function sealTokens(box: Sealer, calendarConnectionId: string, tokens: CalendarTokens): string {
  return box.encrypt(
    JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }),
    aad(calendarConnectionId),
  );
}

export function openTokens(box: Sealer, calendarConnectionId: string, sealed: string): CalendarTokens {
  const opened = JSON.parse(box.decrypt(sealed, aad(calendarConnectionId))) as CalendarTokens;
  return { accessToken: opened.accessToken, refreshToken: opened.refreshToken };
}
