/** A host name that names this machine: `localhost`, 127.0.0.0/8 or `[::1]` (a URL's `hostname`). */
export const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
