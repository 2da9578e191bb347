/** The one-line notices of the parts built before the app's logger exists. */
export interface NoticeLogger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * A logger for what createSvc() builds before its HTTP app (and so the app's logger) exists: it keeps
 * the lines written until then, a few at start (such as the email service's warning that nothing is
 * delivered), and writes them, then every later line, through the logger it is attached to.
 */
export function earlyLog(): NoticeLogger & { attach(logger: NoticeLogger): void } {
  let target: NoticeLogger | undefined;
  const pending: { level: keyof NoticeLogger; message: string }[] = [];
  const write = (level: keyof NoticeLogger) => (message: string) => {
    if (target === undefined) pending.push({ level, message });
    else target[level](message);
  };
  return {
    info: write('info'),
    warn: write('warn'),
    attach(logger) {
      target = logger;
      for (const { level, message } of pending.splice(0)) logger[level](message);
    },
  };
}
