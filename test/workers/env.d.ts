declare namespace Cloudflare {
  interface Env extends EdgeplaneEnv {}
}
type EdgeplaneEnv = import('../../src/env').Env
