/** A host name that names this machine: `localhost`, 127.0.0.0/8 or `[::1]` (a URL's `hostname`). */
export const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** False only for an `http:` URI whose host is not loopback (private-use schemes are native apps'). */
export function isTlsOrLoopback(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  return url.protocol !== 'http:' || LOOPBACK_HOST.test(url.hostname);
}
