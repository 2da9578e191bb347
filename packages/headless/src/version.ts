/**
 * The package version. It equals the server's version exactly (docs/reference/sign-in.md "The headless client package": installed at the
 * same version, currently 7.1.0); a test compares it with both package.json files.
 */
export const VERSION = '7.1.0';
