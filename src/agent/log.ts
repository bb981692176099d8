/** The agent's log lines: one line each, time and node first, to stderr (stdout is for the startup banner). */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
  child(prefix: string): Logger
}

export function createLogger(
  opts: { prefix?: string; verbose?: boolean; write?: (line: string) => void } = {},
): Logger {
  const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'))
  const prefix = opts.prefix ? `${opts.prefix} ` : ''
  const line = (level: string, message: string) =>
    write(`${new Date().toISOString()} ${level} ${prefix}${message}`)
  return {
    debug: (m) => {
      if (opts.verbose) line('DEBUG', m)
    },
    info: (m) => line('INFO ', m),
    warn: (m) => line('WARN ', m),
    error: (m) => line('ERROR', m),
    child: (p) => createLogger({ ...opts, prefix: opts.prefix ? `${opts.prefix} ${p}` : p }),
  }
}
