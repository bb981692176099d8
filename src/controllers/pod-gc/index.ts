export { podGcController, DEFAULT_QUARANTINE_MS, DEFAULT_TERMINATED_THRESHOLD, type PodGcOptions } from './controller'
export { TERMINATED_KEY } from './reconcile'
export { OUT_OF_SERVICE_TAINT } from './nodes'
