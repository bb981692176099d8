import { serveCsrWrite } from '../csr-writes'
import type { KindApi } from './types'

/** A CertificateSigningRequest write stores only what the CSR admission plugins allow (../csr-writes). */
export const certificateSigningRequestsApi: KindApi = {
  write: (req, env, _def, info, serve) => serveCsrWrite(req, env, info, serve),
}
