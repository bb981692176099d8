/** Options of `kubectl logs`, as the pods/log subresource receives them. */
export interface LogOptions {
  container: string
  follow?: boolean
  tailLines?: number
  previous?: boolean
  sinceSeconds?: number
  timestamps?: boolean
  limitBytes?: number
}
