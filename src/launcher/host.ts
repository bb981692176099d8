/** The only address the local server listens on. */
export const HOST = '127.0.0.1'
