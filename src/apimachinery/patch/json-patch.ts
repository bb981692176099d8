import { PatchError } from './patch-error'
import { jsonEqual } from '../json-value'
import { maxJsonPatchOperations, maxRequestBodyBytes } from '../../config'
import { byteLength } from '../field-formats'

/**
 * JSON patch (RFC 6902), the `application/json-patch+json` body of `kubectl patch --type=json`
 * and `kubectl rollout undo`. Operations apply in order to a copy of `doc`; the first one that
 * does not apply fails the whole patch. Error texts are those of gopkg.in/evanphx/json-patch.v4,
 * the library kube-apiserver applies JSON patches with, and so are two of its leniencies that
 * kubectl users rely on: `replace` of an absent object member adds it, and `test` of an absent
 * member against `null` passes.
 *
 * As kube-apiserver, a patch of more than 10,000 operations is refused whole (413), and `copy`
 * operations may together add at most `maxCopyBytes` (the request body limit) of JSON: a few
 * copies that each double a value would otherwise grow the object exponentially.
 */
export function applyJsonPatch(
  doc: unknown,
  ops: unknown,
  maxCopyBytes = maxRequestBodyBytes,
): unknown {
  const operations = decode(ops)
  if (operations.length > maxJsonPatchOperations) {
    throw new PatchError(
      `The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${operations.length}`,
      413,
    )
  }
  const root: Root = { value: structuredClone(doc), copied: 0, maxCopyBytes }
  for (const op of operations) apply(root, op)
  return root.value
}

/** The document being patched, and the bytes `copy` operations have added to it so far. */
type Root = { value: unknown; copied: number; maxCopyBytes: number }

type Operation = Record<string, unknown>
/** The parent of the location a pointer names, and the last (decoded) reference token. */
type Location = { parent: Record<string, unknown> | unknown[]; key: string }

/** The body must be an array of objects (`null` decodes to no operations); upstream answers 400 with the JSON decoder's text otherwise. */
function decode(ops: unknown): Operation[] {
  if (ops === null) return []
  if (!Array.isArray(ops)) {
    throw new PatchError(
      `json: cannot unmarshal ${jsonKind(ops)} into Go value of type jsonpatch.Patch`,
      400,
    )
  }
  for (const op of ops) {
    if (!isObject(op) && op !== null) {
      throw new PatchError(
        `json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`,
        400,
      )
    }
  }
  return ops.map((op) => (op === null ? {} : (op as Operation)))
}

function apply(root: Root, op: Operation): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown'
  switch (kind) {
    case 'add':
      return add(root, op)
    case 'remove':
      return remove(root, op)
    case 'replace':
      return replace(root, op)
    case 'move':
      return move(root, op)
    case 'copy':
      return copy(root, op)
    case 'test':
      return test(root, op)
    default:
      throw new PatchError(`Unexpected kind: ${kind}`)
  }
}

const missing = (text: string) => new PatchError(`${text}: missing value`)

function add(root: Root, op: Operation): void {
  const path = pathOf(op)
  if (path === undefined) throw missing('add operation failed to decode path')
  const at = locate(root.value, path)
  if (!at) throw missing(`add operation does not apply: doc is missing path: "${path}"`)
  insert(at, valueOf(op), `error in add for path: '${path}'`)
}

function remove(root: Root, op: Operation): void {
  const path = pathOf(op)
  if (path === undefined) throw missing('remove operation failed to decode path')
  const at = locate(root.value, path)
  if (!at) throw missing(`remove operation does not apply: doc is missing path: "${path}"`)
  take(at, `error in remove for path: '${path}'`)
}

function replace(root: Root, op: Operation): void {
  const path = pathOf(op)
  if (path === undefined)
    throw missing('replace operation failed to decode path: operation missing path field')
  const at = locate(root.value, path)
  if (!at) throw missing(`replace operation does not apply: doc is missing path: ${path}`)
  if (Array.isArray(at.parent)) {
    const index = arrayIndex(at.key)
    if (typeof index === 'string' || index >= at.parent.length) {
      throw missing(`replace operation does not apply: doc is missing key: ${path}`)
    }
    at.parent[index] = valueOf(op)
  } else {
    setKey(at.parent, at.key, valueOf(op))
  }
}

function move(root: Root, op: Operation): void {
  const from = fromOf(op)
  if (from === undefined)
    throw missing('move operation failed to decode from: operation, missing from field')
  const source = locate(root.value, from)
  if (!source) throw missing(`move operation does not apply: doc is missing from path: ${from}`)
  const value = take(source, `error in move for path: '${source.key}'`)
  const path = pathOf(op)
  if (path === undefined)
    throw missing('move operation failed to decode path: operation missing path field')
  const target = locate(root.value, path)
  if (!target)
    throw missing(`move operation does not apply: doc is missing destination path: ${path}`)
  insert(target, value, `error in move for path: '${path}'`)
}

