import type { ServiceBindings } from '../service-client/bindings'

/** What admission needs: the stores, and the Services its webhooks are called at. */
export type AdmissionBindings = ServiceBindings
