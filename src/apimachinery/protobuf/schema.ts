/**
 * Field tables for the typed messages: for each field number, the JSON name and how to read it.
 * The numbers are those of the upstream `generated.proto` definitions; the JSON names are the
 * Go struct tags, which the protobuf field names follow (with the few exceptions noted at their use).
 */

export type Table = Readonly<Record<number, Field>>
/** A message type, given lazily so tables may refer to each other in any order. */
export type MessageRef = () => Table

export type Scalar = 'string' | 'int' | 'bool' | 'bytes'
/** Messages with a JSON form of their own: metav1.Time, resource.Quantity, intstr.IntOrString. */
export type Special = 'time' | 'quantity' | 'intstr'
export type FieldType = Scalar | Special | MessageRef

export interface Field {
  name: string
  type: FieldType
  repeated?: boolean
  /** A map<string, type>, sent as repeated entry messages {key = 1, value = 2}. */
  map?: boolean
  /**
   * Keep a zero value that was sent. Pointer fields are only sent when set, so a zero there is
   * meaningful; fields without `omitempty` always appear in JSON.
   */
  keep?: boolean
  /** An embedded Go struct: its fields sit directly in the parent's JSON object. */
  inline?: boolean
}

type Opts = Pick<Field, 'keep' | 'repeated'>

export const str = (name: string, o?: Opts): Field => ({ name, type: 'string', ...o })
export const int = (name: string, o?: Opts): Field => ({ name, type: 'int', ...o })
export const bool = (name: string, o?: Opts): Field => ({ name, type: 'bool', ...o })
export const strs = (name: string): Field => ({ name, type: 'string', repeated: true })
export const time = (name: string): Field => ({ name, type: 'time' })
export const quantity = (name: string): Field => ({ name, type: 'quantity' })
export const intstr = (name: string): Field => ({ name, type: 'intstr' })
export const msg = (name: string, type: MessageRef, o?: Opts): Field => ({ name, type, ...o })
export const list = (name: string, type: MessageRef): Field => ({ name, type, repeated: true })
export const inline = (type: MessageRef): Field => ({ name: '', type, inline: true })
export const map = (name: string, type: FieldType = 'string'): Field => ({ name, type, map: true })
