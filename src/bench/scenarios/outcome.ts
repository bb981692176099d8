/** A scenario's figures, or why it has none. */
export type Outcome<T> = T | { error: string }