function copy(root: Root, op: Operation): void {
  const from = fromOf(op)
  if (from === undefined)
    throw missing('copy operation failed to decode from: operation, missing from field')
  const source = locate(root.value, from)
  if (!source) throw missing(`copy operation does not apply: doc is missing from path: ${from}`)
  const found = read(source, `error in copy for from: '${from}'`)
  if (!found.present)
    throw missing(`error in copy for from: '${from}': Unable to get nonexistent key: ${source.key}`)
  const path = pathOf(op)
  if (path === undefined) throw missing('copy operation failed to decode path')
  const target = locate(root.value, path)
  if (!target)
    throw missing(`copy operation does not apply: doc is missing destination path: ${path}`)
  // Sized as its JSON before it is cloned, so an oversized copy is refused before it costs memory.
  root.copied += byteLength(JSON.stringify(found.value) ?? 'null')
  if (root.maxCopyBytes > 0 && root.copied > root.maxCopyBytes) {
    throw new PatchError(
      `Unable to complete the copy, the accumulated size increase of copy is ${root.copied}, exceeding the limit ${root.maxCopyBytes}`,
    )
  }
  insert(target, structuredClone(found.value), 'error while adding value during copy')
}

function test(root: Root, op: Operation): void {
  const path = pathOf(op)
  if (path === undefined)
    throw missing('test operation failed to decode path: operation missing path field')
  const at = locate(root.value, path)
  if (!at) throw missing(`test operation does not apply: is missing path: ${path}`)
  const found = read(at, `error in test for path: '${path}'`)
  const expected = valueOf(op)
  const ok = found.present ? jsonEqual(found.value, expected) : expected === null
  if (!ok) throw new PatchError(`testing value ${path} failed: test failed`)
}

/** Adds at a location: sets an object member, or inserts into an array (`-` appends). */
function insert(at: Location, value: unknown, context: string): void {
  if (!Array.isArray(at.parent)) {
    setKey(at.parent, at.key, value)
    return
  }
  if (at.key === '-') {
    at.parent.push(value)
    return
  }
  const index = arrayIndex(at.key)
  if (typeof index === 'string') {
    throw new PatchError(`${context}: value was not a proper array index: '${at.key}': ${index}`)
  }
  if (index > at.parent.length) throw invalidIndex(context, index)
  at.parent.splice(index, 0, value)
}

/** Removes the value at a location and returns it. */
function take(at: Location, context: string): unknown {
  if (!Array.isArray(at.parent)) {
    if (!Object.hasOwn(at.parent, at.key))
      throw missing(`${context}: Unable to remove nonexistent key: ${at.key}`)
    const value = at.parent[at.key]
    delete at.parent[at.key]
    return value
  }
  const index = arrayIndex(at.key)
  if (typeof index === 'string') throw new PatchError(`${context}: ${index}`)
  if (index >= at.parent.length) throw invalidIndex(context, index)
  return at.parent.splice(index, 1)[0]
}

function read(at: Location, context: string): { present: boolean; value?: unknown } {
  if (!Array.isArray(at.parent)) {
    return Object.hasOwn(at.parent, at.key)
      ? { present: true, value: at.parent[at.key] }
      : { present: false }
  }
  const index = arrayIndex(at.key)
  if (typeof index === 'string') throw new PatchError(`${context}: ${index}`)
  if (index >= at.parent.length) throw invalidIndex(context, index)
  return { present: true, value: at.parent[index] }
}

const invalidIndex = (context: string, index: number) =>
  new PatchError(`${context}: Unable to access invalid index: ${index}: invalid index referenced`)

/**
 * Resolves every reference token of a JSON pointer (RFC 6901) but the last. Undefined when the
 * pointer is not of the form `/a/b` or a token on the way does not name an object or array.
 */
function locate(doc: unknown, pointer: string): Location | undefined {
  if (!pointer.startsWith('/')) return undefined
  const tokens = pointer.slice(1).split('/').map(unescapeToken)
  const key = tokens.pop()!
  let node = doc
  for (const token of tokens) {
    if (Array.isArray(node)) {
      const index = arrayIndex(token)
      if (typeof index === 'string' || index >= node.length) return undefined
      node = node[index]
    } else if (isObject(node)) {
      if (!Object.hasOwn(node, token)) return undefined
      node = node[token]
    } else {
      return undefined
    }
  }
  if (Array.isArray(node) || isObject(node)) return { parent: node, key }
  return undefined
}

/** `~1` is `/` and `~0` is `~`, decoded in that order (RFC 6901 section 4). */
const unescapeToken = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~')

/** An array index token (RFC 6901: `0` or digits without a leading zero), or why it is not one. */
function arrayIndex(token: string): number | string {
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    return `strconv.Atoi: parsing ${JSON.stringify(token)}: invalid syntax`
  return Number(token)
}

const pathOf = (op: Operation) => (typeof op.path === 'string' ? op.path : undefined)
const fromOf = (op: Operation) => (typeof op.from === 'string' ? op.from : undefined)
/** An absent `value` is null, as the apiserver's decoder leaves it. */
const valueOf = (op: Operation) => (op.value === undefined ? null : structuredClone(op.value))

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'boolean') return 'bool'
  return typeof value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Assigns without letting a `__proto__` member of a parsed body reach the prototype. */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
  else obj[key] = value
}
