/** ValidateImmutableField (k8s.io/apimachinery/pkg/api/validation), semantic equality deciding. */
import { invalid, type FieldCause } from '../../apimachinery/field-errors'
import { semanticEqual } from './semantic'
import { goLabelSelector } from './selectors'
import type { MetaSelector } from './shapes'

const immutable = 'field is immutable'

/** ValidateImmutableField: the field's new value is refused when it differs from the stored one. */
export function immutableField(
  path: string,
  next: unknown,
  old: unknown,
  display?: string,
): FieldCause[] {
  return semanticEqual(next, old)
    ? []
    : [
        invalid(
          path,
          next ?? null,
          immutable,
          next === undefined || next === null ? undefined : display,
        ),
      ]
}

/** The selector's cause, its value printed as upstream prints a metav1.LabelSelector. */
export function immutableSelector(path: string, next: unknown, old: unknown): FieldCause[] {
  return immutableField(path, next, old, goLabelSelector(next as MetaSelector))
}
