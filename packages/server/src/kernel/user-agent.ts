/**
 * User agents are cut to this length: the header is the caller's to choose and a session row keeps it,
 * so an 8 KiB header must not become 8 KiB of storage per sign-in.
 */
const MAX_USER_AGENT_LENGTH = 512;

/** The `User-Agent` header as Svc keeps it: its first value, cut; undefined when absent or empty. */
export function storedUserAgent(header: string | readonly string[] | undefined): string | undefined {
  const value = typeof header === 'string' ? header : header?.[0];
  return value === undefined || value === '' ? undefined : value.slice(0, MAX_USER_AGENT_LENGTH);
}
