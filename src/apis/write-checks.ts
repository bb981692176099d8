import type { KubeObject, Status, StatusCause } from '../apimachinery/types'
import { failure, invalid, type StoreResult } from '../apimachinery/status'
import { strictDecodingMessage } from './schema/unknown-fields'
import { checkDecode } from './schema/typed-decode'
import { kindStruct, schemas } from './schema'
import { validateObject } from './validation/validate-object'
import { applySchemaDefaults } from './crd/defaults'
import { pruneUnknownFields } from './crd/prune'
import type { ResourceDef } from './resource-def'
import { strategyOf } from './kind-strategies'
import type { FieldValidation } from './store-options'

/**
 * The checks every write passes before it is stored: a value of the wrong type is refused whatever
 * fieldValidation says (kube-apiserver cannot decode it), unknown fields are handled per the
 * request's fieldValidation (Strict rejects, Warn and Ignore drop them, Warn also warns), then
 * validation. `incoming` is the object as the client sent it (or the patch made it); `validate`
 * is the whole object's validation unless the write is one that checks less (a status write).
 */
export function admit(
  def: ResourceDef,
  obj: KubeObject,
  mode: FieldValidation = 'Warn',
  incoming: unknown = obj,
  validate: (o: KubeObject) => StatusCause[] = (o) => validateObject(def, o),
): StoreResult<KubeObject> {
  const struct = kindStruct(def.group, def.version, def.kind)
  const schema = def.custom?.schema
  let unknown: string[] = []
  if (schema) {
    // A custom resource is pruned to its structural schema, then defaulted from it.
    unknown = pruneUnknownFields(schema, obj)
    applySchemaDefaults(schema, obj)
  } else if (struct) {
    const decoded = checkDecode(incoming, struct, schemas)
    if (decoded.typeError !== undefined)
      return { ok: false, status: cannotDecode(def, decoded.typeError) }
    unknown = decoded.unknown
  }
  let warnings: string[] | undefined
  if (unknown.length) {
    if (mode === 'Strict')
      return { ok: false, status: cannotDecode(def, strictDecodingMessage(unknown)) }
    if (!schema) for (const path of unknown) removePath(obj, path)
    if (mode === 'Warn') warnings = unknown.map((p) => `unknown field "${p}"`)
  }
  const causes = validate(obj)
  if (causes.length)
    return {
      ok: false,
      status: invalid(
        def.group,
        def.kind,
        obj.metadata.name ?? obj.metadata.generateName ?? '',
        causes,
      ),
    }
  const kindWarnings = strategyOf(def).warnings
  if (kindWarnings?.length) warnings = [...(warnings ?? []), ...kindWarnings]
  return { ok: true, value: obj, warnings }
}

/**
 * The 400 kube-apiserver's decoder answers for a built-in kind's object (or apply configuration)
 * holding a value of the wrong type; undefined when every value fits, and for custom resources.
 */
export function typeErrorStatus(def: ResourceDef, obj: unknown): Status | undefined {
  return structTypeError(
    def.custom ? undefined : kindStruct(def.group, def.version, def.kind),
    def,
    obj,
  )
}

/** The same for a body decoded as `struct` of the schemas, named `kind` in `version` (e.g. a Scale). */
export function structTypeError(
  struct: string | undefined,
  named: { kind: string; version: string },
  obj: unknown,
): Status | undefined {
  const error = struct === undefined ? undefined : checkDecode(obj, struct, schemas).typeError
  return error === undefined ? undefined : cannotDecode(named, error)
}

/** kube-apiserver's 400 for a body its decoder refused. */
function cannotDecode(named: { kind: string; version: string }, why: string): Status {
  return failure(
    400,
    'BadRequest',
    `${named.kind} in version "${named.version}" cannot be handled as a ${named.kind}: ${why}`,
  )
}

/** Removes `a.b[2].c` from an object (the unknown-field paths strict decoding reports). */
export function removePath(obj: unknown, path: string): void {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? []
  let node: unknown = obj
  for (let i = 0; i < steps.length - 1; i++) {
    const step = steps[i]!
    if (node === null || typeof node !== 'object') return
    node = step.startsWith('[')
      ? (node as unknown[])[Number(step.slice(1, -1))]
      : (node as Record<string, unknown>)[step]
  }
  const last = steps[steps.length - 1]
  if (last && node && typeof node === 'object' && !Array.isArray(node))
    delete (node as Record<string, unknown>)[last]
}
