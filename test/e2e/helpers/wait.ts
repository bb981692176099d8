/** The end-to-end tests' way to the shared wait helper (test/helpers/wait.ts). */
export { waitFor, sleep, type WaitOptions } from '../../helpers/wait'
