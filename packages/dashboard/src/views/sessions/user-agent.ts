/**
 * A user agent as an operator reads it, "Firefox 128 on Windows": the browser (or the HTTP library) and
 * the operating system, from the well-known tokens; the raw string stays available on hover. Order
 * matters: Edge and Opera also say Chrome, and Chrome also says Safari.
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/(?:\b|Headless)Chrome\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows NT\b/, 'Windows'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function readableUserAgent(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Unknown device';
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  for (const [pattern, name] of BROWSERS) {
    const version = pattern.exec(userAgent)?.[1];
    if (version !== undefined)
      return system === undefined ? `${name} ${version}` : `${name} ${version} on ${system}`;
  }
  // Not a browser: a library or a tool names itself first (curl/8.5.0, okhttp/4.12.0).
  const product = userAgent.split(/\s/)[0] ?? userAgent;
  return system === undefined ? product.slice(0, 60) : `${product.slice(0, 60)} on ${system}`;
}
