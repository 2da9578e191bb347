/** The server's version; the headless client package is released at the same version. */
export const SVC_VERSION = '7.1.0';
