/** RFC 8176 authentication method values as an operator reads them; an unknown value shows as it is. */
const METHOD_WORDS: Readonly<Record<string, string>> = {
  pwd: 'password',
  otp: 'one-time code',
  sms: 'text message',
  email: 'email',
  fed: 'single sign-on',
  mfa: 'multi-factor',
  hwk: 'security key',
  swk: 'passkey',
  user: 'user presence',
  pin: 'PIN',
};

/** "password, one-time code" for `["pwd", "otp"]`, or a dash when none is recorded. */
export function signInMethodWords(methods: readonly string[]): string {
  return methods.map((method) => METHOD_WORDS[method] ?? method).join(', ') || '—';
}
